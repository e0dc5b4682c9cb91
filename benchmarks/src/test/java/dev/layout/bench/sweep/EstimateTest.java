package dev.layout.bench.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The sweep's statistics with made-up samples: pairing, the interval, the status and the adaptive stop rule. */
class EstimateTest {
    @Test
    void theIntervalIsTheOrderStatisticsThatHoldTheMedianNineTimesInTen() {
        assertThat(Estimate.rank(4)).isEqualTo(1); // P(B = 0) = 1/16 > 5%: only the range
        assertThat(Estimate.rank(5)).isEqualTo(1);
        assertThat(Estimate.rank(6)).isEqualTo(1); // P(B <= 1) = 7/64 > 5%
        assertThat(Estimate.rank(8)).isEqualTo(2); // P(B <= 1) = 9/256
        assertThat(Estimate.rank(16)).isEqualTo(5); // P(B <= 4) = 0.038, P(B <= 5) = 0.105
        assertThat(Estimate.rank(1000)).isGreaterThan(450).isLessThan(500);

        Estimate e = Estimate.of(new double[] {1.3, 0.9, 1.1, 1.0, 2.5, 1.05, 0.4, 1.2});
        assertThat(e.median()).isCloseTo(1.075, within(1e-12));
        assertThat(e.lo()).isEqualTo(0.9); // second smallest of 8
        assertThat(e.hi()).isEqualTo(1.3); // second largest
        assertThat(e.pairs()).isEqualTo(8);
    }

    @Test
    void anItemMeetsMissesOrStaysUnresolvedByItsWholeInterval() {
        assertThat(new Estimate(1.2, 1.0, 1.4, 8).against(1.0)).isEqualTo(Estimate.Status.MET);
        assertThat(new Estimate(0.9, 0.8, 0.99, 8).against(1.0)).isEqualTo(Estimate.Status.MISSED);
        assertThat(new Estimate(1.1, 0.97, 1.3, 8).against(1.0)).isEqualTo(Estimate.Status.UNRESOLVED);
        assertThat(Estimate.NONE.against(1.0)).isEqualTo(Estimate.Status.UNRESOLVED);
        assertThat(Estimate.of(new double[] {1, Double.NaN})).isEqualTo(Estimate.NONE);
    }

    @Test
    void ratiosArePairedSoALoadThatHitsBothSidesCancels() {
        // Both sides swing 2x from pair to pair, together; per pair the engine is 10% faster.
        double[] load = {1, 0.5, 1, 0.6, 0.9, 0.5, 1, 0.55};
        double[] hand = new double[8];
        double[] engine = new double[8];
        double[] mpich = new double[8];
        for (int i = 0; i < 8; i++) {
            hand[i] = 1000 * load[i];
            engine[i] = 1100 * load[i];
            mpich[i] = 1200 * load[i];
        }
        Samples s = new Samples("words", 0, hand, engine, mpich);
        assertThat(s.vsHand().lo()).isCloseTo(1.1, within(1e-9));
        assertThat(s.vsHand().hi()).isCloseTo(1.1, within(1e-9));
        assertThat(s.vsHand().against(SweepReport.HAND_TARGET)).isEqualTo(Estimate.Status.MET);
        assertThat(s.vsMpich().median()).isCloseTo(1100.0 / 1200, within(1e-9));
        assertThat(s.vsMpich().against(SweepReport.MPICH_TARGET)).isEqualTo(Estimate.Status.MISSED);
        // Unpaired, the sides' own spreads overlap and nothing could be said.
        assertThat(min(engine)).isLessThan(max(hand));
    }

    @Test
    void roundsPoolTheirPairsAndSurviveTheTripThroughAChildJvm() {
        Samples a = new Samples("copy", 16, new double[] {1, 2}, new double[] {2, 4}, new double[] {4, 4});
        Samples b = new Samples("words", 0, new double[] {3}, new double[] {3}, new double[] {Double.NaN});
        Samples ab = a.plus(b);
        assertThat(ab.pairs()).isEqualTo(3);
        assertThat(ab.engine()).containsExactly(2, 4, 3);
        assertThat(ab.handKind()).isEqualTo("copy");
        assertThat(ab.alloc()).isEqualTo(16);
        Samples back = Samples.parse(ab.tsv());
        assertThat(back.hand()).containsExactly(ab.hand());
        assertThat(back.mpich()[2]).isNaN();
        assertThat(back.vsMpich()).isEqualTo(Estimate.NONE);
    }

    @Test
    void onlyStraddlingItemsGetMorePairsFewestFirstWithinTheBudgetAndTheCap() {
        Samples met = same(8, 1.2, 1.5); // both targets met
        Samples straddlesHand = spread(8, 0.95, 1.5);
        Samples straddlesMpich = same(4, 1.2, 1.0); // hand met; MPICH at parity, interval [1.0, 1.0]: met
        Samples mpichOpen = withMpichSpread(6, 1.2);
        Samples capped = spread(SweepCommand.MAX_PAIRS, 0.95, 1.5);
        List<Samples> pooled = List.of(met, straddlesHand, straddlesMpich, mpichOpen, capped);

        assertThat(SweepCommand.nextRound(pooled, true, SweepCommand.MAX_PAIRS, 10))
                .containsExactly(3, 1);
        // Without MPICH measured, its interval does not keep an item open.
        assertThat(SweepCommand.nextRound(pooled, false, SweepCommand.MAX_PAIRS, 10))
                .containsExactly(1);
        // The budget leaves room for one: the item with fewer pairs.
        assertThat(SweepCommand.nextRound(pooled, true, SweepCommand.MAX_PAIRS, 1))
                .containsExactly(3);
        assertThat(SweepCommand.nextRound(pooled, true, SweepCommand.MAX_PAIRS, 0))
                .isEmpty();
        assertThat(SweepCommand.nextRound(pooled, true, SweepCommand.MAX_PAIRS, -3))
                .isEmpty();
    }

    /** n pairs, every one engine/hand {@code vsHand} and engine/MPICH {@code vsMpich}. */
    private static Samples same(int n, double vsHand, double vsMpich) {
        double[] h = new double[n];
        double[] e = new double[n];
        double[] m = new double[n];
        for (int i = 0; i < n; i++) {
            h[i] = 100;
            e[i] = 100 * vsHand;
            m[i] = 100 * vsHand / vsMpich;
        }
        return new Samples("words", 0, h, e, m);
    }

    /** n pairs whose engine/hand ratios spread from {@code center} - 10% to + 10%. */
    private static Samples spread(int n, double center, double vsMpich) {
        Samples s = same(n, center, vsMpich);
        for (int i = 0; i < n; i++) {
            s.engine()[i] = 100 * center * (0.9 + 0.2 * i / (n - 1));
            s.mpich()[i] = s.engine()[i] / vsMpich;
        }
        return s;
    }

    /** n pairs, hand met, engine/MPICH spread over 0.9 to 1.1. */
    private static Samples withMpichSpread(int n, double vsHand) {
        Samples s = same(n, vsHand, 1);
        for (int i = 0; i < n; i++) {
            s.mpich()[i] = s.engine()[i] / (0.9 + 0.2 * i / (n - 1));
        }
        return s;
    }

    private static double min(double[] v) {
        return java.util.Arrays.stream(v).min().orElseThrow();
    }

    private static double max(double[] v) {
        return java.util.Arrays.stream(v).max().orElseThrow();
    }
}
