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

    @Test
    void mappedReadsKeepWholeCyclesAndStreamedReadsSplitThem() {
        RankAccess[] all = new RankAccess[4];
        for (int r = 0; r < 4; r++) {
            // four ranks each reading every fourth 1 KiB of a 64 MiB file: interleaved, so two-phase
            all[r] = new RankAccess(
                    null,
                    0,
                    "byte",
                    "byte",
                    0,
                    16 * MIB,
                    r * 1024L,
                    64 * MIB - (3 - r) * 1024L,
                    16 * 1024,
                    64 * MIB,
                    16 * MIB);
        }
        IoPlan mapped = IoPlan.forRead(all, Strategy.TWO_PHASE, 16 * MIB, MIB, true);
        IoPlan streamed = IoPlan.forRead(all, Strategy.TWO_PHASE, 16 * MIB, MIB, false);
        assertThat(mapped.domains().count()).isEqualTo(4);
        assertThat(mapped.cycleBytes()).isEqualTo(16 * MIB);
        assertThat(mapped.cycles()).isEqualTo(1);
        assertThat(streamed.cycleBytes()).isEqualTo(2 * MIB);
        assertThat(streamed.cycles()).isEqualTo(8);
    }
}
