package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import dev.layout.testing.Buffers;
import dev.layout.testing.TypeMaps;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The count-time and leaf rewrites added for speed (periodic indexed leaves become a vector of a
 * small leaf; whole leaves or planes under a loop are batched into one kernel call) keep pack, chunked pack,
 * unpack and external32 equal to the naive type-map interpreter.
 */
class BatchedLeafTest {
    static List<Datatype> types() {
        long[] ones = new long[64];
        long[] disp = new long[64];
        int[] pat = {0, 1, 3, 6};
        for (int j = 0; j < 64; j++) {
            ones[j] = 1;
            disp[j] = 8L * (j / 4) + pat[j % 4];
        }
        long[] rec = new long[40];
        for (int j = 0; j < 40; j++) {
            rec[j] = (j * 7) % 41;
        }
        return List.of(
                Datatype.indexed(ones, disp, dev.layout.datatype.Primitive.FLOAT32),
                Datatype.indexed(ones, disp, dev.layout.datatype.Primitive.FLOAT64),
                Datatype.resized(0, 8 * 16 * 4, Datatype.indexed(ones, disp, dev.layout.datatype.Primitive.FLOAT32)),
                Datatype.indexedBlock(1, rec, t("resized(0, 96, struct([3,1,1], [0,72,88], [float64,float64,int32]))")),
                Datatype.indexedBlock(2, rec, t("resized(0, 48, struct([3,1], [0,40], [float64,int16]))")),
                t("indexed_block(1, [0,2,10,12,20,22,30,32], float64)"),
                t("indexed_block(3, [0,5,9,14,18,23], int32)"),
                t("hvector(5, 1, 400, vector(6, 1, 3, float64))"),
                t("hvector(24, 1, 8, hvector(3, 1, 4000, hvector(2, 1, 900, vector(4, 1, 24, float64))))"),
                t("resized(0, 16, vector(5, 1, 7, contig(2, float64)))"),
                t("indexed([2,1,3], [0,9,20], resized(0, 12, float32))"),
                t("indexed_block(1, [7,3,11,0], resized(0, 40, struct([2,1], [0,24], [float64,byte])))"),
                // word patterns: an int before a long, 12-byte blocks, overlapping blocks (no word kernel)
                t("indexed_block(1, [5,1,9], resized(0, 40, struct([1,1,1], [0,8,20], [int32,float64,int32])))"),
                t("indexed_block(1, [2,0,3], resized(0, 48, struct([3,2], [0,16], [int32,float64])))"),
                t("indexed([2,2,2,2], [0,1,10,11], float64)"),
                // planes (three strided levels per kernel call): 4-, 16-byte blocks, negative strides
                t("hvector(3, 1, -700, hvector(4, 1, 200, vector(3, 1, 5, float32)))"),
                t("hvector(2, 1, 1000, hvector(3, 1, 300, vector(4, 1, 2, contig(2, float64))))"),
                t("hvector(2, 1, 3000, hvector(3, 1, -900, hvector(2, 1, 300, vector(3, 1, 4, int16))))"),
                // planes under other loops: blocks of two planes, listed blocks of several, one each (not batched)
                t("hvector(3, 2, 1000, resized(0, 150, hvector(2, 1, 60, vector(3, 1, 2, float32))))"),
                t("hindexed([2,1,3], [0,2000,900], resized(0, 170, hvector(2, 1, 70, vector(3, 1, 3, float32))))"),
                t("hindexed_block(1, [900,0,2100], hvector(2, 1, 70, vector(3, 1, 3, float32)))"),
                // rows that interleave and share a block, repeated by the count
                t(
                        "indexed_block(2, [8,9], resized(0, 22, hindexed_block(1, [24], hindexed([0,0,1], [77,67,-12], float32))))"),
                // small instances listed as one record (members of mixed swap units: not for external32)
                t(SMALL_NEST),
                t("hindexed([1,0,3], [30,45,9], resized(-6, 5, struct([3,0], [-3,-5], [resized(0, 26, int64),int8])))"),
                t("contig(3, hvector(4, 2, 50, struct([1,2], [0,12], [float64,int16])))"),
                t(RECORD_BLOCKS),
                t(AOS_BLOCK),
                // counts of a leaf as vectors of single instances, fused across levels (and not where the
                // outer spacing is not a whole number of the inner one)
                t(FUSED_ROWS),
                t(WIDE_RUNS),
                t("hvector(2, 1, 9000, " + WIDE_RUNS + ")"),
                t(SPACED_ROWS),
                t("contig(2, hvector(3, 1, 700, contig(4, resized(0, 56, struct([3,3], [0,32], [float64,int64])))))"));
    }

    /** Rows of 10 records (runs of 24 and 24 bytes) in a sub-block of a 4-D array whose last dimension is whole. */
    static final String FUSED_ROWS =
            "subarray([13,12,10,10], [7,2,6,10], [6,7,2,0], C, resized(0, 56, struct([3,3], [0,32], [float64,int64])))";

    /** A darray block of 46 runs of 280 bytes (35 doubles): 15 rows of 3 columns and one more column. */
    static final String WIDE_RUNS = "darray(8, 3, [140,94], [block,cyclic], [default,3], [4,2], F, float64)";

    @org.junit.jupiter.api.Test
    void anInstanceOfUpTo64WideRunsIsOneRecordLeaf() {
        // 46 runs, each a bulk copy: one listed leaf, which a count repeats in one kernel call
        Dataloop d = DataloopCompiler.compileCount(t(WIDE_RUNS), 20, Representation.NATIVE);
        assertThat(d.toTreeString())
                .startsWith("vector(count=20, blocklen=1")
                .endsWith("  block_indexed leaf(disp=3640, blocks=46, blockBytes=280, size=12880)\n");
        assertThat(46)
                .isGreaterThan(DataloopCompiler.MAX_RECORD_RUNS)
                .isLessThanOrEqualTo(DataloopCompiler.MAX_WIDE_RECORD_RUNS);
        // the same count of runs of up to 128 bytes stays a loop (SMALL_NEST: 24 runs of 1-8 bytes likewise)
        Dataloop narrow =
                Segment.layout(t("contig(2, hvector(23, 2, 400, float64))"), 1).dataloop();
        assertThat(narrow.toTreeString()).doesNotContain("indexed leaf");
    }

    /** Rows of 12 records (24 runs: no one record), the rows 1000 bytes apart. */
    static final String SPACED_ROWS =
            "hvector(3, 1, 1000, contig(12, resized(0, 40, struct([3,1], [0,32], [float64,int32]))))";

    @org.junit.jupiter.api.Test
    void aCountOfALeafIsAVectorOfSingleInstancesFusedWithTheCountAboveIt() {
        // 6 rows of 10 records, the rows one row apart: one vector of 60 records, batched as planes by the loop above
        Dataloop d = Segment.layout(t(FUSED_ROWS), 1).dataloop();
        assertThat(d.toTreeString())
                .contains("\n    vector(count=60, blocklen=1, stride=56")
                .endsWith("\n      vector leaf(count=2, blockBytes=24, stride=32, size=48)\n");
        assertThat(BlockedWalk.planes(d.child.child)).isTrue();
        // a count of records spaced apart (not one row apart) stays two levels
        Dataloop apart = Segment.layout(t(SPACED_ROWS), 1).dataloop();
        assertThat(apart.toTreeString())
                .startsWith("vector(count=3, blocklen=1, stride=1000")
                .contains("vector(count=12, blocklen=1, stride=40");
    }

    /** A list of records of two listed members: 6 runs an instance, repeated by an outer loop. */
    static final String SMALL_NEST =
            "hindexed([1], [26], contig(4, hindexed([0,2,1], [-8,49,3], struct([1,1,0], [42,19,-12], [uint8,float64,int64]))))";

    /** Blocks of three 64-byte records (runs of 50 and 12 bytes each) every five. */
    static final String RECORD_BLOCKS =
            "vector(6, 3, 5, resized(0, 64, struct([4,2,1,3], [0,32,48,52], [float64,int64,int16,float32])))";

    /** A sub-block of a 3-D array of 96-byte structs (runs of 48 and 40 bytes). */
    static final String AOS_BLOCK =
            "subarray([6,5,4], [3,2,4], [1,0,0], C, resized(0, 96, struct([2,4,1,4,1], [0,16,52,56,88], [float64,int64,float32,int64,int32])))";

    @org.junit.jupiter.api.Test
    void rowsOfRecordsAreGeneratedWordsInRows() {
        // rows of 8 records (16 runs, 88 word moves: no one record) under the plane loop: generated records in rows
        Dataloop d = Segment.layout(t(AOS_BLOCK), 1).dataloop();
        assertThat(d.toTreeString())
                .contains("\n  vector(count=8, blocklen=1, stride=96")
                .endsWith("\n    indexed leaf(blocks=2, size=88)\n");
        Dataloop row = d.child;
        Plan plan = new Plan(d, 0);
        assertThat(plan.planes(row, 2, d.stride)).isNotNull();
    }

    @org.junit.jupiter.api.Test
    void aBlockOfSeveralRecordsIsOneRecord() {
        // each block of 3 records is one leaf: the 12-byte run of one and the 50 of the next merge
        Dataloop d = Segment.layout(t(RECORD_BLOCKS), 1).dataloop();
        assertThat(d.kind()).isEqualTo(Dataloop.Kind.VECTOR);
        assertThat(d.toTreeString())
                .startsWith("vector(count=6, blocklen=1, stride=320")
                .endsWith("  indexed leaf(blocks=4, size=186)\n");
    }

    @org.junit.jupiter.api.Test
    void anInstanceOfFewRunsIsOneRecordLeaf() {
        // the list under the count of 4 is 6 runs: one listed leaf, the count repeats it (a vector of
        // single instances, as every count of a leaf)
        Dataloop d = Segment.layout(t(SMALL_NEST), 1).dataloop();
        assertThat(d.kind()).isEqualTo(Dataloop.Kind.VECTOR);
        assertThat(d.toTreeString()).contains("count=4, blocklen=1");
        assertThat(d.toTreeString()).endsWith("  indexed leaf(blocks=6, size=27)\n");
        // with 4 x 6 runs the count itself stays a loop
        assertThat(DataloopCompiler.MAX_RECORD_RUNS).isLessThan(24);
        // external32 lists runs of one swap unit only: these mix 1, 8 and 8 bytes
        assertThat(DataloopCompiler.compile(t(SMALL_NEST), Representation.EXTERNAL32)
                        .toTreeString())
                .doesNotContain("indexed leaf(blocks=6");
    }

    private static Datatype t(String s) {
        return LayoutParser.parse(s);
    }

    @ParameterizedTest
    @MethodSource("types")
    void equalsTypeMapInterpreter(Datatype t) {
        for (int count = 1; count <= 3; count++) {
            Buffers b = Buffers.around(t, count, 3, 11 + count);
            byte[] expect = TypeMaps.naivePack(t, count, b.bytes(), b.origin(), false);
            assertThat(Packing.pack(t, count, b.bytes(), b.origin()))
                    .as(t + " x" + count)
                    .isEqualTo(expect);
            assertThat(Packing.packExternal32(t, count, b.bytes(), b.origin()))
                    .as(t + " x" + count + " external32")
                    .isEqualTo(TypeMaps.naivePack(t, count, b.bytes(), b.origin(), true));

            // Chunked, with a reused segment, in random-sized pieces.
            Segment s = Segment.of(t, count, Memory.ofArray(b.bytes()), b.origin());
            Random r = new Random(count);
            for (int round = 0; round < 3; round++) {
                s.seek(0);
                byte[] got = new byte[expect.length];
                while (s.remaining() > 0) {
                    long at = s.position();
                    s.pack(Memory.ofArray(got), at, 1 + r.nextInt(Math.max(1, expect.length / 4)));
                }
                assertThat(got).as(t + " x" + count + " chunked").isEqualTo(expect);
            }

            // Unpack into a zeroed copy, then pack again: same stream, and bytes outside the map untouched.
            byte[] back = new byte[b.bytes().length];
            Packing.unpack(t, count, expect, back, b.origin());
            assertThat(Packing.pack(t, count, back, b.origin())).isEqualTo(expect);
            Segment u = Segment.of(t, count, Memory.ofArray(back), b.origin());
            byte[] back2 = new byte[b.bytes().length];
            Segment u2 = Segment.of(t, count, Memory.ofArray(back2), b.origin());
            while (u2.remaining() > 0) {
                long at = u2.position();
                u2.unpack(Memory.ofArray(expect), at, 1 + r.nextInt(Math.max(1, expect.length / 3)));
            }
            assertThat(back2).isEqualTo(back);
            assertThat(u.byteSize()).isEqualTo(expect.length);
        }
    }

    @org.junit.jupiter.api.Test
    void indexedTestPatternBecomesAVectorOfASmallLeaf() {
        Datatype t = types().get(0);
        Dataloop d = Segment.layout(t, 1).dataloop();
        assertThat(d.kind()).isEqualTo(Dataloop.Kind.VECTOR);
        assertThat(d.isLeaf()).isFalse();
        assertThat(d.blockCount()).isEqualTo(16);
        assertThat(d.toTreeString()).contains("indexed leaf(blocks=3");
        // A count of it whose extent is whole periods extends the vector.
        Dataloop d3 = Segment.layout(types().get(2), 3).dataloop();
        assertThat(d3.kind()).isEqualTo(Dataloop.Kind.VECTOR);
        assertThat(d3.blockCount()).isEqualTo(48);
    }
}
