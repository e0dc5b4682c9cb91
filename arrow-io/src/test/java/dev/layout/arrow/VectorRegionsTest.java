package dev.layout.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.arrow.VectorRegions.HaloPart;
import dev.layout.arrow.VectorRegions.Side;
import dev.layout.dataloop.Packing;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class VectorRegionsTest {
    private static final Datatype F64 = Primitive.FLOAT64;
    private BufferAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }

    /** A 3D array with value(z, y, x) = 10000 z + 100 y + x. */
    private Float8Vector cube(int nz, int ny, int nx) {
        Float8Vector v = VectorPacking.denseFloat8(allocator, "cube", nz * ny * nx);
        for (int z = 0; z < nz; z++) {
            for (int y = 0; y < ny; y++) {
                for (int x = 0; x < nx; x++) {
                    v.set((z * ny + y) * nx + x, 10000.0 * z + 100.0 * y + x);
                }
            }
        }
        return v;
    }

    private static double[] doubles(byte[] packed) {
        Memory m = Memory.ofArray(packed);
        double[] d = new double[packed.length / 8];
        for (int i = 0; i < d.length; i++) {
            d[i] = m.getDouble(8L * i);
        }
        return d;
    }

    @Test
    void elementTypeFollowsTheVector() {
        try (Float8Vector f = new Float8Vector("f", allocator);
                IntVector i = new IntVector("i", allocator)) {
            assertThat(VectorRegions.elementType(f)).isEqualTo(Primitive.FLOAT64);
            assertThat(VectorRegions.elementType(i)).isEqualTo(Primitive.INT32);
        }
    }

    @Test
    void rowAndColumnOfAMatrix() {
        try (Float8Vector v = cube(1, 4, 5)) {
            assertThat(doubles(VectorPacking.pack(v, VectorRegions.row(F64, 4, 5, 2), 1, 0)))
                    .containsExactly(200, 201, 202, 203, 204);
            assertThat(doubles(VectorPacking.pack(v, VectorRegions.column(F64, 4, 5, 3), 1, 0)))
                    .containsExactly(3, 103, 203, 303);
        }
    }

    @Test
    void facesOfACube() {
        long[] sizes = {3, 4, 5};
        try (Float8Vector v = cube(3, 4, 5)) {
            double[] yz = doubles(VectorPacking.pack(v, VectorRegions.face(F64, sizes, 2, 4), 1, 0));
            assertThat(yz).hasSize(12).startsWith(4, 104, 204, 304, 10004);
            double[] xz = doubles(VectorPacking.pack(v, VectorRegions.face(F64, sizes, 1, 0), 1, 0));
            assertThat(xz).hasSize(15).startsWith(0, 1, 2, 3, 4, 10000);
            double[] xy = doubles(VectorPacking.pack(v, VectorRegions.face(F64, sizes, 0, 2), 1, 0));
            assertThat(xy).hasSize(20).startsWith(20000, 20001);
        }
    }

    @Test
    void faceIsTheSubarrayNotation() {
        Datatype t = VectorRegions.face(F64, new long[] {256, 256, 256}, 2, 0);
        assertThat(t.toString()).isEqualTo("subarray([256,256,256], [256,256,1], [0,0,0], C, float64)");
        assertThat(LayoutParser.parse(t.toString())).isEqualTo(t);
    }

    @Test
    void haloSendAndReceiveRegionsOfAGhostedBlock() {
        // 6x6x6 block with ghost 1: interior 4x4x4 at [1,5).
        long[] sizes = {6, 6, 6};
        try (Float8Vector v = cube(6, 6, 6)) {
            Datatype sendHighX = VectorRegions.halo(F64, sizes, 1, 2, Side.HIGH, HaloPart.SEND);
            Datatype recvLowX = VectorRegions.halo(F64, sizes, 1, 2, Side.LOW, HaloPart.RECEIVE);
            assertThat(sendHighX.byteSize()).isEqualTo(16 * 8);
            assertThat(doubles(VectorPacking.pack(v, sendHighX, 1, 0))).startsWith(10104, 10204);
            assertThat(doubles(VectorPacking.pack(v, recvLowX, 1, 0))).startsWith(10100, 10200);
        }
    }

    @Test
    void unpackMovesARegionBetweenVectors() {
        Datatype col = VectorRegions.column(F64, 4, 5, 1);
        try (Float8Vector a = cube(1, 4, 5);
                Float8Vector b = VectorPacking.denseFloat8(allocator, "b", 20)) {
            byte[] packed = VectorPacking.pack(a, col, 1, 0);
            VectorPacking.unpack(packed, 0, b, col, 1, 0);
            assertThat(b.get(1)).isEqualTo(1);
            assertThat(b.get(16)).isEqualTo(301);
            assertThat(b.get(0)).isZero();
        }
    }

    @Test
    void packIntoAnArrowBufferAndBack() {
        Datatype face = VectorRegions.face(F64, new long[] {3, 4, 5}, 1, 2);
        try (Float8Vector a = cube(3, 4, 5);
                ArrowBuf buf = allocator.buffer(face.byteSize());
                BaseFixedWidthVector b = VectorPacking.dense(allocator, "b", Primitive.FLOAT64, 60)) {
            assertThat(VectorPacking.pack(a, face, 1, 0, buf, 0)).isEqualTo(15 * 8);
            VectorPacking.unpack(buf, 0, b, face, 1, 0);
            byte[] again = VectorPacking.pack(b, face, 1, 0);
            assertThat(again)
                    .isEqualTo(Packing.pack(face, 1, ArrowMemory.ofData(a).toArray(0, 480), 0));
        }
    }

    @Test
    void rejectsRegionLargerThanTheVector() {
        try (Float8Vector v = VectorPacking.denseFloat8(allocator, "v", 10)) {
            Datatype row = VectorRegions.row(F64, 4, 5, 2);
            assertThatThrownBy(() -> VectorPacking.pack(v, row, 1, 0))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("but the buffer has 80 bytes");
        }
    }

    @Test
    void rejectsBadFaceArguments() {
        assertThatThrownBy(() -> VectorRegions.face(F64, new long[] {4, 4}, 2, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("face: axis 2 (expected: 0 <= axis < 2)");
        assertThatThrownBy(() -> VectorRegions.face(F64, new long[] {4, 4}, 0, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("face: index 4");
        assertThatThrownBy(() -> VectorRegions.halo(F64, new long[] {4, 4}, 2, 0, Side.LOW, HaloPart.SEND))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: >= 3 * ghost 6");
    }
}
