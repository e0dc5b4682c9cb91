package dev.layout.dataloop.kernel;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Whether the loops over short blocks in one cache set ({@link MemoryAccess#mayPace}) pace them, chosen
 * on the machine the engine runs on. Two strategies, both moving the same bytes: plain (the width
 * class's loop) and paced (stores into the set: each block's moves, then {@link MemoryAccess#pad}'s
 * stores; loads from it: a call per block, {@code StridedLoopCode.moveByCall}). Which is faster depends
 * on the cores' store queue, the set's ways and the order of the blocks, not on the layout: pacing keeps
 * fewer of the set's lines in flight, which pays where more of them would evict each other before they
 * are used and costs where they would not. So the choice is made per access ({@link #STRIDED_LOADS},
 * {@link #STRIDED_STORES}; listed blocks are never paced, {@link ListedAccess#blocks}) and width class
 * ({@link StridedLoops#widthClass}, up to 32 bytes), once per JVM.
 *
 * <p>How: the first calls of each (access, width class) that move at least {@link Trial#MIN_BLOCKS}
 * blocks are trials on the caller's own blocks: {@link Trial#WARM_BLOCKS} blocks of each strategy
 * untimed (the JIT starts compiling both loops), then, {@link Trial#SETTLE_NANOS} later, rounds of {@link
 * Trial#SAMPLES} timed calls of each, {@link Trial#GAP_NANOS} apart. The strategies take turns in pairs
 * of calls, and only a pair's second call is timed: a call right after the other strategy's inherits
 * its lines in flight, which made loads from one set look alike where, run on their own, pacing was
 * faster. A round's verdict is the strategy with the lower median time per block; the choice is made
 * when two rounds in a row agree.
 *
 * <p>Why the wait before the first round: right after the warm-up the loops often still run as the
 * JIT's first tier compiled them, whose plain loop makes a call per block as the paced one does; timed
 * then, plain won, and once the optimizing compiler's code came it ran slower than paced, for good
 * (benchmarks/issue-22-rounds.md, session 43). Why rounds apart in time: a loop whose compiled code
 * is still queued behind other compilations (one C2 thread on a small machine, at an application's
 * start) runs several times slower than it will, for longer than one round's calls take; a verdict
 * against it is not repeated once it is compiled. Until a choice, and when none is made within {@link
 * Trial#ROUNDS} rounds, paced runs (pacing gained on a machine whose level-2 sets have twice the ways). The verdict
 * gives neither strategy a margin: with one, the trials kept pacing for blocks of 12 to 32 bytes that it
 * slowed by 10-50% on another machine (benchmarks/issue-22-rounds.md, thirteenth round).
 *
 * <p>Exploits: the caller's blocks are the exact layout and memory that the choice is for, so no buffer
 * of its own is allocated (the effect needs a span of many sets' worth of lines); the trials add no
 * moves of their own, only the clock reads around calls the caller makes anyway, and each runs a correct
 * strategy, so whatever is chosen moves the right bytes. Bounded: per (access, width class) at most
 * {@link Trial#ROUNDS} rounds and {@link Trial#maxTrials} trial calls, then the choice is fixed. {@code
 * -Dlayout.dataloop.pacing=plain} or {@code =paced} pins the choice (no trials).
 */
final class OneSetPacing {
    private OneSetPacing() {}

    /** Loads from blocks in one set (a pack of strided blocks). */
    static final int STRIDED_LOADS = 0;
    /** Stores into strided blocks in one set (an unpack). */
    static final int STRIDED_STORES = 1;

    /** A strategy's bits: paced (else plain). */
    static final int PACED = 1;
    /** A strategy's bits: this call is a trial, to be timed and reported ({@link #end}). */
    static final int TRIAL = 2;

    /** Width classes that may be paced: up to 32 bytes ({@link StridedLoops#widthClass} 0-7). */
    private static final int CLASSES = 8;

    /** The pinned choice, from {@code layout.dataloop.pacing}: -1 to measure, else {@link #PACED} or 0. */
    private static final int PINNED = pinned(System.getProperty("layout.dataloop.pacing", "measure"));

    /** Per key ({@link #key}): -1 while undecided, else the strategy chosen. */
    private static final AtomicIntegerArray CHOSEN = new AtomicIntegerArray(
            IntStream.generate(() -> PINNED).limit(2 * CLASSES).toArray());

    /** Per key, the trial under way (guarded by itself). */
    private static final Trial[] TRIALS =
            Stream.generate(Trial::new).limit(2 * CLASSES).toArray(Trial[]::new);

    static int pinned(String v) {
        return switch (v) {
            case "measure" -> -1;
            case "plain" -> 0;
            case "paced" -> PACED;
            default ->
                throw new IllegalArgumentException(
                        "layout.dataloop.pacing: " + v + " (expected: measure, plain or paced)");
        };
    }

    /** The key of {@code access} to blocks of {@code width} bytes (at most 32). */
    static int key(int access, long width) {
        return access * CLASSES + StridedLoops.widthClass(width);
    }

    /**
     * The strategy for a call moving {@code blocks} blocks of {@code width} bytes by {@code access}: the
     * chosen one, or while none is, a trial ({@link #TRIAL} set) for calls of enough blocks, else paced.
     */
    static int begin(int access, long width, long blocks) {
        int k = key(access, width);
        int c = CHOSEN.get(k);
        if (c >= 0) {
            return c;
        }
        if (blocks < Trial.MIN_BLOCKS) {
            return PACED;
        }
        Trial t = TRIALS[k];
        synchronized (t) {
            if (CHOSEN.get(k) >= 0) {
                return CHOSEN.get(k);
            }
            return t.due(System.nanoTime()) ? t.next() | TRIAL : PACED;
        }
    }

    /** Whether {@code strategy} ({@link #begin}) paces. */
    static boolean paced(int strategy) {
        return (strategy & PACED) != 0;
    }

    /** The clock at the start of a call: read for a trial only. */
    static long clock(int strategy) {
        return (strategy & TRIAL) != 0 ? System.nanoTime() : 0;
    }

    /** Ends a call that {@link #begin} started at {@code start} ({@link #clock}): a trial reports its time. */
    static void end(int access, long width, long blocks, int strategy, long start) {
        if ((strategy & TRIAL) == 0) {
            return;
        }
        long now = System.nanoTime();
        int k = key(access, width);
        Trial t = TRIALS[k];
        synchronized (t) {
            int c = t.record(strategy & PACED, blocks, now - start, now);
            if (c >= 0) {
                CHOSEN.compareAndSet(k, -1, c);
            }
        }
    }

    /**
     * The decision of one (access, width class) from its trial calls, given their times: no clock of
     * its own, so that its logic is tested with made-up times.
     */
    static final class Trial {
        /** Calls moving fewer blocks are not trials: their call's fixed cost would dominate the time. */
        static final long MIN_BLOCKS = 64;
        /** Blocks each strategy moves before its calls are timed: past the counts at which the JIT compiles a loop. */
        static final long WARM_BLOCKS = 1 << 17;
        /** Timed calls per strategy and round (each the second of a pair). */
        static final int SAMPLES = 9;
        /** Trial calls per round: a pair per timed call. */
        static final int ROUND_CALLS = 2 * 2 * SAMPLES;
        /** At most this many rounds; if no two in a row agree, paced is kept. */
        static final int ROUNDS = 8;
        /** Time between rounds, while the calls run paced untimed: what a queued compilation has to finish in. */
        static final long GAP_NANOS = 100_000_000;
        /** Time from the end of the warm-up to the first round: for the optimizing compiler's code to arrive. */
        static final long SETTLE_NANOS = 1_000_000_000;

        private final long[] warmed = new long[2];
        private final double[][] perBlock = new double[2][SAMPLES];
        private final int[] timed = new int[2];
        /** The previous round's verdict ({@link #PACED} or 0); -1 before the first. */
        private int previous = -1;

        private int rounds;
        private int calls;
        private int next;
        /** Whether the next call of {@link #next} opens its pair (untimed). */
        private boolean opens = true;
        /** Whether the warm-up has ended (and the wait after it begun). */
        private boolean warm;
        /** Whether a gap is under way, and the clock ({@link System#nanoTime}) at which it ends. */
        private boolean gap;

        private long dueAt;

        /** At most this many trial calls: each strategy's warm-up (at least {@link #MIN_BLOCKS} a call) and rounds. */
        static long maxTrials() {
            return 2 * (WARM_BLOCKS / MIN_BLOCKS + 1) + (long) ROUNDS * ROUND_CALLS;
        }

        /** Whether a call starting at {@code now} is a trial: not during the wait after the warm-up or a round. */
        boolean due(long now) {
            return !gap || now - dueAt >= 0;
        }

        /** The strategy of the next trial call: the two take turns in pairs. */
        int next() {
            return next;
        }

        /**
         * Reports a trial call of {@code strategy} that moved {@code blocks} in {@code nanos}, ending at
         * {@code now}. Returns the choice once made ({@link #PACED} or 0), else -1.
         */
        int record(int strategy, long blocks, long nanos, long now) {
            calls++;
            boolean second = strategy == next && !opens; // a call of another thread's turn is not timed
            if (strategy == next) {
                opens = !opens;
                next = opens ? 1 - strategy : strategy;
            }
            if (!warm) {
                warmed[strategy] += blocks;
                if (warmed[0] >= WARM_BLOCKS && warmed[1] >= WARM_BLOCKS) {
                    warm = true;
                    gap = true;
                    dueAt = now + SETTLE_NANOS;
                }
            } else if (second && timed[strategy] < SAMPLES) {
                perBlock[strategy][timed[strategy]++] = (double) nanos / blocks;
            }
            if (timed[0] == SAMPLES && timed[1] == SAMPLES) {
                double plain = median(perBlock[0]);
                double paced = median(perBlock[PACED]);
                int verdict = plain < paced ? 0 : PACED;
                timed[0] = 0;
                timed[1] = 0;
                if (verdict == previous) {
                    return verdict;
                }
                if (++rounds == ROUNDS) {
                    return PACED;
                }
                previous = verdict;
                gap = true;
                dueAt = now + GAP_NANOS;
            }
            return calls >= maxTrials() ? PACED : -1;
        }

        private static double median(double[] xs) {
            java.util.Arrays.sort(xs);
            return xs[xs.length / 2];
        }
    }
}
