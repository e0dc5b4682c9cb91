package dev.layout.dataloop.kernel;

import java.util.function.LongSupplier;

/**
 * When a loop of a {@link GeneratedKernel} takes over from the generic loops. A generated kernel is a
 * new class per shape: when the engine meets a new layout, its loops run in the interpreter, then as
 * the first tier's code, for hundreds of calls, while the generic loops, shared by every layout, are
 * compiled already; run at once, a new layout's first calls were many times slower than the generic
 * loops (benchmarks/FIRST-CALLS.md). So each loop starts on trial ({@link #begin}): the generic loops
 * run its calls, each after a dose of the call's instances through the kernel ({@link #dose}), and now
 * and then a whole call is a trial of the kernel, timed per instance against the generic call just
 * before it ({@link #end}). Once the kernel is at least as fast in {@link #WINS} trials in a row (the
 * JIT has compiled it) it runs every call; if it is not within {@link #MAX_CALLS} calls (the cost
 * model was wrong for this machine), it is retired and the generic loops keep the shape. The doses are
 * timed too ({@link #dosed}): they size the next doses and call the next trial once the kernel has
 * become much faster than at the last trial, so that neither waits for a trial while the JIT works.
 *
 * <p>Exploits: the JIT compiles a method once it has been called and has looped often enough, so the
 * doses call the kernel at least as often as running it on every call would, while moving few instances
 * through it when it is cold; a whole call's trial is not biased as part of a call would be (the first
 * instances of a call ran slower per instance than the rest, whatever the code: so a dose's time only
 * estimates, for sizing and scheduling, and never promotes), and the two calls of a
 * pair are adjacent in time, so a load shared by both cancels out. Bounded: trials come {@link #gap}
 * calls apart and doses are sized so that each loses about {@link #BUDGET} of the calls' time to the
 * generic loops, at the last ratio measured. The state is the loop's (pack or unpack, at a spacing or at
 * listed offsets: each a method the JIT compiles on its own), shared by every segment of its shape and
 * memory kinds. {@code -Dlayout.kernels.promote=always} runs generated kernels at once (no trials),
 * {@code =never} never. Thread-safe.
 */
public final class Promotion {
    /** Packed bytes of a warming dose ({@link #dose}; at least one instance). */
    static final long DOSE_BYTES = 2048;
    /** Instances per call of the kernel in a dose: many calls, so that the JIT's invocation counters pass their thresholds soon. */
    public static final int PIECE = 16;
    /** Trials in a row the kernel must be at least as fast as the generic loops in to be promoted. */
    static final int WINS = 4;
    /**
     * Calls on trial, and time since the first ({@link #RETIRE_NANOS}), after which a kernel not promoted is
     * retired: each call gave it a dose or a trial, four times the calls after which HotSpot compiles a
     * method with its optimizing compiler however short they are ({@code Tier4InvocationThreshold}, 5000),
     * and the time lets a compilation queued behind others finish; a kernel still slower then is slower.
     */
    static final int MAX_CALLS = 20_000;

    /** See {@link #MAX_CALLS}. */
    static final long RETIRE_NANOS = 10_000_000_000L;
    /** The share of the calls' time that the trials, and the doses, may each lose to the generic loops. */
    static final double BUDGET = 0.125;
    /**
     * The most calls between trials, and before the first: the calls before it give the kernel doses
     * (from the second: a layout used once never makes its kernel), whose times call the first trial
     * sooner once the kernel is near the generic loops' speed ({@link #dosed}), so that it is not
     * tried wholly cold.
     */
    static final int MAX_GAP = 128;

    /** {@link #begin}: run the generic loops. */
    public static final int GENERIC = 0;
    /** {@link #begin}: run the kernel. */
    public static final int KERNEL = 1;
    /** {@link #begin}: run the generic loops, timed (the pair's first call). */
    public static final int BASELINE = 2;
    /** {@link #begin}: run the kernel, timed (a trial). */
    public static final int TRIAL = 3;

    private static final int ON_TRIAL = 0;
    private static final int PROMOTED = 1;
    private static final int RETIRED = 2;

    /** The state every kernel starts in, from {@code layout.kernels.promote}. */
    private static final int START = start(System.getProperty("layout.kernels.promote", "measure"));

    private volatile int state;
    /** Calls until the next trial: 1 for the baseline, 0 for the trial. */
    private int countdown = MAX_GAP;

    private double baseline;
    /** The last trial's or dose's time per instance over the generic loops' (0 before the first): sizes the doses. */
    private volatile double ratio;
    /** The last trial's ratio (infinite before the first). */
    private double trialRatio = Double.POSITIVE_INFINITY;

    private int wins;
    private int calls;
    private long firstCall;

    /** The clock the retirement's time is read from ({@link System#nanoTime}, but in tests). */
    private final LongSupplier clock;

    Promotion() {
        this(START, System::nanoTime);
    }

    private Promotion(int state, LongSupplier clock) {
        this.state = state;
        this.clock = clock;
    }

    /** A promotion on trial whatever the system property says, its time read from {@code clock} (for tests of the trials). */
    static Promotion onTrial(LongSupplier clock) {
        return new Promotion(ON_TRIAL, clock);
    }

    static int start(String v) {
        return switch (v) {
            case "measure" -> ON_TRIAL;
            case "always" -> PROMOTED;
            case "never" -> RETIRED;
            default ->
                throw new IllegalArgumentException(
                        "layout.kernels.promote: " + v + " (expected: measure, always or never)");
        };
    }

    /** What the next call does: {@link #KERNEL} once promoted, else {@link #GENERIC}, {@link #BASELINE} or {@link #TRIAL}. */
    public int begin() {
        int s = state;
        return s == PROMOTED ? KERNEL : s == RETIRED ? GENERIC : onTrial(countdown());
    }

    private synchronized int countdown() {
        if (calls++ == 0) {
            firstCall = clock.getAsLong();
        } else if (calls >= MAX_CALLS && clock.getAsLong() - firstCall >= RETIRE_NANOS) {
            state = RETIRED;
        }
        return countdown > 0 ? --countdown : 0;
    }

    private static int onTrial(int left) {
        return left == 1 ? BASELINE : left == 0 ? TRIAL : GENERIC;
    }

    /** Whether a call of {@code what} ({@link #begin}) runs the kernel. */
    public static boolean kernel(int what) {
        return (what & KERNEL) != 0;
    }

    /** Whether a call of {@code what} ({@link #begin}) is timed and {@link #end ended}. */
    public static boolean timed(int what) {
        return what >= BASELINE;
    }

    /** Ends a timed call of {@code what} that moved {@code count} instances in {@code nanos}. */
    public synchronized void end(int what, long count, long nanos) {
        if (state != ON_TRIAL || count < 1) {
            return;
        }
        double perInstance = Math.max(1, nanos) / (double) count;
        if (what == BASELINE) {
            baseline = perInstance;
            return;
        }
        if (what != TRIAL) {
            return;
        }
        if (baseline == 0) {
            countdown = 2; // the baseline was another thread's or not ended: a new pair
            return;
        }
        double ratio = perInstance / baseline;
        this.ratio = ratio;
        trialRatio = ratio;
        wins = ratio <= 1 ? wins + 1 : 0;
        if (wins >= WINS) {
            state = PROMOTED;
        } else {
            countdown = gap(ratio);
            baseline = 0;
        }
    }

    /**
     * Ends a generic call that gave the kernel a dose: {@code dosed} instances through the kernel in
     * {@code doseNanos}, then {@code rest} through the generic loops in {@code restNanos}. Their ratio
     * per instance sizes the next doses; where it is under half the last trial's (the JIT has compiled
     * the kernel since), the next trial comes within {@link #gap} of it.
     */
    public synchronized void dosed(long dosed, long doseNanos, long rest, long restNanos) {
        if (state != ON_TRIAL || dosed < 1 || rest < 1) {
            return;
        }
        double r = (Math.max(1, doseNanos) / (double) dosed) / (Math.max(1, restNanos) / (double) rest);
        ratio = r;
        if (r < trialRatio / 2 && countdown > gap(r)) {
            countdown = gap(r);
        }
    }

    /** Calls to the next trial after one at {@code ratio} to the generic loops: what keeps its loss within {@link #BUDGET}. */
    static int gap(double ratio) {
        return (int) Math.max(2, Math.min(MAX_GAP, Math.ceil((ratio - 1) / BUDGET)));
    }

    /**
     * Instances of a generic call of {@code count} instances of {@code size} packed bytes that the kernel
     * on trial moves first, as a warming dose ({@link #PIECE} instances a call of it): what {@link #BUDGET}
     * of the call buys at the last ratio measured (a trial's or a dose's), at least {@link #DOSE_BYTES} of them and one instance, at
     * most half the call (the whole call if it is one instance); none once promoted or retired. Exploits:
     * the JIT compiles a method once it has been called and looped often enough; a dose calls the kernel at
     * least as often as running it on every call would, runs few instances while it is cold and many once
     * it is nearly as fast as the generic loops (its optimizing compilation then comes sooner).
     */
    public long dose(long count, long size) {
        if (state != ON_TRIAL || count < 1 || calls < 2) {
            return 0;
        }
        if (count == 1) {
            return 1;
        }
        double r = ratio;
        long budget = r == 0 ? 0 : r <= 1 + BUDGET ? count : (long) (BUDGET * count / (r - 1));
        return Math.max(1, Math.min(count / 2, Math.max(budget, DOSE_BYTES / Math.max(1, size))));
    }

    /** Whether the kernel runs every call. */
    public boolean promoted() {
        return state == PROMOTED;
    }
}
