package dev.layout.dataloop;

import dev.layout.dataloop.kernel.GeneratedKernel;
import dev.layout.dataloop.kernel.MemoryAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one cost model by which a {@link Plan} picks the kernel of each leaf: every kernel that can run
 * a leaf's shape is given an estimated cost, in cycles, for one call over {@code n} instances, and the
 * cheapest runs. The estimate is a call's fixed cost plus, per block, its word moves and its address
 * arithmetic; a kernel that cannot run the shape costs infinity.
 *
 * <p>Why a kernel wins, in these terms: a generated kernel (a hidden class with the shape's offsets and
 * strides as constants) costs {@link #GENERATED_CALL} per call instead of {@link #CALL} (a virtual
 * call the walk cannot inline, and a loop C2 compiles on its own), and saves per block the
 * {@link #ADDRESS} of a stride held in a register (both make a block's exact word moves,
 * {@link GeneratedKernel#movesPerBlock}). It therefore wins from the count where that saving pays the
 * dearer call: from 33 blocks. A block is one bulk copy in the generic loops over {@link
 * MemoryAccess#WORD_BLOCK_BYTES} ({@link #BULK_CALL} plus {@link #BULK_BYTES_PER_CYCLE}), which word moves with
 * constant offsets beat up to about 160 bytes; a
 * contiguous shape is one run. At a stride that puts every block into one cache set ({@link
 * MemoryAccess#oneSet}) only the generic loops run: they may pace blocks with few moves of their own
 * ({@link MemoryAccess#mayPace}), and the straight-line generated kernels, whose accesses all land in
 * that set back to back, cannot.
 *
 * <p>Memory kinds do not change the ranking: every kernel, generic or generated, is compiled once
 * per pair of memory kinds ({@code MemoryAccess.baseKinds}), so each sees one kind of memory per side.
 * The constants are relative (a word move is 1). Two are anchored to measurements: generated strips
 * paying from about 32 four-byte blocks (the engine's earlier measured threshold), and the bulk copy's
 * call (64- to 128-byte blocks moved faster as word moves than by {@code copyMemory}, 160-byte blocks
 * alike; figures in benchmarks/README.md); every other crossing follows from the model, not from a measured layout.
 */
final class KernelCost {
    private KernelCost() {}

    /** The closed set of leaf kernels. */
    enum Kind {
        /** A contiguous run: one bulk copy. */
        RUN,
        /**
         * Strided blocks through the generic loops: a loop per width up to {@link
         * MemoryAccess#WORD_BLOCK_BYTES}, one for the wider ones (bulk copies).
         */
        STRIDED,
        /** Strided blocks through a generated loop with stride and width as constants ({@link GeneratedKernel#strip}). */
        STRIP,
        /** Repeated small records of listed blocks through the generic record loops. */
        RECORDS,
        /** Repeated records as a generated sequence of word moves ({@code GeneratedKernel}). */
        WORDS,
        /** Planes (a vector of vector leaves) through the generic nested strided loops. */
        ROWS,
        /** Planes through generated rows: straight-line, or a loop over straight-line chunks ({@link GeneratedKernel#planes}). */
        PLANES
    }

    /** A kernel call: arguments, the width dispatch, the loop's set-up and exit. */
    static final double CALL = 8;
    /** A generated kernel's call: a call through a hidden class's vtable the walk cannot inline, and its own loop set-up. */
    static final double GENERATED_CALL = 40;
    /** One word load and store (the unit). */
    static final double MOVE = 1;
    /** A stride held in a register: an add per block (a constant folds into the addressing mode instead). */
    static final double ADDRESS = 1;
    /** One bulk copy's call (the copy stub's entry and size dispatch), in word moves. */
    static final double BULK_CALL = 14;
    /** Bytes a bulk copy moves per cycle (vector registers), against 8 per word move. */
    static final double BULK_BYTES_PER_CYCLE = 32;
    /**
     * The bytes of user memory a cache-blocked pass may touch: half of this machine's level-2 cache,
     * the other half left for the packed side ({@link #levelTwoBytes()}; property {@code
     * layout.dataloop.blockBudget} overrides).
     */
    static final long CACHE_BYTES = Long.getLong("layout.dataloop.blockBudget", levelTwoBytes() / 2);

    /** The level-2 cache assumed where the machine does not say (the smallest of current server cores). */
    static final long LEVEL_TWO_BYTES = 256 * 1024;

    /**
     * The cost of one call of {@code kind} over {@code n} instances of a shape: each instance {@code
     * rows} rows (1 for a leaf) of {@code blocks} blocks of {@code width} bytes, {@code stride} bytes
     * apart on the user side ({@link Kind#RECORDS} and {@link Kind#WORDS}: at listed offsets, for the
     * records one offset load each). {@code wordMoves} is the instance as generated word moves for
     * {@link Kind#WORDS} (0: none). Infinity where the kernel cannot run the shape.
     */
    static double cost(Kind kind, long n, long rows, long blocks, long width, long stride, int wordMoves) {
        double perBlock =
                switch (kind) {
                    case RUN -> stride == width ? width / BULK_BYTES_PER_CYCLE : Double.POSITIVE_INFINITY;
                    case STRIDED, ROWS -> genericMove(width, MemoryAccess.oneSet(stride)) + ADDRESS;
                    // the records' spacing is not known here: priced as in one set, at or above what they cost
                    case RECORDS -> genericMove(width, true) + 2 * ADDRESS;
                    // A strip's block, a plane's row or a chunk of it, is one straight-line body: bounded in code size.
                    case STRIP, PLANES ->
                        GeneratedKernel.movesPerBlock(width) <= GeneratedKernel.MAX_BODY_MOVES
                                        && rows <= GeneratedKernel.MAX_ROWS
                                        && !MemoryAccess.oneSet(stride)
                                ? GeneratedKernel.movesPerBlock(width) * MOVE
                                : Double.POSITIVE_INFINITY;
                    case WORDS -> wordMoves > 0 ? (double) wordMoves * MOVE / blocks : Double.POSITIVE_INFINITY;
                };
        if (perBlock == Double.POSITIVE_INFINITY) {
            return perBlock;
        }
        if (kind == Kind.RUN) {
            // A run moves at the bulk rate, and from 64 bytes pays the copy stub's entry (shorter ones are a few word
            // moves).
            double bytes = (double) n * rows * blocks * width;
            return CALL + bytes / BULK_BYTES_PER_CYCLE + (bytes >= 64 ? BULK_CALL : 0);
        }
        boolean generated = kind == Kind.STRIP || kind == Kind.WORDS || kind == Kind.PLANES;
        return (generated ? GENERATED_CALL : CALL) + (double) n * rows * blocks * perBlock;
    }

    /**
     * A block of {@code width} bytes in the generic loops: its word moves as generated code makes them
     * ({@link GeneratedKernel#movesPerBlock}) where the loops move it as words ({@link
     * MemoryAccess#movesAsWords}; {@code oneSet}: a stride of {@link MemoryAccess#oneSet}, or listed
     * blocks; weighed as loads), else a bulk copy. Blind to the direction: at a one-set stride only the
     * generic loops run, so which of them an unpack's stores take changes no choice.
     */
    static double genericMove(long width, boolean oneSet) {
        return MemoryAccess.movesAsWords(width, oneSet, false)
                ? GeneratedKernel.movesPerBlock(width) * MOVE
                : BULK_CALL + width / BULK_BYTES_PER_CYCLE;
    }

    /** The cheaper of the generic {@code generic} and the generated {@code generated} kernel (the generic one on a tie). */
    static Kind cheaper(
            Kind generic, Kind generated, long n, long rows, long blocks, long width, long stride, int wordMoves) {
        return cost(generated, n, rows, blocks, width, stride, wordMoves)
                        < cost(generic, n, rows, blocks, width, stride, wordMoves)
                ? generated
                : generic;
    }

    /** The kernel for {@code n} blocks of the vector leaf {@code d}: {@link Kind#RUN}, {@link Kind#STRIDED} or {@link Kind#STRIP}. */
    static Kind vectorLeaf(Dataloop d, long n) {
        return cost(Kind.RUN, n, 1, 1, d.blocklen, d.stride, 0) < Double.POSITIVE_INFINITY
                ? Kind.RUN
                : cheaper(Kind.STRIDED, Kind.STRIP, n, 1, 1, d.blocklen, d.stride, 0);
    }

    /**
     * The kernel for {@code n} repeated instances of the listed leaf {@code d} whose blocks are {@code
     * moves} word moves (0: they are not a pattern of words): {@link Kind#RECORDS} or {@link Kind#WORDS}.
     */
    static Kind records(Dataloop d, long n, int moves) {
        return cheaper(Kind.RECORDS, Kind.WORDS, n, 1, d.nblocks, d.size / Math.max(1, d.nblocks), 0, moves);
    }

    /**
     * The kernel for {@code n} planes of {@code rows} rows, each the vector leaf {@code r} (a vector of
     * it, or with one row its instances repeated at a spacing), {@code rowSpacing} bytes apart: {@link
     * Kind#ROWS} or {@link Kind#PLANES}. Rows that interleave (a transpose: each row spans more than the
     * spacing) take the strided loops, which order such moves by cache line ({@code StridedLoopCode.tile16});
     * generated planes move a row at a time.
     */
    static Kind planes(Dataloop r, long rows, long n, long rowSpacing) {
        if (Math.abs(rowSpacing) < (r.nblocks - 1) * Math.abs(r.stride) + r.blocklen) {
            return Kind.ROWS;
        }
        return cheaper(Kind.ROWS, Kind.PLANES, n, rows, r.nblocks, r.blocklen, r.stride, 0);
    }

    /**
     * The first cpu's level-2 data cache, from Linux's sysfs ({@code 512K}); {@link #LEVEL_TWO_BYTES}
     * where it is not there or not readable.
     */
    static long levelTwoBytes() {
        for (int i = 0; i < 8; i++) {
            Path dir = Path.of("/sys/devices/system/cpu/cpu0/cache/index" + i);
            try {
                if (Files.readString(dir.resolve("level")).strip().equals("2")
                        && !Files.readString(dir.resolve("type")).strip().equals("Instruction")) {
                    String size = Files.readString(dir.resolve("size")).strip();
                    long unit = size.endsWith("K") ? 1024 : size.endsWith("M") ? 1024 * 1024 : 1;
                    long bytes = Long.parseLong(unit == 1 ? size : size.substring(0, size.length() - 1)) * unit;
                    return bytes > 0 ? bytes : LEVEL_TWO_BYTES;
                }
            } catch (IOException | RuntimeException e) {
                return LEVEL_TWO_BYTES; // no such index (the levels end), no sysfs, or an unexpected format
            }
        }
        return LEVEL_TWO_BYTES;
    }
}
