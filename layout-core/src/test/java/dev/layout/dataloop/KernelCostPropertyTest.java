package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.dataloop.KernelCost.Kind;
import dev.layout.dataloop.kernel.GeneratedKernel;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The laws of the cost model the plan picks kernels by, and the choices they imply for familiar shapes. */
class KernelCostPropertyTest {
    private static Dataloop leaf(Datatype t) {
        return DataloopCompiler.compileCount(t, 1, Representation.NATIVE);
    }

    /** The first vector of vector leaves in {@code t}'s dataloop. */
    private static Dataloop planes(Datatype t) {
        for (Dataloop d = leaf(t); d != null; d = d.child) {
            if (d.kind == Dataloop.Kind.VECTOR
                    && !d.leaf
                    && d.blocklen == 1
                    && d.child.leaf
                    && d.child.kind == Dataloop.Kind.VECTOR) {
                return d;
            }
        }
        throw new AssertionError("no planes in " + leaf(t));
    }

    @Property
    void everyCostGrowsWithTheCount(
            @ForAll("kinds") Kind kind,
            @ForAll @LongRange(min = 0, max = 1 << 20) long n,
            @ForAll @IntRange(min = 1, max = 4096) int width,
            @ForAll @IntRange(min = 0, max = 4096) int gap,
            @ForAll @IntRange(min = 0, max = 32) int words) {
        double a = KernelCost.cost(kind, n, 1, 4, width, width + gap, words);
        double b = KernelCost.cost(kind, n + 1, 1, 4, width, width + gap, words);
        assertThat(b).isGreaterThanOrEqualTo(a);
        if (a < Double.POSITIVE_INFINITY) {
            assertThat(b).as("%s, %d blocks of %d", kind, n, width).isGreaterThan(a);
        }
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<Kind> kinds() {
        return net.jqwik.api.Arbitraries.of(Kind.values());
    }

    @Property
    void aGeneratedKernelOnceCheaperStaysCheaperForMoreBlocks(
            @ForAll @IntRange(min = 1, max = 63) int width,
            @ForAll @IntRange(min = 1, max = 512) int gap,
            @ForAll @LongRange(min = 1, max = 1 << 16) long n) {
        Dataloop d = leaf(Datatype.vector(2, width, width + gap, Primitive.BYTE));
        if (KernelCost.vectorLeaf(d, n) == Kind.STRIP) {
            assertThat(KernelCost.vectorLeaf(d, 2 * n)).isEqualTo(Kind.STRIP);
        }
        // and every width under 64 has a count from which the generated strip wins
        assertThat(KernelCost.vectorLeaf(d, 1 << 20)).isEqualTo(Kind.STRIP);
    }

    @Property
    void aContiguousShapeIsOneRun(
            @ForAll @IntRange(min = 1, max = 4096) int width, @ForAll @LongRange(min = 1, max = 1 << 20) long n) {
        Dataloop d = leaf(Datatype.vector(2, width, width + 1, Primitive.BYTE));
        assertThat(KernelCost.vectorLeaf(d, n)).isNotEqualTo(Kind.RUN);
        long bytes = n * width;
        // The cheapest, too, except for runs of 64 to 255 bytes, which blocks of up to 32 bytes move in
        // fewer cycles as word moves than the bulk copy a run of that size is.
        if (bytes < 64 || bytes >= 256) {
            for (Kind k : Kind.values()) {
                assertThat(KernelCost.cost(Kind.RUN, n, 1, 1, width, width, 0))
                        .as("%s, %d blocks of %d", k, n, width)
                        .isLessThanOrEqualTo(KernelCost.cost(k, n, 1, 1, width, width, 0));
            }
        }
        assertThat(KernelCost.cost(Kind.RUN, n, 1, 1, width, width + 1, 0)).isInfinite();
    }

    @Test
    void fewBlocksKeepTheGenericLoopsManyGetGeneratedCode() {
        Dataloop floats = leaf(Datatype.vector(2, 1, 2, Primitive.FLOAT32));
        assertThat(KernelCost.vectorLeaf(floats, 8)).isEqualTo(Kind.STRIDED);
        assertThat(KernelCost.vectorLeaf(floats, 32)).isEqualTo(Kind.STRIDED);
        assertThat(KernelCost.vectorLeaf(floats, 33)).isEqualTo(Kind.STRIP);
        // 24-byte blocks are three exact moves in both: generated from the same count as floats
        Dataloop triples = leaf(Datatype.vector(2, 3, 4, Primitive.FLOAT64));
        assertThat(KernelCost.vectorLeaf(triples, 32)).isEqualTo(Kind.STRIDED);
        assertThat(KernelCost.vectorLeaf(triples, 33)).isEqualTo(Kind.STRIP);
        // so are 40-byte blocks (five exact moves) and 44-byte ones (five words and one overlapping)
        for (int width : new int[] {40, 44}) {
            Dataloop d = leaf(Datatype.vector(2, width, width + 8, Primitive.BYTE));
            assertThat(KernelCost.genericMove(width, false)).isEqualTo(Math.ceil(width / 8.0));
            assertThat(KernelCost.vectorLeaf(d, 32)).isEqualTo(Kind.STRIDED);
            assertThat(KernelCost.vectorLeaf(d, 33)).isEqualTo(Kind.STRIP);
        }
        // 64-byte blocks are eight word moves; from about 160 bytes a block is a bulk copy, whatever the count
        Dataloop lines = leaf(Datatype.vector(2, 8, 9, Primitive.FLOAT64));
        assertThat(KernelCost.vectorLeaf(lines, 1 << 20)).isEqualTo(Kind.STRIP);
        Dataloop pages = leaf(Datatype.vector(2, 20, 21, Primitive.FLOAT64));
        assertThat(KernelCost.vectorLeaf(pages, 1 << 20)).isEqualTo(Kind.STRIDED);
    }

    @Test
    void stridesIntoOneCacheSetKeepTheGenericLoops() {
        // 64 KiB apart, every block falls into one cache set: the generic loops pace their stores there
        Dataloop floats = leaf(Datatype.vector(2, 1, 16384, Primitive.FLOAT32));
        assertThat(KernelCost.vectorLeaf(floats, 1 << 20)).isEqualTo(Kind.STRIDED);
        Dataloop nearly = leaf(Datatype.vector(2, 1, 16385, Primitive.FLOAT32));
        assertThat(KernelCost.vectorLeaf(nearly, 1 << 20)).isEqualTo(Kind.STRIP);
        Dataloop wide = leaf(Datatype.vector(2, 12, 8192, Primitive.FLOAT64));
        assertThat(KernelCost.vectorLeaf(wide, 1 << 20)).isEqualTo(Kind.STRIDED);
        Dataloop rows = planes(Datatype.hvector(8, 1, 1 << 20, Datatype.vector(8, 1, 8192, Primitive.FLOAT64)));
        assertThat(KernelCost.planes(rows.child, rows.nblocks, 1, rows.stride)).isEqualTo(Kind.ROWS);
    }

    @Test
    void listedLeavesInOneCacheSetMoveTheirBytes() {
        long set = 64 * 1024;
        Datatype scattered =
                Datatype.indexedBlock(3, new long[] {0, 3 * set / 4, set / 4, 2 * set / 4}, Primitive.FLOAT32);
        // an unpack writes each block's bytes and nothing between them
        int userBytes = (int) (3 * set + 16);
        dev.layout.memory.Memory packed = dev.layout.memory.Memory.ofArray(new byte[48]);
        for (int i = 0; i < 48; i++) {
            packed.putByte(i, (byte) (i + 1));
        }
        dev.layout.memory.Memory user = dev.layout.memory.Memory.ofArray(new byte[userBytes]);
        Segment.of(scattered, 1, user, 0).unpack(packed, 0, 48);
        long[] blocks = {0, 3 * set, set, 2 * set};
        for (int b = 0; b < 4; b++) {
            for (int i = 0; i < 12; i++) {
                assertThat(user.getByte(blocks[b] + i)).isEqualTo((byte) (b * 12 + i + 1));
            }
            assertThat(user.getByte(blocks[b] + 12)).isZero();
        }
    }

    @Test
    void planesAreGeneratedWhileABlockFitsOneBody() {
        // Flash I/O's 8 x 8 doubles of a block's interior: planes
        Dataloop flash = planes(Datatype.hvector(8, 1, 3072, Datatype.vector(8, 1, 24, Primitive.FLOAT64)));
        assertThat(KernelCost.planes(flash.child, flash.nblocks, 1, flash.stride))
                .isEqualTo(Kind.PLANES);
        // rows of 40 doubles, more moves than one generated body holds: still planes, each row a loop of chunks
        Dataloop wide = planes(Datatype.hvector(8, 1, 4096, Datatype.vector(40, 1, 3, Primitive.FLOAT64)));
        assertThat(KernelCost.planes(wide.child, wide.nblocks, 1, wide.stride)).isEqualTo(Kind.PLANES);
        // rows that interleave (a transpose of complex doubles: a column per row, rows one element apart): the
        // strided loops, which order those moves by cache line
        Dataloop column = leaf(Datatype.vector(64, 1, 64, Primitive.FLOAT64));
        assertThat(KernelCost.planes(column, 1, 1, 16)).isEqualTo(Kind.ROWS);
        assertThat(KernelCost.planes(column, 1, 1, 64 * 64 * 8)).isEqualTo(Kind.PLANES);
        // blocks wider than one body (each a bulk copy): the strided loops
        Dataloop bulk = planes(Datatype.hvector(8, 1, 1 << 16, Datatype.vector(4, 40, 48, Primitive.FLOAT64)));
        assertThat(KernelCost.planes(bulk.child, bulk.nblocks, 1, bulk.stride)).isEqualTo(Kind.ROWS);
    }

    @Test
    void recordsBecomeWordMovesWhenRepeatedOften() {
        // a record of three doubles and an int at listed offsets
        Datatype atom = Datatype.indexed(new long[] {3, 1}, new long[] {0, 10}, Primitive.FLOAT64);
        Dataloop d = leaf(atom);
        long[] m = GeneratedKernel.moves(d.offsets, d.blocklens, d.blocklen);
        assertThat(m).isNotNull();
        assertThat(m).hasSize(3 * 4); // three 8-byte moves, one 4-byte, a triple each
        assertThat(KernelCost.records(d, 1, 4)).isEqualTo(Kind.RECORDS);
        assertThat(KernelCost.records(d, 1000, 4)).isEqualTo(Kind.WORDS);
    }

    @Test
    void theBlockingBudgetIsHalfALevelTwoCacheOfPlausibleSize() {
        long l2 = KernelCost.levelTwoBytes();
        assertThat(Long.bitCount(l2)).as("level-2 bytes %d, a power of two", l2).isEqualTo(1);
        assertThat(l2).isBetween(64L * 1024, 64L * 1024 * 1024);
        if (System.getProperty("layout.dataloop.blockBudget") == null) {
            assertThat(KernelCost.CACHE_BYTES).isEqualTo(l2 / 2);
        }
    }
}
