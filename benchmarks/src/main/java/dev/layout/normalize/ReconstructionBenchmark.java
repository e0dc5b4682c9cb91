package dev.layout.normalize;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reconstruction time for n = 10^3 .. 10^6 (issue 4: O(n sqrt n), n = 10^6 under 1 s), on
 * regularly and irregularly structured sequences:
 *
 * <ul>
 *   <li>{@code REGULAR}: nested vectors over an irregular block, with an offset (the common case).
 *   <li>{@code IRREGULAR}: random displacements, no structure (Repeat fails fast on each divisor).
 *   <li>{@code ALMOST_PERIODIC}: an irregular block of 2 repeated, broken only in the last
 *       element: Repeat scans almost all of x for every even divisor, the worst case of TypePath.
 *   <li>{@code CONTIGUOUS}: 0..n-1, every divisor of n is a cut point (the most DP work).
 * </ul>
 *
 * Run: {@code java -jar benchmarks/target/benchmarks.jar ReconstructionBenchmark}, or for one quick
 * pass without JMH: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.layout.normalize.ReconstructionBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReconstructionBenchmark {

    /** Sequence shapes. */
    public enum Shape {
        REGULAR,
        IRREGULAR,
        ALMOST_PERIODIC,
        CONTIGUOUS;

        DisplacementSequence make(int n) {
            long[] x = new long[n];
            Random r = new Random(42);
            switch (this) {
                case REGULAR -> {
                    // vec(n/8/…) over idx(8, irregular) with an offset: idx(1,<17>,vec(n/8,100,idx(8,<…>,con(1))))
                    long[] block = {0, 1, 3, 7, 8, 12, 13, 19};
                    for (int i = 0; i < n; i++) {
                        x[i] = 17 + (i / 8) * 100L + block[i % 8];
                    }
                }
                case IRREGULAR -> {
                    for (int i = 0; i < n; i++) {
                        x[i] = r.nextInt(1 << 30);
                    }
                }
                case ALMOST_PERIODIC -> {
                    for (int i = 0; i < n; i++) {
                        x[i] = (i / 2) * 10L + (i % 2 == 0 ? 0 : 3);
                    }
                    x[n - 1] += 1;
                }
                case CONTIGUOUS -> {
                    for (int i = 0; i < n; i++) {
                        x[i] = i;
                    }
                }
            }
            return DisplacementSequence.of(x);
        }
    }

    @Param({"1000", "10000", "100000", "1000000"})
    public int n;

    @Param({"REGULAR", "IRREGULAR", "ALMOST_PERIODIC", "CONTIGUOUS"})
    public Shape shape;

    @Param({"storage"})
    public String model;

    private DisplacementSequence x;
    private Normalizer normalizer;

    @Setup
    public void setup() {
        x = shape.make(n);
        normalizer = Normalizer.of(CostModel.fromProperties(CostModel.DEFAULTS, model));
    }

    @Benchmark
    public TypePath reconstruct() {
        return normalizer.reconstruct(x);
    }

    /** One quick timing pass per shape and n, without JMH (prints milliseconds per call). */
    public static void main(String[] args) {
        Normalizer normalizer = Normalizer.of(CostModel.defaults());
        int[] sizes = {1_000, 10_000, 100_000, 1_000_000, 720_720};
        for (Shape shape : Shape.values()) {
            for (int n : sizes) {
                DisplacementSequence x = shape.make(n);
                int reps = Math.max(3, 3_000_000 / n);
                for (int i = 0; i < reps; i++) { // warm-up
                    normalizer.reconstruct(x);
                }
                long best = Long.MAX_VALUE;
                TypePath p = null;
                for (int i = 0; i < 5; i++) {
                    long t0 = System.nanoTime();
                    p = normalizer.reconstruct(x);
                    best = Math.min(best, System.nanoTime() - t0);
                }
                String s = p.toString();
                System.out.printf(
                        "%-16s n=%8d  %9.3f ms  %s%n",
                        shape, n, best / 1e6, s.length() > 60 ? s.substring(0, 60) + "…" : s);
            }
        }
    }
}
