package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SegmentTest {
    private static Datatype t(String s) {
        return LayoutParser.parse(s);
    }

    @Test
    void structVectorBecomesOneVectorLeafAtSegmentCreation() {
        Dataloop d = Segment.layout(t("resized(0, 8, float32)"), 1 << 20).dataloop();
        assertThat(d.kind()).isEqualTo(Dataloop.Kind.VECTOR);
        assertThat(d.isLeaf()).isTrue();
        assertThat(d.blockCount()).isEqualTo(1 << 20);
        assertThat(d.depth()).isEqualTo(1);
    }

    @Test
    void countOfAPackedStructIsOneRun() {
        Dataloop d = Segment.layout(
                        t("resized(0, 92, struct([2,64,2,1], [0,8,72,88], [int32,byte,float64,float32]))"), 65536)
                .dataloop();
        assertThat(d.kind()).isEqualTo(Dataloop.Kind.CONTIG);
        assertThat(d.isLeaf()).isTrue();
        assertThat(d.byteSize()).isEqualTo(92L * 65536);
    }

    @Test
    void regularIndexedListsBecomeVectorsAndAdjacentBlocksCoalesce() {
        // Ross et al.'s Indexed test: blocks at 8*(j/4) + {0,1,3,6}; 0 and 1 are adjacent.
        int n = 4096;
        long[] bl = new long[n];
        long[] disp = new long[n];
        long[] pattern = {0, 1, 3, 6};
        for (int j = 0; j < n; j++) {
            bl[j] = 1;
            disp[j] = 8L * (j / 4) + pattern[j % 4];
        }
        Dataloop d =
                Segment.layout(Datatype.indexed(bl, disp, Primitive.FLOAT64), 1).dataloop();
        assertThat(d.runCount()).isEqualTo(3L * n / 4);
        assertThat(Segment.layout(t("indexed_block(2, [0,5,10,15], int32)"), 1)
                        .dataloop()
                        .kind())
                .isEqualTo(Dataloop.Kind.VECTOR);
    }

    /**
     * {@link Dataloop#runCount} over nodes with children per block (a struct) or block lengths of their own
     * (an indexed list of vectors): the sum over the blocks, equal to the pieces flattening finds where no
     * two runs touch.
     */
    @Test
    void runCountSumsTheBlocksOfStructsAndIndexedNests() {
        for (String type : List.of(
                "struct([1,1], [0,1000], [vector(100, 1, 2, int32), vector(50, 2, 5, float64)])",
                "struct([2,1], [0,2000], [resized(0, 240, vector(30, 1, 2, int32)), resized(0, 400, vector(40, 1, 3, float64))])",
                "indexed([2,1,3], [0,7,11], resized(0, 800, vector(100, 1, 2, int32)))")) {
            Segment s = Segment.layout(t(type), 1);
            Dataloop d = s.dataloop();
            assertThat(d.kind()).as(type).isIn(Dataloop.Kind.STRUCT, Dataloop.Kind.INDEXED);
            assertThat(d.runCount())
                    .as(type)
                    .isEqualTo(s.flatten(Integer.MAX_VALUE).size());
        }
    }

    @Test
    void faceOfACubeIsAVectorLeafNotAnElementWalk() {
        Dataloop d = Segment.layout(t("vector(256, 256, 65536, float64)"), 1).dataloop();
        assertThat(d.isLeaf()).isTrue();
        assertThat(d.kind()).isEqualTo(Dataloop.Kind.VECTOR);
        assertThat(d.blockCount()).isEqualTo(256);
    }

    @Test
    void footprintOutsideTheBufferFailsBeforeAnyByteMoves() {
        Datatype col = t("vector(4, 1, 4, float32)");
        byte[] user = new byte[51];
        assertThatThrownBy(() -> Segment.of(col, 1, Memory.ofArray(user), 0))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage(
                        "segment: type vector(4, 1, 4, float32) count 1 at origin 0 needs bytes [0, 52) of the buffer (52 bytes), but the buffer has 51 bytes");
        byte[] dst = new byte[40];
        Arrays.fill(dst, (byte) 9);
        assertThatThrownBy(() -> Packing.unpack(col, 3, new byte[48], dst, 0))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("count 3")
                .hasMessageContaining("needs bytes [0, 156)");
        assertThat(dst).containsOnly(9);
    }

    @Test
    void packedBufferTooSmallFailsBeforeAnyByteMoves() {
        Datatype col = t("vector(4, 1, 4, float32)");
        Segment s = Segment.of(col, 1, Memory.ofArray(new byte[52]), 0);
        byte[] small = new byte[15];
        assertThatThrownBy(() -> s.pack(Memory.ofArray(small), 0, 16))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage(
                        "pack: type vector(4, 1, 4, float32) count 1 needs 16 packed bytes at offset 0, but the packed buffer has 15 bytes");
        assertThat(s.position()).isZero();
    }

    @Test
    void negativeOriginRangeIsRefused() {
        Datatype shifted = t("hindexed([1], [-8], int64)");
        assertThatThrownBy(() -> Segment.of(shifted, 1, Memory.ofArray(new byte[64]), 4))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("needs bytes [-4, 4)");
    }

    @Test
    void seekIsBoundedAndResumes() {
        Datatype t = t("vector(3, 2, 5, int32)");
        byte[] src = new byte[(int) t.trueUb()];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) i;
        }
        Segment s = Segment.of(t, 1, Memory.ofArray(src), 0);
        assertThatThrownBy(() -> s.seek(25))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("position 25");
        byte[] out = new byte[24];
        s.seek(13);
        assertThat(s.pack(Memory.ofArray(out), 13, 100)).isEqualTo(11);
        s.seek(0);
        assertThat(s.pack(Memory.ofArray(out), 0, 13)).isEqualTo(13);
        assertThat(out).isEqualTo(Packing.pack(t, 1, src, 0));
    }

    @Test
    void worksOnEveryMemoryTarget() {
        Datatype t = t("subarray([6,6], [4,4], [1,1], C, float64)");
        byte[] src = new byte[6 * 6 * 8];
        new java.util.Random(1).nextBytes(src);
        byte[] expect = Packing.pack(t, 1, src, 0);
        ByteBuffer direct = ByteBuffer.allocateDirect(src.length).put(src);
        ByteBuffer out = ByteBuffer.allocateDirect(expect.length);
        Packing.pack(t, 1, Memory.ofBuffer(direct), 0, Memory.ofBuffer(out), 0);
        byte[] got = new byte[expect.length];
        out.get(0, got);
        assertThat(got).isEqualTo(expect);
        ByteBuffer heap = ByteBuffer.allocate(src.length);
        Packing.unpack(t, 1, Memory.ofArray(expect), 0, Memory.ofBuffer(heap), 0);
        assertThat(Packing.pack(t, 1, heap.array(), 0)).isEqualTo(expect);
    }

    @Test
    void flattenIsBoundedResumableAndMerged() {
        Segment s = Segment.layout(t("vector(5, 1, 2, int32)"), 2);
        List<Piece> first = s.flatten(3);
        assertThat(first).containsExactly(new Piece(0, 4), new Piece(8, 4), new Piece(16, 4));
        List<Piece> rest = s.flatten(100);
        assertThat(rest).hasSize(6); // element 1 starts right where element 0 ends: 10 runs merge to 9
        assertThat(Packing.flatten(t("contig(3, int32)"), 4)).containsExactly(new Piece(0, 48));
    }

    @Test
    void visitorSeesWholeLeaves() {
        Segment s = Segment.layout(t("vector(100, 1, 3, float64)"), 1);
        long[] calls = new long[2];
        s.process(
                new LeafAction() {
                    @Override
                    public void run(long offset, long length, long streamOffset) {
                        calls[0]++;
                    }

                    @Override
                    public void vector(long offset, long byteStride, long blockLength, long count, long streamOffset) {
                        calls[1]++;
                        assertThat(byteStride).isEqualTo(24);
                        assertThat(count).isEqualTo(100);
                    }
                },
                Long.MAX_VALUE);
        assertThat(calls).containsExactly(0, 1);
    }

    @Test
    void external32SwapsEveryPrimitiveButByte() {
        Datatype t = t("struct([1,1,1], [0,4,6], [int32, byte, int16])");
        byte[] src = {1, 2, 3, 4, 5, 0, 6, 7};
        assertThat(Packing.packExternal32(t, 1, src, 0)).containsExactly(4, 3, 2, 1, 5, 7, 6);
    }
}
