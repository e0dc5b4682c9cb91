package dev.layout.bench.sweep;

import dev.layout.bench.PackSuite;
import java.util.Arrays;
import java.util.Locale;

/**
 * A ratio measured as adjacent pairs: the median of the pairs' ratios and a distribution-free
 * interval for it, the order statistics {@code x(k)} and {@code x(n+1-k)} with the largest {@code k}
 * for which a binomial(n, 1/2) falls below {@code k} with probability at most 5% (so the interval
 * holds the true median with probability at least 90%; below 5 pairs no {@code k} qualifies, and the
 * interval is the whole range). It assumes only that pairs are independent, not a shape of the noise:
 * on this machine a slice is now and then 2x off, which would widen a normal interval for every point.
 */
record Estimate(double median, double lo, double hi, int pairs) {
    /** Against a target ratio: the whole interval at or above it, below it, or straddling it. */
    enum Status {
        MET,
        MISSED,
        UNRESOLVED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static final Estimate NONE = new Estimate(Double.NaN, Double.NaN, Double.NaN, 0);

    /** Estimates the ratio from per-pair ratios (NaN ones, a side not measured, give {@link #NONE}). */
    static Estimate of(double[] ratios) {
        if (ratios.length == 0 || Arrays.stream(ratios).anyMatch(Double::isNaN)) {
            return NONE;
        }
        double[] s = ratios.clone();
        Arrays.sort(s);
        int k = rank(s.length);
        return new Estimate(PackSuite.median(s), s[k - 1], s[s.length - k], s.length);
    }

    /** The 1-based rank {@code k} of the interval's lower end among {@code n} sorted pairs. */
    static int rank(int n) {
        // P(B <= j) for B ~ binomial(n, 1/2), summed term by term; the first term underflows past ~1000 pairs
        double term = Math.pow(0.5, Math.min(n, 1000));
        double below = 0;
        int k = 1;
        for (int j = 0; j < n / 2; j++) {
            below += term;
            if (below > 0.05) {
                break;
            }
            k = j + 1;
            term = term * (n - j) / (j + 1);
        }
        return k;
    }

    Status against(double target) {
        if (pairs == 0) {
            return Status.UNRESOLVED;
        }
        return lo >= target ? Status.MET : hi < target ? Status.MISSED : Status.UNRESOLVED;
    }

    /** {@code 0.93 [0.88, 1.02]}. */
    String format() {
        return String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", median, lo, hi);
    }
}
