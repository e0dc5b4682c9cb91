package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IoPlanTest {
    private static final long MIB = 1L << 20;

    @Test
    void readCyclesSplitAWideDomainIntoEightWithinTheBounds() {
        assertThat(IoPlan.readCycleBytes(32 * MIB, 16 * MIB)).isEqualTo(4 * MIB);
        assertThat(IoPlan.readCycleBytes(33 * MIB, 16 * MIB)).isEqualTo((33 * MIB + 7) / 8);
        // never above the configured cycle, never below the smallest read cycle unless configured so
        assertThat(IoPlan.readCycleBytes(1024 * MIB, 16 * MIB)).isEqualTo(16 * MIB);
        assertThat(IoPlan.readCycleBytes(8 * MIB, 16 * MIB)).isEqualTo(IoPlan.MIN_READ_CYCLE_BYTES);
        assertThat(IoPlan.readCycleBytes(8 * MIB, 4096)).isEqualTo(4096);
    }
}
