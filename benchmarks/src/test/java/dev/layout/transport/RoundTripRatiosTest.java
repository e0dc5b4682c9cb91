package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The ping-pong's two estimators of one strategy's time over another's, on made-up rounds. */
class RoundTripRatiosTest {
    /**
     * Rounds whose load drifts slowly (a factor up to 2) and also steps between two levels (the
     * JVMs' threads scheduled together or not), shared by both strategies of a round; each
     * strategy's own noise is 5%. The paired estimate of a 5% gap lands within 2% of it in every
     * seed, and nearer than the unpaired one on average (whose middle halves are not the same rounds).
     */
    @Test
    void aLoadSharedWithinEachRoundCancelsOutOfThePairedRatio() {
        double truth = 100 / 105.0;
        double pairedError = 0;
        double unpairedError = 0;
        for (int seed = 0; seed < 50; seed++) {
            Random r = new Random(seed);
            int n = 100;
            double[] a = new double[n];
            double[] b = new double[n];
            for (int i = 0; i < n; i++) {
                double load = (1 + Math.sin(i / 7.0 + seed) * 0.5 + i / 100.0) * (r.nextBoolean() ? 1 : 1.4);
                a[i] = 100 * load * (1 + 0.05 * r.nextGaussian());
                b[i] = 105 * load * (1 + 0.05 * r.nextGaussian());
            }
            double paired = RoundTripRatios.paired(a, b);
            assertThat(paired).as("seed " + seed).isCloseTo(truth, within(0.02));
            pairedError += Math.abs(paired - truth);
            unpairedError += Math.abs(RoundTripRatios.unpaired(a, b) - truth);
        }
        assertThat(pairedError).isLessThan(unpairedError);
    }

    @Test
    void aDescheduledRoundOfEitherStrategyDoesNotMoveThePairedRatio() {
        double[] a = {100, 101, 99, 100, 5000, 100, 102, 98};
        double[] b = {200, 202, 198, 200, 200, 9000, 204, 196};
        assertThat(RoundTripRatios.paired(a, b)).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void thePairedRatioIsSymmetricAndExactForAConstantRatio() {
        double[] b = {70, 700, 7000, 71, 69, 7100};
        double[] a = new double[b.length];
        for (int i = 0; i < b.length; i++) {
            a[i] = 1.07 * b[i];
        }
        assertThat(RoundTripRatios.paired(a, b)).isCloseTo(1.07, within(1e-9));
        assertThat(RoundTripRatios.paired(b, a) * RoundTripRatios.paired(a, b)).isCloseTo(1, within(1e-12));
        assertThat(RoundTripRatios.unpaired(a, b)).isCloseTo(1.07, within(1e-9));
    }

    @Test
    void theMiddleMeanIsTheMeanOfTheMiddleHalf() {
        assertThat(RoundTripRatios.middleMean(new double[] {9, 1, 3, 2, 100, 4, 5, 0}))
                .isEqualTo(3.5);
        assertThat(RoundTripRatios.middleMean(new double[] {2, 4, 9})).isEqualTo(5);
        assertThat(RoundTripRatios.middleMean(new double[] {7})).isEqualTo(7);
    }

    @Test
    void badRoundsAreRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> RoundTripRatios.paired(new double[0], new double[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("paired: rounds 0 (expected: at least 1)");
        assertThatThrownBy(() -> RoundTripRatios.unpaired(new double[] {1, 2}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unpaired: den length 1 (expected: num's length 2)");
        assertThatThrownBy(() -> RoundTripRatios.paired(new double[] {1, 0}, new double[] {1, 1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("paired: round 1 times 0.0 and 1.0 (expected: positive and finite)");
        assertThatThrownBy(() -> RoundTripRatios.paired(new double[] {Double.NaN}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("round 0 times NaN");
    }
}
