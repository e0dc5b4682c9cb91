package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.transport.AdaptiveSendPolicyTest.Shared;
import dev.layout.transport.AdaptiveSendPolicyTest.Times;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Exploring once the gap is known, against the simulated shared machine of {@link
 * AdaptiveSendPolicyTest} (lognormal noise of 25%, one send in twenty five times slower, a load
 * shared by both arms that steps every 40 sends): tries come at the chance that the challenger is
 * the faster arm, so at a large gap their cost falls with the sends towards the floor of {@link
 * ExplorationBudget#MOST_SENDS_BETWEEN_TRIES}, and a gap that flips is still followed.
 */
class SettledExplorationTest {
    static final long BLOCKS = AdaptiveSendPolicyTest.GATHER_BLOCKS;
    static final double GAP = 1.19; // issue 24's 16 MB indexed rows on the quiet machine

    static Times machine(boolean packFaster, double gap, Random r) {
        double fast = 5_000_000;
        return packFaster ? new Shared(fast, gap * fast, r) : new Shared(gap * fast, fast, r);
    }

    /** The regret of n sends from a fresh policy: sends of the slower arm times the gap, over n. */
    static double cost(boolean packFaster, long seed, int n) {
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        SendStrategy slower = packFaster ? SendStrategy.GATHER : SendStrategy.PACK;
        int[] c = AdaptiveSendPolicyTest.settled(p, machine(packFaster, GAP, new Random(seed)), BLOCKS, n, 0, slower);
        return c[2] * (GAP - 1) / n;
    }

    @Test
    void atALargeKnownGapExploringCostsLessTheLongerTheCellSends() {
        int[] ns = {1000, 4000, 16000};
        double[] mean = new double[ns.length];
        int runs = 0;
        for (boolean packFaster : new boolean[] {true, false}) {
            for (long seed = 0; seed < 5; seed++) {
                for (int i = 0; i < ns.length; i++) {
                    mean[i] += cost(packFaster, seed, ns[i]);
                }
                runs++;
                // each run on its own: under 1% of the time over 16000 sends
                assertThat(cost(packFaster, seed, 16000))
                        .as("pack faster %s seed %d", packFaster, seed)
                        .isLessThan(0.01);
            }
        }
        for (int i = 0; i < ns.length; i++) {
            mean[i] /= runs;
        }
        assertThat(mean[1]).as("mean regret over 4000 sends against 1000").isLessThan(mean[0]);
        assertThat(mean[2]).as("over 16000 against 4000").isLessThan(mean[1]);
        // the rule before, one send in 32 once settled, cost some 0.6% at this gap for ever
        assertThat(mean[2]).as("over 16000 sends").isLessThan(0.003);
    }

    @Test
    void aGapThatFlipsIsFollowedWithinThreeThousandSendsInMostRuns() {
        // counted over 40 runs: under this noise some runs take longer (6 of these 40, and 5-7 in a
        // hundred over 200, whether every send is measured or, once resolved, one in eight); none
        // stays on the old arm
        List<Integer> lasts = new ArrayList<>();
        for (boolean packFaster : new boolean[] {true, false}) {
            for (long seed = 0; seed < 20; seed++) {
                Random r = new Random(seed);
                AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
                SendStrategy before = packFaster ? SendStrategy.PACK : SendStrategy.GATHER;
                SendStrategy after = packFaster ? SendStrategy.GATHER : SendStrategy.PACK;
                AdaptiveSendPolicyTest.settled(p, machine(packFaster, GAP, r), BLOCKS, 8000, 0, after);
                assertThat(p.best(1, TypeShape.LISTED, BLOCKS, AdaptiveSendPolicyTest.BYTES, false))
                        .as("pack faster %s seed %d: settled", packFaster, seed)
                        .isEqualTo(before);
                // the machine changes: the other arm is now 19% faster
                Times flipped = machine(!packFaster, GAP, r);
                int lastOnTheOldArm = -1;
                for (int i = 0; i < 4000; i++) {
                    AdaptiveSendPolicyTest.settled(p, flipped, BLOCKS, 1, 0, before);
                    if (p.best(1, TypeShape.LISTED, BLOCKS, AdaptiveSendPolicyTest.BYTES, false) != after) {
                        lastOnTheOldArm = i;
                    }
                }
                lasts.add(lastOnTheOldArm);
            }
        }
        assertFollowed(lasts, 3000, 5, 1500, 4000);
    }

    /**
     * At most one run in {@code every} still on the old arm at send {@code most}, half the runs off it by
     * {@code median}, and every run off it by the end.
     */
    static void assertFollowed(List<Integer> lasts, int most, int every, int median, int end) {
        Collections.sort(lasts);
        assertThat(lasts.stream().filter(l -> l >= most).count())
                .as("runs whose last send on the old arm is %d or later: %s", most, lasts)
                .isLessThanOrEqualTo(lasts.size() / every);
        assertThat(lasts.get(lasts.size() / 2)).as("the median run: %s", lasts).isLessThan(median);
        assertThat(lasts.get(lasts.size() - 1)).as("the slowest run: %s", lasts).isLessThan(end - 1);
    }

    /** A quiet machine: lognormal noise of 10%, one send in twenty five times slower. */
    record Quiet(double packNs, double gatherNs, Random random) implements Times {
        @Override
        public long time(SendStrategy s) {
            double t = (s == SendStrategy.PACK ? packNs : gatherNs) * Math.exp(0.1 * random.nextGaussian());
            return (long) (random.nextInt(20) == 0 ? 5 * t : t);
        }
    }

    @Test
    void aGapThatFlipsFromFarOnOneSideToALittleOnTheOtherIsFollowedWithinSixHundredSendsInMostRuns() {
        // bench pingpong's one-block 4 MB cell: the index rows settle it on packing, gathering 45%
        // behind; later rows find gathering 13% ahead. Such pairs are no surprise at this spread, and
        // a run of five in a row on the challenger's side came only after a thousand sends or more.
        // Counted over 40 runs: now and then one takes longer (some 5 in a hundred)
        List<Integer> lasts = new ArrayList<>();
        for (long seed = 0; seed < 40; seed++) {
            Random r = new Random(seed);
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            AdaptiveSendPolicyTest.settled(p, new Quiet(5_600_000, 8_100_000, r), BLOCKS, 2000, 0, SendStrategy.GATHER);
            assertThat(p.best(1, TypeShape.LISTED, BLOCKS, AdaptiveSendPolicyTest.BYTES, false))
                    .as("seed %d: settled", seed)
                    .isEqualTo(SendStrategy.PACK);
            Times flipped = new Quiet(6_000_000, 6_000_000 / 1.13, r);
            int lastOnTheOldArm = -1;
            for (int i = 0; i < 2000; i++) {
                AdaptiveSendPolicyTest.settled(p, flipped, BLOCKS, 1, 0, SendStrategy.PACK);
                if (p.best(1, TypeShape.LISTED, BLOCKS, AdaptiveSendPolicyTest.BYTES, false) != SendStrategy.GATHER) {
                    lastOnTheOldArm = i;
                }
            }
            lasts.add(lastOnTheOldArm);
        }
        assertFollowed(lasts, 600, 10, 300, 2000);
    }
}
