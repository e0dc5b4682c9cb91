package dev.layout.bench;

import dev.layout.bench.memory.Raw;
import dev.layout.bench.memory.Target;
import dev.layout.dataloop.RossCase;
import dev.layout.dataloop.Segment;
import dev.layout.memory.Memory;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * The in-process version of the pack suite behind {@code layout bench pack}: every {@link RossCase}
 * at full size, pack and unpack, engine (a reused {@link Segment}) against the hand-written loop and
 * the bulk-copy ceiling, in short interleaved slice pairs (the ratio is the median of the pairs').
 */
public final class PackSuite {
    /**
     * One measured row. {@code manual} and {@code engine} are medians over slices; {@code ratio} is the
     * median of the engine/manual ratios of adjacent slice pairs (see {@link #measure}). A row combined
     * from several JVMs ({@link PackForks#combine}) holds the medians over its {@code forks} and the
     * lowest and highest of their ratios; a row from one JVM has {@code forks} 1 and its ratio as both.
     */
    public record Row(
            String test,
            String op,
            String target,
            long bytes,
            double manual,
            double engine,
            double ratio,
            double ceiling,
            long engineAllocPerOp,
            double ratioLow,
            double ratioHigh,
            int forks) {
        /** A row measured in one JVM. */
        public Row(
                String test,
                String op,
                String target,
                long bytes,
                double manual,
                double engine,
                double ratio,
                double ceiling,
                long engineAllocPerOp) {
            this(test, op, target, bytes, manual, engine, ratio, ceiling, engineAllocPerOp, ratio, ratio, 1);
        }

        public String label() {
            return test + " " + op + " " + target;
        }
    }

    /** Engine/manual slice pairs per trial: each trial's time is cut into this many pairs of short slices. */
    static final int PAIRS_PER_TRIAL = 8;

    private final List<Target> targets;
    private final long warmNanos;
    private final long trialNanos;
    private final int trials;

    public PackSuite(List<Target> targets, long warmNanos, long trialNanos, int trials) {
        this.targets = targets;
        this.warmNanos = warmNanos;
        this.trialNanos = trialNanos;
        this.trials = trials;
    }

    /** Runs the cases, printing each row as it is measured; returns all rows. */
    public List<Row> run(List<RossCase> cases, PrintStream out) {
        List<Row> rows = new ArrayList<>();
        out.println(header());
        for (RossCase c : cases) {
            RossCase.Instance inst = c.create(RossCase.Size.FULL);
            for (Target t : targets) {
                jitWarmup(c, t);
                try (Target.Buf user = t.allocate(inst.userBytes);
                        Target.Buf packed = t.allocate(inst.packedBytes)) {
                    user.fillPattern();
                    Segment seg = Segment.of(inst.type, inst.count, user.memory, inst.origin);
                    long n = inst.packedBytes;
                    Runnable enginePack = engine(seg, packed.memory, n, true);
                    Runnable engineUnpack = engine(seg, packed.memory, n, false);
                    Runnable manualPack = () -> inst.pack(user.base, user.address, packed.base, packed.address);
                    Runnable manualUnpack = () -> inst.unpack(packed.base, packed.address, user.base, user.address);
                    Runnable copyPack = () -> Raw.U.copyMemory(user.base, user.address, packed.base, packed.address, n);
                    Runnable copyUnpack =
                            () -> Raw.U.copyMemory(packed.base, packed.address, user.base, user.address, n);
                    Row p = measure(c.title(), "pack", t, n, manualPack, enginePack, copyPack);
                    rows.add(p);
                    out.println(format(p));
                    Row u = measure(c.title(), "unpack", t, n, manualUnpack, engineUnpack, copyUnpack);
                    rows.add(u);
                    out.println(format(u));
                }
            }
        }
        return rows;
    }

    /**
     * The engine's side of a row: {@code seg} from its start, the whole stream packed into (or
     * unpacked from) {@code packed} at offset 0, as an application reusing one segment does.
     */
    public static Runnable engine(Segment seg, Memory packed, long bytes, boolean pack) {
        if (pack) {
            return () -> {
                seg.seek(0);
                seg.pack(packed, 0, bytes);
            };
        }
        return () -> {
            seg.seek(0);
            seg.unpack(packed, 0, bytes);
        };
    }

    /**
     * Calls the manual loops and the engine a few thousand times on the small variant of the case, so
     * that both are compiled as whole methods by C2 (a full-size loop called a few hundred times would
     * otherwise run only as an on-stack-replacement compilation, which favours neither side reliably).
     */
    private static void jitWarmup(RossCase c, Target t) {
        RossCase.Instance small = c.create(RossCase.Size.SMALL);
        try (Target.Buf user = t.allocate(small.userBytes);
                Target.Buf packed = t.allocate(small.packedBytes)) {
            user.fillPattern();
            Segment seg = Segment.of(small.type, small.count, user.memory, small.origin);
            for (int i = 0; i < 3000; i++) {
                small.pack(user.base, user.address, packed.base, packed.address);
                small.unpack(packed.base, packed.address, user.base, user.address);
                seg.seek(0);
                seg.pack(packed.memory, 0, small.packedBytes);
                seg.seek(0);
                seg.unpack(packed.memory, 0, small.packedBytes);
            }
        }
    }

    /**
     * Measures one row. The hand loop and the engine run in short adjacent slices (a pair every few
     * tens of milliseconds, which goes first alternating), and the ratio is the median of the pairs'
     * ratios. Why: on this kind of machine (a VM sharing memory bandwidth and last-level cache with
     * other tenants) a memory-bound loop's speed drifts by 10-30% over seconds; the two halves of a pair
     * see the same conditions, so their ratio cancels the drift, and the median ignores the pairs a
     * burst hit. A best-of-trials ratio instead compares each side's luckiest moment, and moved by
     * +-0.07 between runs even on rows where both sides execute the same copy calls.
     */
    private Row measure(String test, String op, Target t, long bytes, Runnable manual, Runnable engine, Runnable copy) {
        Meter.mbPerSecond(manual, bytes, warmNanos);
        Meter.mbPerSecond(engine, bytes, warmNanos);
        Meter.mbPerSecond(copy, bytes, warmNanos / 4);
        Paired p = paired(manual, engine, bytes, trialNanos / PAIRS_PER_TRIAL, trials * PAIRS_PER_TRIAL);
        double c = 0;
        for (int i = 0; i < trials; i++) {
            c = Math.max(c, Meter.mbPerSecond(copy, bytes, trialNanos / 2));
        }
        long alloc = Meter.allocatedPerRun(engine, 20);
        return new Row(test, op, t.label(), bytes, p.base(), p.candidate(), p.ratio(), c, alloc);
    }

    /** Medians of {@link #paired}: each side's MB/s over its slices, and candidate/base over adjacent pairs. */
    public record Paired(double base, double candidate, double ratio) {}

    /**
     * Runs {@code base} and {@code candidate} in {@code pairs} adjacent slices of {@code sliceNanos}
     * each (which goes first alternates) and returns the medians: each side's MB/s and the ratio
     * candidate/base of each pair (see {@link #measure} for why pairs). A pair during which the JIT
     * finished compiling ({@link Meter#jitMillis}) is measured again, at most {@code pairs} times in
     * all: such a pair timed one side in code that was being replaced (a loop deoptimized when it met
     * a new width or direction, then recompiled), a transient that a program running the same types
     * pays once, not the steady state the ratio stands for.
     */
    public static Paired paired(Runnable base, Runnable candidate, long bytes, long sliceNanos, int pairs) {
        return paired(base, candidate, bytes, sliceNanos, pairs, Meter::jitMillis);
    }

    /** {@link #paired} with the JIT's compile time read from {@code jitMillis}. */
    static Paired paired(
            Runnable base, Runnable candidate, long bytes, long sliceNanos, int pairs, LongSupplier jitMillis) {
        double[][] s = adjacent(
                new DoubleSupplier[] {
                    () -> Meter.mbPerSecond(base, bytes, sliceNanos),
                    () -> Meter.mbPerSecond(candidate, bytes, sliceNanos)
                },
                pairs,
                jitMillis);
        double[] r = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            r[i] = s[1][i] / s[0][i];
        }
        return new Paired(median(s[0]), median(s[1]), median(r));
    }

    /**
     * Takes {@code pairs} groups of adjacent slices, one of each side (a slice returns MB/s), and
     * returns them as {@code [side][group]}: the sides of a group ran next to each other, so a load
     * that comes and goes hits a group's sides alike and their ratio keeps. Which side goes first
     * rotates from group to group. A group during which the JIT finished compiling ({@code
     * jitMillis} moved) is taken again, at most {@code pairs} times in all (see {@link #paired}).
     */
    public static double[][] adjacent(DoubleSupplier[] sides, int pairs, LongSupplier jitMillis) {
        int n = sides.length;
        double[][] s = new double[n][pairs];
        int redo = pairs;
        for (int i = 0; i < pairs; i++) {
            long jit = jitMillis.getAsLong();
            for (int k = 0; k < n; k++) {
                int side = (i + k) % n;
                s[side][i] = sides[side].getAsDouble();
            }
            if (jitMillis.getAsLong() != jit && redo > 0) {
                redo--;
                i--;
            }
        }
        return s;
    }

    /** The median of {@code values} (the mean of the middle two for an even count); sorts a copy. */
    public static double median(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("median of no values");
        }
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        int h = v.length / 2;
        return v.length % 2 == 1 ? v[h] : (v[h - 1] + v[h]) / 2;
    }

    public static String header() {
        return String.format(
                Locale.ROOT,
                "%-26s %-6s %-7s %10s %12s %12s %8s %12s %8s",
                "test",
                "op",
                "target",
                "bytes",
                "manual MB/s",
                "engine MB/s",
                "eng/man",
                "ceiling MB/s",
                "alloc B");
    }

    public static String format(Row r) {
        String row = String.format(
                Locale.ROOT,
                "%-26s %-6s %-7s %10d %12.1f %12.1f %8.2f %12.1f %8d",
                r.test(),
                r.op(),
                r.target(),
                r.bytes(),
                r.manual(),
                r.engine(),
                r.ratio(),
                r.ceiling(),
                r.engineAllocPerOp());
        return r.forks() == 1
                ? row
                : row + String.format(Locale.ROOT, "  %.2f-%.2f over %d JVMs", r.ratioLow(), r.ratioHigh(), r.forks());
    }

    /** The row with the lowest engine/manual ratio. */
    public static Row worst(List<Row> rows) {
        Row w = null;
        for (Row r : rows) {
            if (w == null || r.ratio() < w.ratio()) {
                w = r;
            }
        }
        return w;
    }
}
