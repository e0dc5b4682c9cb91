package dev.layout.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LayoutIpcTest {
    private static final long[] SIZES = {4, 5, 6};
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

    private Float8Vector cube() {
        Float8Vector v = VectorPacking.denseFloat8(allocator, "cube", 120);
        for (int i = 0; i < 120; i++) {
            v.set(i, i);
        }
        return v;
    }

    @Test
    void facesTravelAsRecordBatchesAndUnpackIntoPlace() throws IOException {
        Datatype[] faces = new Datatype[6];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Datatype face = VectorRegions.face(Primitive.FLOAT64, SIZES, 2, 0);
        try (Float8Vector src = cube();
                LayoutIpc.Writer w = LayoutIpc.writer(allocator, out, face, 1, 4)) {
            for (int k = 0; k < 6; k++) {
                faces[k] = VectorRegions.face(Primitive.FLOAT64, SIZES, 2, k);
                // Every face of x has the same signature: pack face k at face 0's origin shifted by k doubles.
                w.pack(ArrowMemory.ofData(src), 8L * k);
            }
            assertThat(w.messages()).isEqualTo(6);
        }
        try (LayoutIpc.Reader r = LayoutIpc.reader(allocator, new ByteArrayInputStream(out.toByteArray()));
                Float8Vector dst = VectorPacking.denseFloat8(allocator, "dst", 120)) {
            assertThat(r.type()).isEqualTo(face);
            assertThat(r.count()).isEqualTo(1);
            int k = 0;
            int batches = 0;
            while (r.loadNextBatch()) {
                batches++;
                for (int i = 0; i < r.rowCount(); i++, k++) {
                    r.unpack(i, ArrowMemory.ofData(dst), 8L * k);
                }
            }
            assertThat(batches).isEqualTo(2);
            assertThat(k).isEqualTo(6);
            for (int i = 0; i < 120; i++) {
                assertThat(dst.get(i)).isEqualTo(i);
            }
        }
    }

    @Test
    void anyArrowConsumerSeesTheNotationAndTheBytes() throws IOException {
        Datatype col = VectorRegions.column(Primitive.FLOAT64, 3, 3, 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Float8Vector src = cube();
                LayoutIpc.Writer w = LayoutIpc.writer(allocator, out, col, 2, 16)) {
            w.pack(ArrowMemory.ofData(src), 0);
        }
        try (ArrowStreamReader plain = new ArrowStreamReader(new ByteArrayInputStream(out.toByteArray()), allocator)) {
            Schema s = plain.getVectorSchemaRoot().getSchema();
            assertThat(s.getCustomMetadata())
                    .containsEntry(LayoutIpc.DATATYPE_KEY, col.toString())
                    .containsEntry(LayoutIpc.COUNT_KEY, "2");
            assertThat(plain.loadNextBatch()).isTrue();
            FixedSizeBinaryVector v =
                    (FixedSizeBinaryVector) plain.getVectorSchemaRoot().getVector(LayoutIpc.COLUMN);
            Memory m = Memory.ofArray(v.get(0));
            // two copies of column 1 of a 3x3 matrix, the second one extent (9 doubles) further
            assertThat(m.byteSize()).isEqualTo(48);
            assertThat(new double[] {m.getDouble(0), m.getDouble(8), m.getDouble(16), m.getDouble(24), m.getDouble(40)})
                    .containsExactly(1, 4, 7, 10, 16);
        }
    }

    @Test
    void writePackedTakesBytesAsTheyAre() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] msg = {1, 2, 3, 4, 5, 6, 7, 8};
        try (LayoutIpc.Writer w = LayoutIpc.writer(allocator, out, Primitive.INT32, 2, 1)) {
            w.writePacked(Memory.ofArray(msg), 0);
        }
        try (LayoutIpc.Reader r = LayoutIpc.reader(allocator, new ByteArrayInputStream(out.toByteArray()))) {
            assertThat(r.loadNextBatch()).isTrue();
            assertThat(r.packed(0).toArray(0, 8)).isEqualTo(msg);
            assertThat(r.loadNextBatch()).isFalse();
            assertThatThrownBy(() -> r.packed(0)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void rejectsStreamsWithoutOrWithInconsistentDescriptions() throws IOException {
        byte[] noMeta = stream(new Schema(List.of(fixed(8))));
        assertThatThrownBy(() -> LayoutIpc.reader(allocator, new ByteArrayInputStream(noMeta)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("schema metadata lacks layout.datatype");
        byte[] wrongWidth = stream(
                new Schema(List.of(fixed(12)), Map.of(LayoutIpc.DATATYPE_KEY, "float64", LayoutIpc.COUNT_KEY, "2")));
        assertThatThrownBy(() -> LayoutIpc.reader(allocator, new ByteArrayInputStream(wrongWidth)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("(expected: fixed_size_binary(16) for 2 x float64)");
        byte[] badNotation = stream(
                new Schema(List.of(fixed(8)), Map.of(LayoutIpc.DATATYPE_KEY, "vector(1,", LayoutIpc.COUNT_KEY, "1")));
        assertThatThrownBy(() -> LayoutIpc.reader(allocator, new ByteArrayInputStream(badNotation)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("bad message description layout.datatype=vector(1,");
    }

    private static Field fixed(int width) {
        return new Field(LayoutIpc.COLUMN, FieldType.notNullable(new ArrowType.FixedSizeBinary(width)), null);
    }

    private byte[] stream(Schema schema) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                ArrowStreamWriter w = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            w.start();
            w.end();
        }
        return out.toByteArray();
    }
}
