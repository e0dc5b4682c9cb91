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
}
