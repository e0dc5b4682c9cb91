package dev.layout.bench;

import dev.layout.dataloop.DataloopCompiler;
import dev.layout.dataloop.Representation;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;

/**
 * Issue 3's "committing a type with n blocks costs O(n) time and memory": builds an irregular
 * indexed type of n blocks (lengths 1 or 2 float64, gaps of 1 to 3 elements, from a fixed
 * pseudo-random sequence, so that no periodic pattern or merge shortens it), then commits it: the
 * {@link Datatype} itself, its compiled dataloop ({@link DataloopCompiler#compile}) and a {@link
 * Segment} over it. Prints, per n, the wall time of each step and the heap retained by the
 * committed type (after GC, the input arrays dropped), per block. Compiling includes normalization
 * up to the compiler's bound (2^16 list entries: n <= 32768 here), see {@code EngineNormalization}.
 *
 * <pre>java -cp ... dev.layout.bench.CommitScale [maxN]   (default 10000000)</pre>
 */
public final class CommitScale {
    private CommitScale() {}

    public static void main(String[] args) {
        long maxN = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
        System.out.println("commit scale: " + Meter.machine() + "; " + Meter.jvm());
        System.out.printf(
                Locale.ROOT,
                "%10s %10s %10s %10s %10s %12s %10s%n",
                "n",
                "type ms",
                "compile ms",
                "segment ms",
                "total ms",
                "retained MB",
                "B/block");
        // Warm the code paths so the first rows measure the algorithm, not the JIT: types within the
        // compiler's normalization bound (normalized first) and beyond it (compiled as given).
        for (int i = 0; i < 5; i++) {
            commitTimed(5_000 + i, new Object[1]);
            commitTimed(50_000 + i, new Object[1]);
        }
        for (long n = 1000; n <= maxN; n *= 10) {
            gc();
            long before = mx.getHeapMemoryUsage().getUsed();
            Object[] keep = new Object[1];
            long[] times = commitTimed((int) n, keep);
            gc();
            long after = mx.getHeapMemoryUsage().getUsed();
            double mb = (after - before) / 1e6;
            System.out.printf(
                    Locale.ROOT,
                    "%10d %10.1f %10.1f %10.1f %10.1f %12.1f %10.1f%n",
                    n,
                    times[0] / 1e6,
                    times[1] / 1e6,
                    times[2] / 1e6,
                    (times[0] + times[1] + times[2]) / 1e6,
                    mb,
                    (after - before) / (double) n);
            if (keep[0] == null) {
                throw new AssertionError();
            }
        }
    }

    /** Returns {type, compile, segment} nanoseconds; keeps the segment (and through it the type and dataloop) in keep[0]. */
    private static long[] commitTimed(int n, Object[] keep) {
        long[][] blocks = irregularBlocks(n);
        long t0 = System.nanoTime();
        Datatype t = Datatype.indexed(blocks[0], blocks[1], Primitive.FLOAT64);
        long t1 = System.nanoTime();
        DataloopCompiler.compile(t, Representation.NATIVE);
        long t2 = System.nanoTime();
        Segment s = Segment.layout(t, 1);
        long t3 = System.nanoTime();
        keep[0] = s;
        return new long[] {t1 - t0, t2 - t1, t3 - t2};
    }

    /**
     * {lengths, displacements} of n irregular blocks: 1 or 2 elements with gaps of 1 to 3, from a
     * fixed xorshift sequence (no periodic pattern, nothing to merge).
     */
    public static long[][] irregularBlocks(int n) {
        long[] lens = new long[n];
        long[] disp = new long[n];
        long x = 0x9E3779B97F4A7C15L;
        long at = 0;
        for (int i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            lens[i] = 1 + (x & 1);
            disp[i] = at;
            at += lens[i] + 1 + ((x >>> 1) & 1) + ((x >>> 2) & 1);
        }
        return new long[][] {lens, disp};
    }

    private static void gc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
    }
}
