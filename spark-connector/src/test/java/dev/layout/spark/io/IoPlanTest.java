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
                    16 * MIB,
                    "host",
                    "");
        }
        IoPlan mapped = IoPlan.forRead(all, new PlanOptions(Strategy.TWO_PHASE, 16 * MIB, MIB, 0, true));
        IoPlan streamed = IoPlan.forRead(all, new PlanOptions(Strategy.TWO_PHASE, 16 * MIB, MIB, 0, false));
        assertThat(mapped.domains().count()).isEqualTo(4);
        assertThat(mapped.cycleBytes()).isEqualTo(16 * MIB);
        assertThat(mapped.cycles()).isEqualTo(1);
        assertThat(streamed.cycleBytes()).isEqualTo(2 * MIB);
        assertThat(streamed.cycles()).isEqualTo(8);
    }

    /** Ranks reading every {@code ranks}-th KiB of a 64 MiB file of 8 MiB blocks, on the given hosts. */
    private static RankAccess[] interleaved(String... hosts) {
        int n = hosts.length;
        RankAccess[] all = new RankAccess[n];
        for (int r = 0; r < n; r++) {
            all[r] = new RankAccess(
                    null,
                    0,
                    "byte",
                    "byte",
                    0,
                    64 * MIB / n,
                    r * 1024L,
                    64 * MIB - (n - 1 - r) * 1024L,
                    64 * 1024 / n,
                    64 * MIB,
                    8 * MIB,
                    hosts[r],
                    "");
        }
        return all;
    }

    private static IoPlan read(RankAccess[] all, int aggregators) {
        return IoPlan.forRead(all, new PlanOptions(Strategy.TWO_PHASE, 16 * MIB, MIB, aggregators, false));
    }

    @Test
    void byDefaultOneAggregatorPerHostTakenFromTheHostsInTurn() {
        IoPlan p = read(interleaved("a", "a", "b", "b", "c", "c"), 0);
        assertThat(p.aggregatorOf()).containsExactly(0, 2, 4);
        assertThat(p.domains().count()).isEqualTo(3);
    }

    @Test
    void onOneHostEveryRankAggregatesUpToTheFilesBlocks() {
        assertThat(read(interleaved("h", "h", "h", "h"), 0).aggregatorOf()).containsExactly(0, 1, 2, 3);
        // nine ranks, eight blocks: eight domains of one block each
        IoPlan nine = read(interleaved("h", "h", "h", "h", "h", "h", "h", "h", "h"), 0);
        assertThat(nine.aggregatorOf()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(nine.domains().end(0)).isEqualTo(8 * MIB);
    }

    @Test
    void aRequestedCountIsDealtToTheHostsInTurnAndSpreadOverEachHostsRanks() {
        // host a has ranks 0-3, host b ranks 4-5: two picks each, a's spread over its four ranks
        assertThat(read(interleaved("a", "a", "a", "a", "b", "b"), 4).aggregatorOf())
                .containsExactly(0, 4, 2, 5);
        // five: b has only two ranks, so a takes the rest
        assertThat(read(interleaved("a", "a", "a", "a", "b", "b"), 5).aggregatorOf())
                .containsExactly(0, 4, 1, 5, 2);
        assertThat(read(interleaved("a", "a", "a"), 7).aggregatorOf())
                .as("never more than the ranks")
                .containsExactly(0, 1, 2);
    }

    /** For every count from 1 to the ranks: that many domains tiling the file, each with its own aggregator. */
    @Test
    void everyCountGivesDistinctAggregatorsWithDomainsTilingTheFile() {
        RankAccess[] all = interleaved("a", "b", "a", "c", "b", "a", "a", "c", "b");
        for (int k = 1; k <= all.length; k++) {
            IoPlan p = read(all, k);
            assertThat(p.domains().count()).as("k = %d", k).isEqualTo(Math.min(k, 8));
            assertThat(p.domains().fileLength()).isEqualTo(64 * MIB);
            assertThat(java.util.Arrays.stream(p.aggregatorOf()).distinct().count())
                    .isEqualTo(p.aggregatorOf().length);
            for (int d = 0; d < p.domains().count(); d++) {
                assertThat(p.domains().start(d) % (8 * MIB)).isZero();
                assertThat(p.domainOf(p.aggregatorOf()[d])).isEqualTo(d);
            }
            long hosts = java.util.Arrays.stream(p.aggregatorOf())
                    .mapToObj(r -> all[r].host())
                    .distinct()
                    .count();
            assertThat(hosts)
                    .as("k = %d aggregators on as many hosts as can be", k)
                    .isEqualTo(Math.min(k, 3));
        }
    }
}
