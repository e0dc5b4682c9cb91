package dev.layout.transport;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The pack-or-gather choice of {@link SendStrategy#ADAPTIVE} sends, learnt from the sends
 * themselves (Madeleine's lesson, Furmento and Mercier 2005: the best strategy depends on the
 * machine and the message, which a table calibrated elsewhere cannot follow).
 *
 * <p>Per cell (peer, size class of the message's bytes, size class of its contiguous blocks, heap
 * or direct memory: powers of two) a two-armed bandit: discounted UCB (Garivier and Moulines 2011)
 * on the logarithm of the send time, with a prior from the {@link SendCostModel}.
 *
 * <ul>
 *   <li>The signal is what the transport reports to {@link #observe}: what a sampled send cost
 *       end to end (the sender's delay until its frame's header left, plus the receiver's time
 *       from that header to the last byte read, from the receiver's completion report: {@link
 *       CompletionReports}), for eager and rendezvous messages alike (an eager message's unpack at
 *       its receive copies the same contiguous bytes whichever strategy sent it, so it adds noise
 *       and no signal). The sender's own time is not enough: a gathering write
 *       ends once the socket buffer holds its tail while the receiver still drains it, so gathering
 *       1 MB looked twice as fast as packing it (~150-320 us, bimodal, against ~300 us) when end
 *       to end it was 10-15% faster. Reports may arrive late (with the receiver's next frame); a
 *       decision uses the ones in.
 *   <li>Log-time: costs are multiplicative (a slower arm is "15% slower" at every size within a
 *       cell). An arm's estimate is the mean of the second quarter (ranks 25% to 50%) of its last
 *       {@link #WINDOW} log-times younger than {@link #STALE_AFTER} sends of the cell (at least its
 *       last {@link #MIN_SAMPLES}), the spread the pooled median absolute deviation. A shared
 *       machine's noise is one-sided and bursty: a descheduled send takes 50 times longer, and
 *       several may come in a row; a mean follows them, and so does an interquartile mean once a
 *       burst fills a quarter of the window, while this estimate ignores up to half of it. Unlike
 *       a median or a minimum it stays steady when times fall into two clusters (the receiver
 *       draining the socket at once or not). An arm with fewer than {@link #MIN_SAMPLES} samples
 *       is estimated from the prior.
 *   <li>Prior: the model's log-cost of each arm plus the wire time ({@link #WIRE_NS_PER_BYTE} per
 *       byte, the same for both arms), with a standard error of {@link #MODEL_ERROR}, placed
 *       relative to the measured level of the cell (the model predicts ratios, not the absolute
 *       times of this machine). So before any measurement the model's choice is taken; an arm never
 *       measured is estimated at the model's ratio to the measured one; a model that calls the
 *       arms close (16 MB in three blocks: the wire dominates) leaves both to be tried early, one
 *       that calls them far apart (gathering a million 12-byte blocks) does not.
 *   <li>Choice: the arm with the lower index {@code mean - sqrt(2 ln N * variance)}: the Gaussian
 *       posterior of each arm's mean log-time (prior precision {@code 1 / MODEL_ERROR^2}, sample
 *       precision {@code 1 / sigma^2} per unit of sample weight), N the cell's sample weight. A
 *       sample's weight, and the prior's, decays by {@link #DISCOUNT} per observed send of the
 *       cell, so an arm left alone becomes uncertain again and is retried, and a window of
 *       recent samples follows a machine whose load changes (sliding-window and discounted UCB).
 *   <li>Near ties. Once both arms' windows hold at least half of {@link #WINDOW} fresh samples and
 *       their estimates differ by less than the windows can resolve (two standard errors of the
 *       difference, from the pooled spread of log-times) and less than
 *       {@link #NEAR_TIE} (5%), the cell stops exploring and keeps its incumbent: more samples of a
 *       window this size would not tell the arms apart, and staying with either loses less than
 *       the tie. The other arm's samples then age; once they go stale (after {@link #STALE_AFTER}
 *       measured sends) it is retried until its window is full again, so a tie costs about
 *       {@link #WINDOW} sends at most the gap per {@link #STALE_AFTER} measured ones. A gap beyond
 *       the noise's resolution is pursued as before. Every comparison is of log-times, so the rule
 *       is the same at 4 KiB and at 16 MB.
 *   <li>Exploration cost. UCB plays an arm that is worse by a log-gap d about {@code 2 sigma^2 ln
 *       W / d^2} times per window of W sends, each costing about d, so exploring costs at most
 *       about {@code sigma * sqrt(2 ln W / W)} of the send time (a few percent for the constants
 *       here) whatever the gap; as a hard bound besides, a cell does not explore while its
 *       explorations have cost more than {@link #BUDGET} of all its send time beyond the
 *       incumbent's estimate (so an arm 300 times slower is retried only every few thousand sends).
 *   <li>Sampling. Learning has a cost per send (a completion report each way, this bookkeeping),
 *       so once the incumbent's window holds {@link #WINDOW} fresh samples only one of its sends in
 *       {@link #SAMPLE_EVERY} is measured ({@link #sample}); explorations always are. Ages and the
 *       discount count measured sends, so the other arm is retried that many times less often per
 *       send: exploring costs about that much less, and a change of the faster arm is followed
 *       that many sends later (tests: {@code AdaptiveSendPolicyTest}).
 * </ul>
 *
 * Why UCB and not epsilon-greedy or Thompson sampling: UCB explores only while the estimates
 * overlap, which is what bounds its cost by the gap, and it is deterministic (testable); Thompson
 * sampling would need a noise model of the shared machine's timings. Thread-safe; memory is one
 * small cell per (peer, size class, block class, heap) met.
 */
public final class AdaptiveSendPolicy {
    /** Initial weight of the model's prior (it fades with {@link #DISCOUNT} like a sample). */
    static final double PRIOR_WEIGHT = 1;
    /** The prior never fades below this weight: an arm never measured keeps the model's estimate. */
    static final double MIN_PRIOR_WEIGHT = 1e-3;
    /** Standard error of the model's log-costs (a factor 1.65 either way at one standard deviation). */
    static final double MODEL_ERROR = 0.5;
    /** Spread of log send times assumed before the cell has measured it (about 30%). */
    static final double PRIOR_SIGMA = 0.3;
    /** Least spread of log send times assumed (timers and caches are never exact). */
    static final double MIN_SIGMA = 0.03;
    /** Samples an arm needs before its estimate counts: one descheduled send must not make an estimate. */
    static final int MIN_SAMPLES = 3;
    /** Recent samples per arm from which its estimate is taken. */
    static final int WINDOW = 15;
    /** Decay of every weight per observed send of the cell: old samples fade over about 200 sends. */
    static final double DISCOUNT = 0.995;
    /**
     * Age (in observed sends of the cell) from which a sample no longer counts, about the discount's
     * horizon: an arm left alone is estimated afresh when retried (from that send and its last two),
     * not from a window of times of another era (in one trace the packing arm's window still held times from before the JIT had
     * compiled it, 10 times too slow, and the policy gathered for 600 sends where packing was twice
     * as fast).
     */
    static final int STALE_AFTER = 200;
    /**
     * Once the incumbent's window holds {@link #WINDOW} fresh samples, one of its sends in this many
     * is measured (explorations always are): measuring a send costs a completion report end to end
     * and the policy's bookkeeping, and the samples' ages count measured sends, so the other arm is
     * retried about this many times less often (exploring costs less, and a change of the faster arm
     * is followed that many sends later).
     */
    static final int SAMPLE_EVERY = 8;
    /**
     * Largest log-gap (about 5%) the cell may treat as a tie (see the class comment): keeping the
     * incumbent loses at most this much per send, where exploring a tie would not resolve it.
     */
    static final double NEAR_TIE = Math.log(1.05);
    /** Largest share of a cell's send time that exploring may cost beyond the incumbent. */
    static final double BUDGET = 0.05;
    /**
     * Wire time per byte added to both arms' model costs (loopback on the development machine; a
     * slower network makes the arms closer, so the prior only becomes less sure).
     */
    static final double WIRE_NS_PER_BYTE = 0.3;

    private final SendCostModel model;
    private final ConcurrentHashMap<Long, Cell> cells = new ConcurrentHashMap<>();

    public AdaptiveSendPolicy(SendCostModel model) {
        if (model == null) {
            throw new IllegalArgumentException("adaptiveSendPolicy: model null (expected: a SendCostModel)");
        }
        this.model = model;
    }

    /** The strategy for the next message to {@code peer} of {@code bytes} bytes in {@code blocks} contiguous blocks. */
    public SendStrategy choose(int peer, long blocks, long bytes, boolean heap) {
        return arm(cell(peer, blocks, bytes, heap).choose());
    }

    /**
     * Whether the send just chosen with {@code used} is to be measured and {@link #observe observed}
     * (for a rendezvous send: whether to ask its receiver for a completion report). True for every
     * exploration and for every send while the incumbent's estimate is not yet made of {@link
     * #WINDOW} fresh samples; then for one exploitation in {@link #SAMPLE_EVERY}. A send not sampled
     * still counts towards the exploration budget's base, at the incumbent's estimated time.
     */
    public boolean sample(int peer, long blocks, long bytes, boolean heap, SendStrategy used) {
        if (used != SendStrategy.PACK && used != SendStrategy.GATHER) {
            throw new IllegalArgumentException("sample: used " + used + " (expected: PACK or GATHER)");
        }
        return cell(peer, blocks, bytes, heap).sample(used == SendStrategy.PACK ? 0 : 1);
    }

    /** Records that a send chosen by {@link #choose} with these arguments took {@code nanos} with {@code used}. */
    public void observe(int peer, long blocks, long bytes, boolean heap, SendStrategy used, long nanos) {
        if (used != SendStrategy.PACK && used != SendStrategy.GATHER) {
            throw new IllegalArgumentException("observe: used " + used + " (expected: PACK or GATHER)");
        }
        cell(peer, blocks, bytes, heap).observe(used == SendStrategy.PACK ? 0 : 1, Math.max(1, nanos));
    }

    /** The current incumbent (lower estimate) for such a message, without counting a decision or exploring. */
    public SendStrategy best(int peer, long blocks, long bytes, boolean heap) {
        return arm(cell(peer, blocks, bytes, heap).incumbent());
    }

    /** How many sends of such a message with {@code used} have been observed (for tests). */
    int observed(int peer, long blocks, long bytes, boolean heap, SendStrategy used) {
        return cell(peer, blocks, bytes, heap).samples(used == SendStrategy.PACK ? 0 : 1);
    }

    private Cell cell(int peer, long blocks, long bytes, boolean heap) {
        long key = ((long) peer << 32)
                | ((long) sizeClass(bytes) << 16)
                | ((long) sizeClass(blocks) << 1)
                | (heap ? 1 : 0);
        Cell c = cells.get(key);
        if (c == null) {
            double wire = WIRE_NS_PER_BYTE * bytes;
            double pack = model.packCost(blocks, bytes) + wire;
            double gather = model.gatherCost(blocks, bytes, heap) + wire;
            // where the model packs (always below minGatherBytes, where gathering is a syscall per batch
            // for nothing), gathering starts at least 25% behind even when the wire time dominates both
            if (model.choose(blocks, bytes, heap) == SendStrategy.PACK) {
                gather = Math.max(gather, pack * 1.25);
            }
            double[] prior = {Math.log(Math.max(1, pack)), Math.log(Math.max(1, gather))};
            c = cells.computeIfAbsent(key, k -> new Cell(prior));
        }
        return c;
    }

    /** ceil(log2(v)) for v >= 1, 0 below: messages within a factor of two share a cell. */
    static int sizeClass(long v) {
        return v <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(v - 1);
    }

    private static SendStrategy arm(int a) {
        return a == 0 ? SendStrategy.PACK : SendStrategy.GATHER;
    }

    /**
     * One cell's bandit: arm 0 PACK, arm 1 GATHER. Per arm the last {@link #WINDOW} log send times;
     * an arm's estimate is the mean of their second quarter, its sample weight the sum of {@code DISCOUNT^age} over
     * them. The decision is recomputed once per observed send (a few hundred nanoseconds) and
     * {@link #choose} only reads it: the policy must cost nothing next to a 4 KiB message.
     */
    private static final class Cell {
        private final double[] prior; // model log-costs: only their difference matters
        private final double[][] recent = new double[2][WINDOW];
        private final long[][] stamp = new long[2][WINDOW];
        private final int[] n = new int[2]; // samples ever taken per arm
        private final int[] fresh = new int[2]; // the most recent samples of each arm younger than STALE_AFTER
        private final double[] w = new double[2]; // discounted weight of each arm's fresh samples
        private final double[] med = new double[2]; // the estimate: lower-middle mean log-time of each arm's window
        private final double[] mad = new double[2]; // median absolute deviation of each arm's window
        private final double[] scratch = new double[WINDOW];
        private final double[] window = new double[WINDOW];
        private double priorWeight = PRIOR_WEIGHT;
        private long step; // observed sends
        private double total; // ns of every observed send
        private double excess; // ns that explorations cost beyond the incumbent's estimate
        private int best; // the incumbent: the arm with the lower estimated mean, kept through a near tie
        private int pick; // the arm with the lower confidence index
        private double bestTime; // the incumbent's estimated time, ns
        private int unsampled; // exploitations not measured since the last measured one
        private final double[] weight = new double[2]; // update()'s working arrays: observe allocates nothing
        private final double[] mean = new double[2];
        private final double[] index = new double[2];

        Cell(double[] prior) {
            this.prior = prior.clone();
            update();
        }

        /**
         * The samples arm a's estimate is taken from: its fresh ones, and at least its last {@link
         * #MIN_SAMPLES} (a stale arm, retried once, is estimated from that send and its last others,
         * at the weight of the fresh ones only, so one retry moves it and costs one send).
         */
        private int size(int a) {
            return Math.min(Math.max(fresh[a], MIN_SAMPLES), Math.min(n[a], WINDOW));
        }

        synchronized int samples(int a) {
            return n[a];
        }

        synchronized int incumbent() {
            return best;
        }

        synchronized int choose() {
            return pick != best && excess > BUDGET * total ? best : pick;
        }

        synchronized boolean sample(int a) {
            if (a != best || fresh[a] < WINDOW || ++unsampled >= SAMPLE_EVERY) {
                unsampled = 0;
                return true;
            }
            total += bestTime;
            return false;
        }

        synchronized void observe(int a, long nanos) {
            if (a != best) {
                excess += Math.max(0, nanos - bestTime);
            }
            total += nanos;
            for (int i = 0; i < 2; i++) {
                w[i] *= DISCOUNT;
            }
            priorWeight = Math.max(MIN_PRIOR_WEIGHT, priorWeight * DISCOUNT);
            int slot = n[a] % WINDOW;
            if (n[a] >= WINDOW && fresh[a] == WINDOW) { // the sample it replaces still counted
                w[a] = Math.max(0, w[a] - Math.pow(DISCOUNT, step - stamp[a][slot]));
            }
            recent[a][slot] = Math.log(nanos);
            stamp[a][slot] = step++;
            w[a] += 1;
            n[a] = n[a] == Integer.MAX_VALUE ? WINDOW : n[a] + 1;
            fresh[a] = Math.min(fresh[a] + 1, WINDOW);
            for (int i = 0; i < 2; i++) {
                boolean changed = i == a;
                while (fresh[i] > 0) { // the oldest samples still counted, in the order they came
                    int oldest = (int) ((n[i] - fresh[i]) % WINDOW);
                    long age = step - 1 - stamp[i][oldest];
                    if (age < STALE_AFTER) {
                        break;
                    }
                    w[i] = Math.max(0, w[i] - Math.pow(DISCOUNT, age));
                    fresh[i]--;
                    changed = true;
                }
                if (changed) {
                    estimate(i);
                }
            }
            update();
        }

        /** Arm a's estimate (lower-middle mean) and spread (median absolute deviation) from its last size(a) samples. */
        private void estimate(int a) {
            int k = size(a);
            for (int j = 0; j < k; j++) {
                window[j] = recent[a][(int) ((n[a] - 1 - j) % WINDOW)];
            }
            System.arraycopy(window, 0, scratch, 0, k);
            java.util.Arrays.sort(scratch, 0, k);
            med[a] = lowerMiddleMean(scratch, k);
            double m = k % 2 == 1 ? scratch[k / 2] : (scratch[k / 2 - 1] + scratch[k / 2]) / 2;
            for (int i = 0; i < k; i++) {
                scratch[i] = Math.abs(window[i] - m);
            }
            java.util.Arrays.sort(scratch, 0, k);
            mad[a] = k % 2 == 1 ? scratch[k / 2] : (scratch[k / 2 - 1] + scratch[k / 2]) / 2;
        }

        /** The mean of the second quarter of the k sorted values (ranks k/4 to the median). */
        private static double lowerMiddleMean(double[] sorted, int k) {
            int from = k / 4;
            int to = Math.max(from + 1, (k + 1) / 2);
            double sum = 0;
            for (int i = from; i < to; i++) {
                sum += sorted[i];
            }
            return sum / (to - from);
        }

        /**
         * The Gaussian posterior of each arm's mean log-time (the prior placed at the cell's measured
         * level, and the arm's lower-middle mean if it has {@link #MIN_SAMPLES} samples), then the incumbent and
         * the arm of the lower confidence index.
         */
        private void update() {
            boolean anyMeasured = size(0) >= MIN_SAMPLES || size(1) >= MIN_SAMPLES;
            weight[0] = 0;
            weight[1] = 0;
            double level = 0;
            double levelWeight = 0;
            int k = 0;
            double madSum = 0;
            for (int a = 0; a < 2; a++) {
                if (size(a) == 0) {
                    continue;
                }
                if (size(a) >= MIN_SAMPLES) {
                    weight[a] = w[a];
                }
                if (size(a) >= MIN_SAMPLES || !anyMeasured) {
                    double lw = Math.max(weight[a], 1e-9);
                    level += lw * (med[a] - prior[a]);
                    levelWeight += lw;
                }
                k += size(a);
                madSum += size(a) * mad[a];
            }
            level = levelWeight == 0 ? 0 : level / levelWeight;
            // spread of one log-time: 1.4826 times the median absolute deviation, pooled
            double sigma = k < MIN_SAMPLES ? PRIOR_SIGMA : Math.max(MIN_SIGMA, 1.4826 * madSum / k);
            double p = priorWeight / (MODEL_ERROR * MODEL_ERROR);
            double log = 2 * Math.log(Math.max(Math.E, 2 + weight[0] + weight[1]));
            for (int a = 0; a < 2; a++) {
                double q = weight[a] / (sigma * sigma);
                mean[a] = (p * (prior[a] + level) + q * med[a]) / (p + q);
                index[a] = mean[a] - Math.sqrt(log / (p + q));
            }
            // a near tie keeps the incumbent and stops exploring: see the class comment
            boolean tied = fresh[0] >= WINDOW / 2
                    && fresh[1] >= WINDOW / 2
                    && Math.abs(mean[0] - mean[1])
                            < Math.min(NEAR_TIE, 2 * sigma * Math.sqrt(1 / weight[0] + 1 / weight[1]));
            if (!tied) {
                best = mean[0] <= mean[1] ? 0 : 1;
            }
            pick = tied ? best : index[0] <= index[1] ? 0 : 1;
            bestTime = Math.exp(mean[best]);
        }
    }
}
