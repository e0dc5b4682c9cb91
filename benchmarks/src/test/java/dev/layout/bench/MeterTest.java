package dev.layout.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MeterTest {
    @Test
    void aQueueReportWithOnlyHeadingsIsIdle() {
        assertThat(Meter.idle("Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n\n"))
                .isTrue();
    }

    @Test
    void aRunningCompilationIsNotIdle() {
        assertThat(Meter.idle("Current compiles: \nC2 CompilerThread0  1245   !   4       a.B::c (497 bytes)\n\n"
                        + "C1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n"))
                .isFalse();
    }

    @Test
    void aQueuedCompilationIsNotIdle() {
        assertThat(Meter.idle("Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\n"
                        + "1514 %     4       Q::main @ 60 (189 bytes)\n"))
                .isFalse();
    }

    @Test
    void twoAgreeingSlicesAreNotWarmBeforeEnoughBlocksHaveRun() {
        // A kernel still interpreted runs slowly and steadily: agreeing slices alone must not end the warm-up.
        assertThat(Meter.steady(100, 101, Meter.WARM_BLOCKS - 1)).isFalse();
        assertThat(Meter.steady(100, 101, Meter.WARM_BLOCKS)).isTrue();
        assertThat(Meter.steady(100, 150, 10 * Meter.WARM_BLOCKS)).isFalse();
    }
}
