package dev.layout.transport;

import java.util.Arrays;

/**
 * How much faster one strategy is than another, from their round trips measured in the same rounds
 * ({@code num[i]} and {@code den[i]} in round {@code i}, the strategies interleaved in a fresh order
 * every round). Two estimators of the same ratio, time over time:
 *
 * <ul>
 *   <li>{@link #unpaired}: each strategy's interquartile mean over the rounds, then their quotient
 *       (the benchmark's figure up to session 26). A load that drifts between rounds moves both
 *       means, but not equally: which rounds fall in a strategy's middle half depends on its own
 *       noise, so the two means are of different rounds and the drift between those stays in the
 *       quotient.
 *   <li>{@link #paired}: the quotient per round, then the interquartile mean over the rounds of its
 *       logarithm. A load shared by the strategies of a round cancels out of that round's quotient,
 *       whatever it is in the next; the logarithm makes the estimate symmetric ({@code paired(a, b)
 *       == 1 / paired(b, a)}), so a strategy against itself is judged the same from either side.
 * </ul>
 *
 * The middle half, not the median: round trips here fall into two clusters (both JVMs' threads
 * scheduled at once or not), and the median of such a sample jumps between them.
 */
final class RoundTripRatios {
    private RoundTripRatios() {}

    /** The interquartile mean of {@code num} over that of {@code den}. */
    static double unpaired(double[] num, double[] den) {
        check("unpaired", num, den);
        return middleMean(num) / middleMean(den);
    }

    /** The exponential of the interquartile mean of log(num[i] / den[i]) over the rounds i. */
    static double paired(double[] num, double[] den) {
        check("paired", num, den);
        double[] logs = new double[num.length];
        for (int i = 0; i < num.length; i++) {
            logs[i] = Math.log(num[i] / den[i]);
        }
        return Math.exp(middleMean(logs));
    }

    /**
     * The interquartile mean of {@code v}: the mean of its middle half (of all of them when there
     * are fewer than four).
     */
    static double middleMean(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        int from = n / 4;
        int to = Math.max(from + 1, n - n / 4);
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += s[i];
        }
        return sum / (to - from);
    }

    private static void check(String op, double[] num, double[] den) {
        if (num.length == 0) {
            throw new IllegalArgumentException(op + ": rounds 0 (expected: at least 1)");
        }
        if (den.length != num.length) {
            throw new IllegalArgumentException(
                    op + ": den length " + den.length + " (expected: num's length " + num.length + ")");
        }
        for (int i = 0; i < num.length; i++) {
            if (!(num[i] > 0) || !(den[i] > 0) || Double.isInfinite(num[i]) || Double.isInfinite(den[i])) {
                throw new IllegalArgumentException(op + ": round " + i + " times " + num[i] + " and " + den[i]
                        + " (expected: positive and finite)");
            }
        }
    }
}
