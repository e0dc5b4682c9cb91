package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The learning pack-or-gather policy against a simulated cost oracle: send times drawn around a
 * known cost per strategy with heavy-tailed noise (most sends within 10%, one in twenty five times
 * slower, as a descheduled thread makes them): it converges to the faster arm, its exploring costs
 * little whatever the gap and at most its budget against a very slow arm, and it follows a change
 * of the faster arm.
 */
class AdaptiveSendPolicyTest {
    /** A message the model gathers (3 large blocks) and one it packs (many small blocks). */
    static final long GATHER_BLOCKS = 3;

    static final long PACK_BLOCKS = 1 << 20;
    static final long BYTES = 16 << 20;

    /** A simulated machine: the time of one send with a strategy. */
    interface Times {
        long time(SendStrategy s);
    }

    /** Send times of a strategy: mean cost ns, 10% jitter, 5% of the sends 5x slower. */
    record Oracle(double packNs, double gatherNs, Random random) implements Times {
        @Override
        public long time(SendStrategy s) {
            double base = s == SendStrategy.PACK ? packNs : gatherNs;
            double t = base * (0.9 + 0.2 * random.nextDouble());
            return (long) (random.nextInt(20) == 0 ? 5 * t : t);
        }
    }

    /** Runs n sends of one cell; returns the total ns, counts the strategies used in all and in the last quarter. */
    static double run(AdaptiveSendPolicy p, Times o, long blocks, int n, int[] lastQuarter, int[] all) {
        double total = 0;
        for (int i = 0; i < n; i++) {
            SendStrategy s = p.choose(1, TypeShape.LISTED, blocks, BYTES, false);
            long t = o.time(s);
            p.observe(1, TypeShape.LISTED, blocks, BYTES, false, s, t);
            total += t;
            if (lastQuarter != null && i >= n - n / 4) {
                lastQuarter[s.ordinal()]++;
            }
            if (all != null) {
                all[s.ordinal()]++;
            }
        }
        return total;
    }

    /**
     * As {@link #run} but as the transport sends: a send is measured and observed only when the
     * policy samples it. Counts in {@code counts}: [0] sends sampled, [1] explorations (sends of the
     * arm that was not the incumbent), [2] explorations not sampled, [3] sends sampled in the second half.
     */
    static double runSampled(AdaptiveSendPolicy p, Times o, long blocks, int n, int[] all, int[] counts) {
        double total = 0;
        for (int i = 0; i < n; i++) {
            SendStrategy incumbent = p.best(1, TypeShape.LISTED, blocks, BYTES, false);
            SendStrategy s = p.choose(1, TypeShape.LISTED, blocks, BYTES, false);
            boolean sampled = p.sample(1, TypeShape.LISTED, blocks, BYTES, false, s);
            long t = o.time(s);
            if (sampled) {
                p.observe(1, TypeShape.LISTED, blocks, BYTES, false, s, t);
            }
            total += t;
            all[s.ordinal()]++;
            counts[0] += sampled ? 1 : 0;
            counts[1] += s != incumbent ? 1 : 0;
            counts[2] += s != incumbent && !sampled ? 1 : 0;
            counts[3] += sampled && i >= n / 2 ? 1 : 0;
        }
        return total;
    }

    static double run(AdaptiveSendPolicy p, Times o, long blocks, int n, int[] lastQuarter) {
        return run(p, o, blocks, n, lastQuarter, null);
    }

    @Test
    void startsFromTheModelsChoice() {
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        assertThat(p.best(0, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.GATHER);
        assertThat(p.best(0, TypeShape.LISTED, PACK_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.PACK);
        assertThat(p.choose(0, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.GATHER);
    }

    @Test
    void convergesToTheFasterStrategyWhenTheModelIsWrong() {
        // The model gathers 3 large blocks; on this "machine" packing them is 12% faster (issue 24's 4M floats).
        for (long seed = 0; seed < 5; seed++) {
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            Oracle o = new Oracle(7_300_000, 8_200_000, new Random(seed));
            int[] last = new int[3];
            run(p, o, GATHER_BLOCKS, 400, last);
            assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.PACK);
            // settled: the slower arm is only re-checked now and then
            assertThat(last[SendStrategy.GATHER.ordinal()]).as("seed %d", seed).isLessThanOrEqualTo(100 / 5);
        }
    }

    /**
     * A 1 MB rendezvous message as the transport sees it (issue 24's traces, loopback): gathering
     * looks faster to the sender, its write ending ~150 us or ~260 us in (bimodal: whether the
     * receiver drains the socket at once) against ~300 us for packing, while end to end, until the
     * receiver has the last byte, packing takes ~330 us and gathering ~380 us.
     */
    record SplitOracle(Random random) {
        long[] times(SendStrategy s) {
            double jitter = 0.9 + 0.2 * random.nextDouble();
            double slow = random.nextInt(20) == 0 ? 5 : 1;
            double sender = s == SendStrategy.PACK ? 300_000 : random.nextBoolean() ? 150_000 : 260_000;
            double endToEnd = s == SendStrategy.PACK ? 330_000 : 380_000;
            return new long[] {(long) (sender * jitter * slow), (long) (endToEnd * jitter * slow)};
        }
    }

    static final long MB = 1 << 20;

    /** n sends of a 1 MB message in 3 blocks, learning from the sender's time or from late end-to-end reports. */
    static int[] runSplit(AdaptiveSendPolicy p, SplitOracle o, int n, boolean endToEnd, int[] lastQuarter) {
        int[] all = new int[3];
        java.util.ArrayDeque<Object[]> late = new java.util.ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            SendStrategy s = p.choose(1, TypeShape.LISTED, GATHER_BLOCKS, MB, false);
            long[] t = o.times(s);
            all[s.ordinal()]++;
            if (i >= n - n / 4) {
                lastQuarter[s.ordinal()]++;
            }
            if (!endToEnd) {
                p.observe(1, TypeShape.LISTED, GATHER_BLOCKS, MB, false, s, t[0]);
                continue;
            }
            late.add(new Object[] {s, t[1]}); // the report travels with a later frame: 1 to 3 sends late
            while (late.size() > 1 + o.random().nextInt(3)) {
                Object[] r = late.poll();
                p.observe(1, TypeShape.LISTED, GATHER_BLOCKS, MB, false, (SendStrategy) r[0], (Long) r[1]);
            }
        }
        return all;
    }

    @Test
    void learnsTheArmFasterEndToEndWhereTheSendersTimeSaysOtherwise() {
        for (long seed = 0; seed < 5; seed++) {
            // the sender's time alone (the policy's signal before completion reports) settles on gathering
            AdaptiveSendPolicy senderSide = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            runSplit(senderSide, new SplitOracle(new Random(seed)), 400, false, new int[3]);
            assertThat(senderSide.best(1, TypeShape.LISTED, GATHER_BLOCKS, MB, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.GATHER);
            // late end-to-end reports: packing, although the model (3 large blocks) starts from gathering
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            int[] last = new int[3];
            int[] all = runSplit(p, new SplitOracle(new Random(seed)), 400, true, last);
            assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, MB, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.PACK);
            // exploring stays bounded: the slower arm is re-checked now and then, and the whole run's
            // regret (15% per gathering send) stays within a few percent
            assertThat(last[SendStrategy.GATHER.ordinal()]).as("seed %d", seed).isLessThanOrEqualTo(100 / 5);
            assertThat(all[SendStrategy.GATHER.ordinal()] * (380.0 / 330 - 1) / 400)
                    .as("seed %d", seed)
                    .isLessThan(0.03);
        }
    }

    /**
     * A 16 MB rendezvous message in a few blocks, with the two clocks of issue 24's traces (loopback,
     * both on every send): from the data frame's header the receiver missed what the socket took
     * before its reader read the header, some 0.6 ms of a gathering write and 0.17 ms of packed
     * chunks, against 0.3 ms between the arms' times from the receive's clear-to-send. Here packing
     * is 5% faster from the clear-to-send, and the header's clock puts gathering 4% ahead.
     */
    record ClockOracle(Random random) {
        long[] times(SendStrategy s) {
            double jitter = 0.9 + 0.2 * random.nextDouble();
            double slow = random.nextInt(20) == 0 ? 5 : 1;
            boolean pack = s == SendStrategy.PACK;
            double fromClear = pack ? 4_750_000 : 5_000_000;
            double fromHeader = fromClear - (pack ? 170_000 : 600_000);
            return new long[] {(long) (fromHeader * jitter * slow), (long) (fromClear * jitter * slow)};
        }
    }

    @Test
    void learnsTheArmFasterFromTheClearToSendWhereTheReceiversTimeFromTheHeaderSaysOtherwise() {
        for (long seed = 0; seed < 5; seed++) {
            // the reports of earlier rounds (from the header): the model's gathering is never overturned
            AdaptiveSendPolicy fromHeader = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            ClockOracle o = new ClockOracle(new Random(seed));
            run(fromHeader, s -> o.times(s)[0], GATHER_BLOCKS, 400, new int[3]);
            assertThat(fromHeader.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.GATHER);
            // from the clear-to-send: packing, within the budget's regret
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            int[] last = new int[3];
            int[] all = new int[3];
            run(p, s -> o.times(s)[1], GATHER_BLOCKS, 400, last, all);
            assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.PACK);
            assertThat(last[SendStrategy.GATHER.ordinal()]).as("seed %d", seed).isLessThanOrEqualTo(100 / 5);
            assertThat(all[SendStrategy.GATHER.ordinal()] * (5.0 / 4.75 - 1) / 400)
                    .as("seed %d", seed)
                    .isLessThan(0.03);
        }
    }

    @Test
    void keepsARightModelChoiceAndExploresLittle() {
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        Oracle o = new Oracle(8_000_000, 5_000_000, new Random(2));
        int[] last = new int[3];
        run(p, o, GATHER_BLOCKS, 2000, last);
        assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.GATHER);
        assertThat(last[SendStrategy.PACK.ordinal()]).isLessThanOrEqualTo(500 / 50);
    }

    @Test
    void whateverTheGapLearningCostsAtMostAFewPercentOverTheFasterArmAlone() {
        // UCB's bound: a worse arm is played ~ 2 sigma^2 ln W / d^2 times per window, each costing ~d,
        // so the loss is largest for middling gaps and stays a few percent; the model's prior (gather
        // for 3 large blocks) is wrong in half of these cases. The loss is counted on the oracle's mean
        // costs (the regret), free of the noise of the drawn times.
        for (double gap : new double[] {1.02, 1.05, 1.1, 1.2, 1.5, 2, 5}) {
            for (boolean packFaster : new boolean[] {true, false}) {
                for (long seed = 0; seed < 3; seed++) {
                    AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
                    double fast = 5_000_000;
                    Oracle o = packFaster
                            ? new Oracle(fast, gap * fast, new Random(seed))
                            : new Oracle(gap * fast, fast, new Random(seed));
                    int n = 1000;
                    int[] all = new int[3];
                    run(p, o, GATHER_BLOCKS, n, null, all);
                    int slower = all[(packFaster ? SendStrategy.GATHER : SendStrategy.PACK).ordinal()];
                    double regret = slower * (gap - 1) / n;
                    assertThat(regret)
                            .as("gap %s pack faster %s seed %d", gap, packFaster, seed)
                            .isLessThan(0.03);
                }
            }
        }
    }

    @Test
    void explorationCostsAtMostItsBudgetEvenAgainstAnArmHundredsOfTimesSlower() {
        // Gathering a million 4-byte blocks: 300x slower than packing them.
        for (long seed = 0; seed < 5; seed++) {
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            double pack = 1_000_000;
            Oracle o = new Oracle(pack, 300 * pack, new Random(seed));
            int n = 20_000;
            int[] all = new int[3];
            double total = run(p, o, PACK_BLOCKS, n, null, all);
            // A gather costs at least 0.9 * 300 packs; the explorations may cost BUDGET of all the time,
            // overshooting by the one exploration that crossed it.
            int gathers = all[SendStrategy.GATHER.ordinal()];
            assertThat(gathers)
                    .as("seed %d", seed)
                    .isPositive()
                    .isLessThanOrEqualTo(
                            1 + (int) (ExplorationBudget.BUDGET * total / (0.9 * 300 * pack - 1.1 * pack)));
            assertThat(p.best(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.PACK);
        }
    }

    @Test
    void aChoiceTheModelIsSureOfIsNotExploredEarly() {
        // a million 4-byte blocks: the model puts gathering 30x above packing
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        int[] all = new int[3];
        run(p, new Oracle(1_000_000, 300_000_000, new Random(5)), PACK_BLOCKS, 100, null, all);
        assertThat(all[SendStrategy.GATHER.ordinal()]).isZero();
    }

    @Test
    void aChoiceTheModelCallsCloseIsTriedEarly() {
        // 16 MB in 3 blocks: the wire dominates both arms, so the model's preference for gathering is weak
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        int[] all = new int[3];
        run(p, new Oracle(5_000_000, 5_000_000, new Random(6)), GATHER_BLOCKS, 10, null, all);
        assertThat(all[SendStrategy.PACK.ordinal()]).isPositive();
    }

    @Test
    void followsAMachineThatChanges() {
        for (long seed = 0; seed < 5; seed++) {
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            Random r = new Random(seed);
            run(p, new Oracle(5_000_000, 8_000_000, r), GATHER_BLOCKS, 500, null);
            assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.PACK);
            // the load changes: packing is now twice as slow as gathering
            int[] last = new int[3];
            run(p, new Oracle(10_000_000, 5_000_000, r), GATHER_BLOCKS, 400, last);
            assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.GATHER);
            assertThat(last[SendStrategy.GATHER.ordinal()]).as("seed %d", seed).isGreaterThanOrEqualTo(90);
        }
    }

    @Test
    void anArmMeasuredInAnotherEraIsReestimatedWhenRetried() {
        // issue 24's trace, 16 KiB in 100 blocks: packing measured 10x slow before the JIT compiled it,
        // then twice as fast as gathering for good; stale samples must not keep the policy gathering
        long blocks = 100;
        long bytes = 16_400;
        for (long seed = 0; seed < 5; seed++) {
            Random r = new Random(seed);
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            Oracle cold = new Oracle(200_000, 30_000, r);
            Oracle warm = new Oracle(15_000, 30_000, r);
            int[] last = new int[3];
            for (int i = 0; i < 1000; i++) {
                SendStrategy s = p.choose(1, TypeShape.LISTED, blocks, bytes, false);
                p.observe(1, TypeShape.LISTED, blocks, bytes, false, s, (i < 60 ? cold : warm).time(s));
                if (i >= 600) {
                    last[s.ordinal()]++;
                }
            }
            assertThat(p.best(1, TypeShape.LISTED, blocks, bytes, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.PACK);
            assertThat(last[SendStrategy.PACK.ordinal()]).as("seed %d", seed).isGreaterThanOrEqualTo(380);
        }
    }

    @Test
    void aDescheduledSendDoesNotOverturnAChoice() {
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        run(p, new Oracle(5_000_000, 6_000_000, new Random(7)), GATHER_BLOCKS, 300, null);
        assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.PACK);
        for (int i = 0; i < 3; i++) {
            p.observe(
                    1,
                    TypeShape.LISTED,
                    GATHER_BLOCKS,
                    BYTES,
                    false,
                    SendStrategy.PACK,
                    500_000_000L); // 100x: the thread was descheduled
        }
        assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.PACK);
    }

    @Test
    void cellsAreSeparatePerPeerSizeAndBlocks() {
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        run(p, new Oracle(1_000_000, 9_000_000, new Random(4)), GATHER_BLOCKS, 200, null);
        assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.PACK);
        assertThat(p.best(2, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                .as("another peer")
                .isEqualTo(SendStrategy.GATHER);
        assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, 4 * BYTES, false))
                .as("another size class")
                .isEqualTo(SendStrategy.GATHER);
        assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS + 1, BYTES - 1, false))
                .as("same classes")
                .isEqualTo(SendStrategy.PACK);
        assertThat(AdaptiveSendPolicy.sizeClass(1)).isZero();
        assertThat(AdaptiveSendPolicy.sizeClass(1024)).isEqualTo(10);
        assertThat(AdaptiveSendPolicy.sizeClass(1025)).isEqualTo(11);
    }

    @Test
    void onceTheIncumbentIsKnownOnlyExplorationsAndOneCheapExploitationInEightAreMeasured() {
        // 100 us sends, where measuring (about a microsecond) is worth saving; the model is sure of packing
        for (long seed = 0; seed < 5; seed++) {
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            SendStrategy first = p.choose(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false);
            assertThat(p.sample(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false, first))
                    .as("seed %d: the first send, the incumbent's time unknown", seed)
                    .isTrue();
            p.observe(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false, first, 100_000);
            int n = 4000;
            int[] all = new int[3];
            int[] counts = new int[4];
            runSampled(p, new Oracle(100_000, 130_000, new Random(seed)), PACK_BLOCKS, n, all, counts);
            assertThat(counts[2]).as("seed %d: explorations not measured", seed).isZero();
            // counts[1] counts the explorations of the whole run: bounds for the second half's sends
            // (each try is measured with its neighbours, the send before it and those after it)
            assertThat(counts[3])
                    .as("seed %d: sends measured in the second half", seed)
                    .isLessThanOrEqualTo(n / 2 / SendCell.SAMPLE_EVERY + (1 + PairedGap.NEIGHBOURS) * counts[1] + 2)
                    .isGreaterThanOrEqualTo((n / 2 - counts[1]) / SendCell.SAMPLE_EVERY - 2);
            assertThat(p.best(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.PACK);
        }
    }

    @Test
    void aCellIsCheapUntilItsIncumbentsSendsTakeAQuarterMillisecond() {
        // cheap cells' reports count the sender's own time too (TcpTransport.learnt): their messages arrive whole
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        SendCell fast = p.cell(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false);
        SendCell slow = p.cell(2, TypeShape.LISTED, PACK_BLOCKS, BYTES, false);
        assertThat(slow.cheap()).as("not measured yet").isTrue();
        for (int i = 0; i < RecentSends.LEVEL; i++) {
            fast.observe(0, SendCell.EXPENSIVE_NANOS * 9 / 10);
            slow.observe(0, SendCell.EXPENSIVE_NANOS * 11 / 10);
        }
        assertThat(fast.cheap()).isTrue();
        assertThat(slow.cheap()).isFalse();
    }

    @Test
    void expensiveSendsAreMeasuredAroundTriesWhileTheGapIsOpen() {
        // at 1 ms a send and no gap (three blocks of 16 MB, where the model calls the arms close), the
        // gap stays open until the window of pairs is full; only the tries, their neighbours, a level and
        // one exploitation in SAMPLE_EVERY are measured meanwhile (each report costs some 2% of a 1 MB
        // round trip, and a send far from a try makes no pair)
        for (long seed = 0; seed < 5; seed++) {
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            SendCell cell = p.cell(1, TypeShape.LISTED, 3, BYTES, false);
            Times o = new Oracle(1_000_000, 1_000_000, new Random(seed));
            int open = 0;
            int measured = 0;
            int tries = 0;
            for (int i = 0; i < 2000 && (i < RecentSends.LEVEL || cell.learning()); i++) {
                int incumbent = cell.incumbent();
                SendStrategy s = p.choose(1, TypeShape.LISTED, 3, BYTES, false);
                tries += SendCell.arm(s) != incumbent ? 1 : 0;
                open++;
                if (p.sample(1, TypeShape.LISTED, 3, BYTES, false, s)) {
                    measured++;
                    p.observe(1, TypeShape.LISTED, 3, BYTES, false, s, o.time(s));
                }
            }
            assertThat(open).as("seed %d: sends while the gap is open", seed).isGreaterThan(200);
            assertThat(measured)
                    .as("seed %d: sends measured of %d with the gap open, %d tries", seed, open, tries)
                    .isGreaterThanOrEqualTo(tries)
                    .isLessThanOrEqualTo(
                            open / SendCell.SAMPLE_EVERY + (1 + PairedGap.NEIGHBOURS) * tries + RecentSends.LEVEL + 2);
        }
    }

    @Test
    void expensiveSendsResolveAGapAndThenAreMeasuredAsCheapOnes() {
        // at 1 ms a send a 30% gap resolves, to the faster arm; once resolved, reports (2-3% of a 1 MB
        // round trip) are asked for as among cheap sends
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        SendCell cell = p.cell(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false);
        Times o = new Oracle(1_000_000, 1_300_000, new Random(1));
        int sends = 0;
        for (; sends < 4000; sends++) {
            SendStrategy s = p.choose(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false);
            if (p.sample(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false, s)) {
                p.observe(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false, s, o.time(s));
            }
            if (!cell.learning()) {
                break;
            }
        }
        assertThat(sends).as("sends until resolved").isLessThan(4000);
        assertThat(p.best(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false)).isEqualTo(SendStrategy.PACK);
        int after = 2000;
        int measured = 0;
        for (int i = 0; i < after; i++) {
            SendStrategy s = p.choose(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false);
            if (p.sample(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false, s)) {
                measured++;
                p.observe(1, TypeShape.LISTED, PACK_BLOCKS, BYTES, false, s, o.time(s));
            }
        }
        assertThat(measured)
                .as("sends measured of %d once resolved", after)
                .isGreaterThanOrEqualTo(after / SendCell.SAMPLE_EVERY)
                .isLessThan(after / 3);
    }

    @Test
    void measuringFewerSendsDoesNotExploreMoreAndStaysWithinTheBudget() {
        // tries are owed per send, not per measured send: sampling saves measuring, not exploring
        for (long seed = 0; seed < 5; seed++) {
            double pack = 100_000;
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            int[] all = new int[3];
            int[] counts = new int[4];
            double total =
                    runSampled(p, new Oracle(pack, 300 * pack, new Random(seed)), PACK_BLOCKS, 20_000, all, counts);
            assertThat(all[SendStrategy.GATHER.ordinal()])
                    .as("seed %d", seed)
                    .isLessThanOrEqualTo(
                            1 + (int) (ExplorationBudget.BUDGET * total / (0.9 * 300 * pack - 1.1 * pack)));

            int[] measuredAll = new int[3];
            run(
                    new AdaptiveSendPolicy(SendCostModel.DEFAULTS),
                    new Oracle(pack, 1.3 * pack, new Random(seed)),
                    GATHER_BLOCKS,
                    4000,
                    null,
                    measuredAll);
            int[] sampledAll = new int[3];
            int[] sampledCounts = new int[4];
            runSampled(
                    new AdaptiveSendPolicy(SendCostModel.DEFAULTS),
                    new Oracle(pack, 1.3 * pack, new Random(seed)),
                    GATHER_BLOCKS,
                    4000,
                    sampledAll,
                    sampledCounts);
            int slowerMeasured = measuredAll[SendStrategy.GATHER.ordinal()];
            int slowerSampled = sampledAll[SendStrategy.GATHER.ordinal()];
            assertThat(sampledCounts[0]).as("seed %d: sends measured", seed).isLessThan(4000 / 2);
            assertThat(slowerSampled)
                    .as("seed %d: sends of the slower arm, every send measured %d", seed, slowerMeasured)
                    .isLessThanOrEqualTo(slowerMeasured + 10);
            assertThat(slowerSampled * 0.3 / 4000).as("seed %d: regret", seed).isLessThan(0.01);
        }
    }

    @Test
    void measuringFewerSendsStillFollowsAMachineThatChanges() {
        for (long seed = 0; seed < 5; seed++) {
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            Random r = new Random(seed);
            int[] counts = new int[4];
            runSampled(p, new Oracle(5_000_000, 8_000_000, r), GATHER_BLOCKS, 2000, new int[3], counts);
            assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.PACK);
            // the load changes: packing is now twice as slow as gathering; the estimates drift with it
            int[] after = new int[3];
            runSampled(p, new Oracle(10_000_000, 5_000_000, r), GATHER_BLOCKS, 400, after, new int[4]);
            assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.GATHER);
            int[] last = new int[3];
            runSampled(p, new Oracle(10_000_000, 5_000_000, r), GATHER_BLOCKS, 100, last, new int[4]);
            assertThat(last[SendStrategy.GATHER.ordinal()]).as("seed %d", seed).isGreaterThanOrEqualTo(90);
        }
    }

    /** Send times within +-jitter of the mean cost, no outliers (a quiet machine). */
    record Quiet(double packNs, double gatherNs, double jitter, Random random) implements Times {
        @Override
        public long time(SendStrategy s) {
            double base = s == SendStrategy.PACK ? packNs : gatherNs;
            return (long) (base * (1 - jitter + 2 * jitter * random.nextDouble()));
        }
    }

    /**
     * Sends as the transport makes them (measured only when sampled) after the first {@code from}:
     * returns {explorations (sends of the arm that was not the incumbent), changes of the incumbent,
     * sends of the slower arm}, counted from send {@code from} on, over n sends.
     */
    static int[] settled(AdaptiveSendPolicy p, Times o, long blocks, int n, int from, SendStrategy slower) {
        int[] c = new int[3];
        SendStrategy before = p.best(1, TypeShape.LISTED, blocks, BYTES, false);
        for (int i = 0; i < n; i++) {
            SendStrategy incumbent = p.best(1, TypeShape.LISTED, blocks, BYTES, false);
            SendStrategy s = p.choose(1, TypeShape.LISTED, blocks, BYTES, false);
            if (p.sample(1, TypeShape.LISTED, blocks, BYTES, false, s)) {
                p.observe(1, TypeShape.LISTED, blocks, BYTES, false, s, o.time(s));
            }
            if (i >= from) {
                c[0] += s != incumbent ? 1 : 0;
                c[1] += incumbent != before ? 1 : 0;
                c[2] += s == slower ? 1 : 0;
            }
            before = incumbent;
        }
        return c;
    }

    @Test
    void aNearTieIsNotFrozenButTriedOn() {
        // the arms 1% apart under 10% jitter and outliers: the window of pairs barely resolves that, so
        // the challenger is tried on at the chance that it is faster, at most at the settled rate and
        // at least at the floor (each try costing about the gap), never frozen
        for (boolean packFaster : new boolean[] {true, false}) {
            for (long seed = 0; seed < 5; seed++) {
                double fast = 5_000_000;
                Times o = packFaster
                        ? new Oracle(fast, 1.01 * fast, new Random(seed))
                        : new Oracle(1.01 * fast, fast, new Random(seed));
                AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
                int n = 8000;
                int from = 1000;
                SendStrategy slower = packFaster ? SendStrategy.GATHER : SendStrategy.PACK;
                int[] c = settled(p, o, GATHER_BLOCKS, n, from, slower);
                assertThat(c[0])
                        .as("pack faster %s seed %d: explorations after send %d", packFaster, seed, from)
                        .isGreaterThanOrEqualTo((n - from) / ExplorationBudget.MOST_SENDS_BETWEEN_TRIES)
                        .isLessThanOrEqualTo((n - from) * 3 / 2 / ExplorationBudget.REFRESH_EVERY);
                assertThat(c[2] * 0.01 / (n - from))
                        .as("pack faster %s seed %d: loss against the faster arm", packFaster, seed)
                        .isLessThan(0.01);
            }
        }
    }

    @Test
    void aRealGapAboveTheNoiseIsNotTakenForATie() {
        // the same window resolves 4% on a quiet machine (1% jitter): the policy finds the faster arm,
        // where the model (3 large blocks: gather) is wrong and where it is right
        for (boolean packFaster : new boolean[] {true, false}) {
            for (long seed = 0; seed < 5; seed++) {
                double fast = 5_000_000;
                Times o = packFaster
                        ? new Quiet(fast, 1.04 * fast, 0.01, new Random(seed))
                        : new Quiet(1.04 * fast, fast, 0.01, new Random(seed));
                AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
                SendStrategy faster = packFaster ? SendStrategy.PACK : SendStrategy.GATHER;
                int[] c =
                        settled(p, o, GATHER_BLOCKS, 2000, 1000, packFaster ? SendStrategy.GATHER : SendStrategy.PACK);
                assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                        .as("pack faster %s seed %d", packFaster, seed)
                        .isEqualTo(faster);
                assertThat(c[2])
                        .as("pack faster %s seed %d: sends of the slower arm in the second half", packFaster, seed)
                        .isLessThanOrEqualTo(1000 / 20);
            }
        }
    }

    @Test
    void theRuleIsScaleFree() {
        // log-times: the same machine 1000x slower (400 us against 400 ms sends) makes the same
        // choices, and so does a machine twice as slow among cheap sends (10 us against 20 us). Only
        // the cost of measuring is absolute: below EXPENSIVE_NANOS a send's report is worth saving,
        // so cheap sends try more slowly while learning (CHEAP_TRY_EVERY)
        for (long[] scale : new long[][] {{400_000, 1000}, {10_000, 2}}) {
            for (long seed = 0; seed < 5; seed++) {
                Times o = new Oracle(scale[0], 1.05 * scale[0], new Random(seed));
                AdaptiveSendPolicy a = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
                AdaptiveSendPolicy b = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
                for (int i = 0; i < 3000; i++) {
                    SendStrategy x = a.choose(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false);
                    assertThat(b.choose(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                            .as("scale %d seed %d send %d", scale[1], seed, i)
                            .isEqualTo(x);
                    boolean sampled = a.sample(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false, x);
                    assertThat(b.sample(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false, x))
                            .as("scale %d seed %d send %d", scale[1], seed, i)
                            .isEqualTo(sampled);
                    if (sampled) {
                        long t = o.time(x);
                        a.observe(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false, x, t);
                        b.observe(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false, x, t * scale[1]);
                    }
                }
            }
        }
    }

    /**
     * A shared machine as the 16 MB ping-pong traces show it: each send's time log-normal around the
     * arm's cost with a spread of 25%, one in twenty five times slower (descheduled), and a load
     * shared by both arms that changes every 40 sends to 1, 1.3 or 1.6 times the quiet time.
     */
    static final class Shared implements Times {
        private final double packNs;
        private final double gatherNs;
        private final Random random;
        private double load = 1;
        private int sends;

        Shared(double packNs, double gatherNs, Random random) {
            this.packNs = packNs;
            this.gatherNs = gatherNs;
            this.random = random;
        }

        @Override
        public long time(SendStrategy s) {
            if (sends++ % 40 == 0) {
                load = new double[] {1, 1.3, 1.6}[random.nextInt(3)];
            }
            double t = (s == SendStrategy.PACK ? packNs : gatherNs) * load * Math.exp(0.25 * random.nextGaussian());
            return (long) (random.nextInt(20) == 0 ? 5 * t : t);
        }
    }

    @Test
    void convergesOnASevenPercentGapUnderASharedMachinesNoise() {
        // issue 24's 16 MB rows: packing 7% faster (and, the other way round, gathering) under noise
        // four times the gap, with the load moving both arms by up to 60% meanwhile. A window of pairs
        // resolves 7% at about two standard errors, so a run may still settle wrong now and then:
        // counted over 40 runs
        int wrong = 0;
        double slowerShare = 0;
        int runs = 0;
        for (boolean packFaster : new boolean[] {true, false}) {
            for (long seed = 0; seed < 20; seed++) {
                double fast = 7_000_000;
                Times o = packFaster
                        ? new Shared(fast, 1.07 * fast, new Random(seed))
                        : new Shared(1.07 * fast, fast, new Random(seed));
                AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
                SendStrategy slower = packFaster ? SendStrategy.GATHER : SendStrategy.PACK;
                int n = 3000;
                int from = 1000;
                int[] c = settled(p, o, GATHER_BLOCKS, n, from, slower);
                wrong += p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false) == slower ? 1 : 0;
                slowerShare += (double) c[2] / (n - from);
                runs++;
            }
        }
        assertThat(wrong).as("runs ending on the slower arm").isLessThanOrEqualTo(runs / 10);
        // 1 in REFRESH_EVERY tries, and the runs that stayed wrong for a while: a loss of 1% of 7%
        assertThat(slowerShare / runs)
                .as("mean share of the slower arm after send 1000")
                .isLessThan(0.15);
    }

    @Test
    void anArmTriedWhileTheMachineWasSlowIsJudgedAgainstItsNeighbours() {
        // issue 24's trace: packing (15% faster) first tried while the whole machine was 60% slower
        // (the first 40 sends), gathering measured on afterwards in quiet: comparing each arm's own
        // times, packing's few slow ones stood above gathering's later ones and the cell kept gathering
        for (long seed = 0; seed < 5; seed++) {
            Random r = new Random(seed);
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            Oracle slow = new Oracle(1.6 * 6_000_000, 1.6 * 6_900_000, r);
            Oracle quiet = new Oracle(6_000_000, 6_900_000, r);
            int[] last = new int[3];
            for (int i = 0; i < 600; i++) {
                SendStrategy s = p.choose(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false);
                p.observe(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false, s, (i < 40 ? slow : quiet).time(s));
                if (i >= 400) {
                    last[s.ordinal()]++;
                }
            }
            assertThat(p.best(1, TypeShape.LISTED, GATHER_BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.PACK);
            assertThat(last[SendStrategy.PACK.ordinal()]).as("seed %d", seed).isGreaterThanOrEqualTo(180);
        }
    }

    @Test
    void exploringCostsAtMostItsBudgetOnceSettledWhateverTheGap() {
        // regret counted on the oracle's mean costs: the sends of the slower arm times the gap
        // (an arm hundreds of times slower: the hard bound, explorationCostsAtMostItsBudget...).
        // Tries are bounded in every run; the loss of a run that settled wrong for a while (a few
        // in a hundred under this noise, whether every send is measured or one in eight) on average
        for (double gap : new double[] {1.0, 1.03, 1.07, 1.15, 1.5, 3}) {
            double loss = 0;
            int runs = 0;
            for (boolean packFaster : new boolean[] {true, false}) {
                for (long seed = 0; seed < 10; seed++) {
                    double fast = 5_000_000;
                    Times o = packFaster
                            ? new Shared(fast, gap * fast, new Random(seed))
                            : new Shared(gap * fast, fast, new Random(seed));
                    AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
                    SendStrategy slower = packFaster ? SendStrategy.GATHER : SendStrategy.PACK;
                    int n = 4000;
                    int from = 1000;
                    int[] c = settled(p, o, GATHER_BLOCKS, n, from, slower);
                    // the tries' cost, as if every try were of the slower arm
                    assertThat(c[0] * (gap - 1) / (n - from))
                            .as("gap %s pack faster %s seed %d: exploring", gap, packFaster, seed)
                            .isLessThanOrEqualTo(ExplorationBudget.BUDGET);
                    loss += c[2] * (gap - 1) / (n - from);
                    runs++;
                }
            }
            if (gap >= 1.15) { // a gap the pairs resolve: no loss beyond the tries
                assertThat(loss / runs).as("gap %s: mean loss", gap).isLessThanOrEqualTo(ExplorationBudget.BUDGET / 2);
            }
        }
    }

    @Test
    void theBudgetHoldsInTimeWhereSizesMix() {
        // a thousand 1 KiB sends (a 5% gap) per 16 MB send (a 10% gap, near the noise): tries are
        // charged in nanoseconds of their own cell, so the big cell's tries are bounded by the big
        // sends' time, not by a share of the message count that the small ones swell; each try (a
        // send of the arm that was not the incumbent) is charged the gap of the oracles' mean costs
        for (long seed = 0; seed < 6; seed++) {
            Random r = new Random(seed);
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            Oracle big = new Oracle(8_000_000, 8_800_000, r);
            Oracle little = new Oracle(60_000, 63_000, r);
            double[] time = new double[2]; // mean cost of the sends of each size as made
            double[] tries = new double[2]; // what the tries cost beyond the other arm
            int bigTries = 0;
            for (int i = 0; i < 200; i++) {
                for (int j = 0; j < 1001; j++) {
                    int k = j == 0 ? 0 : 1;
                    long blocks = k == 0 ? GATHER_BLOCKS : 1;
                    long bytes = k == 0 ? BYTES : 1024;
                    Oracle o = k == 0 ? big : little;
                    SendStrategy incumbent = p.best(1, TypeShape.LISTED, blocks, bytes, false);
                    SendStrategy s = p.choose(1, TypeShape.LISTED, blocks, bytes, false);
                    if (p.sample(1, TypeShape.LISTED, blocks, bytes, false, s)) {
                        p.observe(1, TypeShape.LISTED, blocks, bytes, false, s, o.time(s));
                    }
                    time[k] += s == SendStrategy.PACK ? o.packNs() : o.gatherNs();
                    if (s != incumbent) {
                        tries[k] += Math.abs(o.packNs() - o.gatherNs());
                        bigTries += k == 0 ? 1 : 0;
                    }
                }
            }
            // at most the budget of the cell's own time, and one try beyond it
            assertThat(tries[0])
                    .as("seed %d: 16 MB cell, %d tries of 200 sends", seed, bigTries)
                    .isLessThanOrEqualTo(ExplorationBudget.BUDGET * time[0] + 800_000);
            assertThat(tries[1])
                    .as("seed %d: 1 KiB cell", seed)
                    .isLessThanOrEqualTo(ExplorationBudget.BUDGET * time[1]);
            // and never frozen: the 1 KiB cell (200000 sends) ends on the faster arm, packing
            assertThat(p.best(1, TypeShape.LISTED, 1, 1024, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.PACK);
        }
    }

    @Test
    void aSendThroughItsCellAllocatesNothing() {
        // the transport looks the cell up once per send and chooses, samples and observes through it
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        Oracle o = new Oracle(60_000, 66_000, new Random(1));
        long[] times = new long[1024];
        for (int i = 0; i < times.length; i++) {
            times[i] = o.time(i % 2 == 0 ? SendStrategy.PACK : SendStrategy.GATHER);
        }
        long before = 0;
        for (int i = 0; i < 40_000; i++) {
            if (i == 20_000) { // settled; the first half also warms the code up
                before = threads.getCurrentThreadAllocatedBytes();
            }
            SendCell c = p.cell(1, TypeShape.LISTED, 10, 16400, false);
            int a = c.choose();
            if (c.sample(a)) {
                c.observer(a).accept(times[i & 1023] + (a == 1 ? 6_000 : 0));
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated by 20000 sends").isLessThan(2_000);
        assertThat(p.best(1, TypeShape.LISTED, 10, 16400, false)).isEqualTo(SendStrategy.PACK);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> new AdaptiveSendPolicy(null)).hasMessageContaining("model null");
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        assertThatThrownBy(() -> p.observe(0, TypeShape.LISTED, 1, 1, false, SendStrategy.ADAPTIVE, 1))
                .hasMessageContaining("used ADAPTIVE (expected: PACK or GATHER)");
        assertThatThrownBy(() -> p.sample(0, TypeShape.LISTED, 1, 1, false, null))
                .hasMessageContaining("sample: used null");
    }
}
