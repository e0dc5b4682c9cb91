package dev.layout.bench.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The engine's warm-up rule. */
class JavaSweepTest {
    @Test
    void twoAgreeingSlicesAreNotWarmBeforeEnoughBlocksHaveRun() {
        // A kernel still interpreted runs slowly and steadily: agreeing slices alone must not end the warm-up.
        assertThat(JavaSweep.steady(100, 101, JavaSweep.WARM_BLOCKS - 1)).isFalse();
        assertThat(JavaSweep.steady(100, 101, JavaSweep.WARM_BLOCKS)).isTrue();
        assertThat(JavaSweep.steady(100, 150, 10 * JavaSweep.WARM_BLOCKS)).isFalse();
    }
}
