package dev.layout.jobs.heat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SequentialHeatTest {
    @Test
    void firstStepOfThePlateHeatsTheTopRowOnly() {
        double[] five = SequentialHeat.run(new int[] {4, 5}, 5, false, null, 1);
        for (int j = 0; j < 5; j++) {
            assertThat(five[j]).isEqualTo(0.25);
            assertThat(five[5 + j]).isZero();
        }
        double[] nine = SequentialHeat.run(new int[] {4, 5}, 9, false, null, 1);
        assertThat(nine[0]).isEqualTo(0.3); // N, NW and NE are all on the hot row (its corners included)
        assertThat(nine[2]).isEqualTo(0.3);
        assertThat(nine[5]).isZero();
    }

    @Test
    void secondStepFollowsTheFormula() {
        double[] u = SequentialHeat.run(new int[] {3, 3}, 5, false, null, 2);
        // (1,1) after 2 steps: N neighbour (0,1) was 0.25, others 0
        assertThat(u[4]).isEqualTo(0.0625);
        // (0,1): N=1, S=0, W=0.25, E=0.25 -> 0.375
        assertThat(u[1]).isEqualTo(0.375);
    }

    @Test
    void threeDimensionalStencilsAverageTheirNeighbours() {
        double[] seven = SequentialHeat.run(new int[] {3, 3, 3}, 7, false, null, 1);
        assertThat(seven[4]).isEqualTo(1.0 / 6); // centre of plane 0 touches the hot plane once
        assertThat(seven[13]).isZero();
        double[] twentySeven = SequentialHeat.run(new int[] {3, 3, 3}, 27, false, null, 1);
        assertThat(twentySeven[4]).isCloseTo(9.0 / 26, within(1e-15)); // the 9 cells of the hot plane above
    }

    @Test
    void periodicGridConservesHeat() {
        double[] init = new double[6 * 7];
        init[10] = 42;
        double[] u = SequentialHeat.run(new int[] {6, 7}, 9, true, init, 25);
        double sum = 0;
        for (double v : u) {
            sum += v;
        }
        assertThat(sum).isCloseTo(42, within(1e-9));
    }
}
