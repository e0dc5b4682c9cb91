package dev.layout.transport;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The pack-or-gather choice of {@link SendStrategy#ADAPTIVE} sends, learnt from the sends
 * themselves (Madeleine's lesson, Furmento and Mercier 2005: the best strategy depends on the
 * machine and the message, which a table calibrated elsewhere cannot follow).
 *
 * <p>Per cell (peer, size class of the message's bytes, size class of its contiguous blocks, heap
 * or direct memory: powers of two) a two-armed bandit on the gap between the arms: the incumbent is
 * sent, the other arm (the challenger) is tried at a rate bounded by what trying it costs, and
 * each try is compared with the incumbent's sends around it.
 *
 * <ul>
 *   <li>The signal is what the transport reports to {@link #observe}: what a sampled send cost
 *       end to end (the sender's delay until its frame's header left, plus the receiver's time
 *       from that header to the last byte read, from the receiver's completion report: {@link
 *       CompletionReports}), for eager and rendezvous messages alike. In a ping-pong this is what
 *       the application waits for, one way: at 16 MB the reports of fixed-strategy sends ranked
 *       the arms as the round trips did. The sender's own time is not enough: a gathering write
 *       ends once the socket buffer holds its tail while the receiver still drains it.
 *   <li>Paired comparisons. A shared machine's send times drift (load, the JIT, another job): in
 *       one trace the packing arm was tried four times while the machine was slow, its estimate
 *       then stood 15% above the gathering arm's later, faster times, and the cell gathered for
 *       the rest of the run where packing was 15-25% faster. So arms are not compared by their
 *       own windows of times taken at different moments: each try of the challenger makes a
 *       pair, its log-time minus the median log-time of its {@link #NEIGHBOURS} neighbours, the
 *       other arm's send before it and the two after it (within {@link #PAIR_SPAN} measured
 *       sends), and the gap is estimated from the last {@link #PAIRS} pairs only. A level shared by
 *       both arms cancels out of a pair, and so does a step of the load or a drift, unless it falls
 *       between the try and its neighbours.
 *   <li>Estimate: the gap (log gather time minus log pack time) is the Gaussian posterior of the
 *       model's prior (see below, standard error {@link #MODEL_ERROR}) and the interquartile mean
 *       of the pairs (the middle half: blind to descheduled sends, 50 times slower, and steady
 *       when times fall into two clusters), their spread from their interquartile range, shrunk
 *       towards {@link #PRIOR_SIGMA} while there are few pairs. The incumbent is the arm the
 *       estimate puts lower. Every quantity is a difference of log-times: the rule is the same at
 *       4 KiB and at 16 MB (only {@link #SAMPLE_ALL_NANOS}, the cost of measuring, is absolute).
 *   <li>Exploring: the challenger is tried at a rate such that, at the gap the estimate still
 *       allows at one standard error below its mean, tries cost at most {@link #BUDGET} of the send
 *       time, and at most every other send, while the gap is unresolved (within two standard errors
 *       of zero) and the pairs' window is not full; once it is resolved or the window is full
 *       (more pairs of a full window cannot narrow it), at most {@link #SETTLED_BUDGET} of the
 *       send time and one send in {@link #REFRESH_EVERY}: enough to keep the pairs fresh.
 *       So a near tie is never frozen: it is tried on, each try costing the small gap, and a real
 *       gap of a few percent is resolved as the pairs come in: a 7% gap under a shared machine's
 *       noise (about 30% per pair at 16 MB) takes some 70 pairs, about 150 sends, and costs at
 *       most half the gap meanwhile. Tries are scheduled by a deterministic credit, not drawn at
 *       random. As a hard bound besides, a cell does not explore while its tries have cost more than {@link #BUDGET} of all its send time beyond the incumbent's
 *       level (each try charged the gap its pairs show, not its own noisy time; so an arm 300
 *       times slower is tried only every few thousand sends).
 *   <li>Changes: a pair that finds the challenger faster beyond {@link #SURPRISE} spreads of the
 *       estimate makes the next send try it again; {@link #CONFIRM} such pairs in a row replace
 *       the window by themselves, so a machine whose faster arm changes is followed within a few
 *       tries of the change, even where the old gap was large and tries rare.
 *   <li>Prior: the model's log-cost of each arm plus the wire time ({@link #WIRE_NS_PER_BYTE} per
 *       byte, the same for both arms). A model that calls the arms close (16 MB in three blocks:
 *       the wire dominates) leaves the challenger to be tried at once; one that calls them far apart
 *       (gathering a million 12-byte blocks) does not.
 *   <li>Sampling: measuring a send costs a completion report each way and this bookkeeping, about
 *       a microsecond, some 5% of a 1 KiB round trip on a loaded machine. Every send is measured
 *       where the incumbent's take {@link #SAMPLE_ALL_NANOS} or more; below, the tries, their
 *       neighbours, the incumbent's first {@link #LEVEL} sends and one other send in {@link
 *       #SAMPLE_EVERY}, and while learning at most one send in {@link #CHEAP_TRY_EVERY} tries.
 *       Spans count measured sends.
 * </ul>
 *
 * Why this and not UCB on each arm's times (the policy before): UCB compares the arms' own
 * estimates, which on a drifting machine are estimates of different moments, and its confidence
 * terms grow only with the logarithm of the sends, so an arm once measured slow was not retried
 * within a run. Not Thompson sampling: it would need a noise model of the shared machine's
 * timings. Thread-safe; memory is one small cell per (peer, size class, block class, heap) met.
 */
public final class AdaptiveSendPolicy {
    /** Standard error of the model's predicted log gap between the arms (a factor 1.65 either way). */
    static final double MODEL_ERROR = 0.5;
    /** Spread of a pair assumed before the cell has measured it (about 30%). */
    static final double PRIOR_SIGMA = 0.3;
    /** Least spread of a pair assumed (timers and caches are never exact). */
    static final double MIN_SIGMA = 0.03;
    /** Pairs before they count: one descheduled send must not make an estimate. */
    static final int MIN_PAIRS = 3;
    /** The gap is estimated from this many most recent pairs. */
    static final int PAIRS = 128;
    /** The incumbent's level, for the budget, is the median of its last this many measured sends. */
    static final int LEVEL = 5;
    /**
     * A try is compared with the median of this many sends of the other arm around it, the one
     * before it and the next ones: odd, so that one descheduled send among them does not move it.
     */
    static final int NEIGHBOURS = 3;
    /** Neighbours and tries further apart than this many measured sends of the cell are not paired. */
    static final int PAIR_SPAN = 24;
    /** Most tries waiting for their neighbours at once. */
    static final int PENDING = 8;
    /** Largest share of a cell's send time that exploring may cost beyond the incumbent (and its hard bound). */
    static final double BUDGET = 0.02;
    /** The same once the gap is resolved or the window full: the long-run cost of keeping the pairs fresh. */
    static final double SETTLED_BUDGET = 0.005;
    /** Once the gap is resolved or the window full, at most one send in this many tries the challenger. */
    static final int REFRESH_EVERY = 32;
    /** A gap is resolved when its estimate lies this many standard errors from zero. */
    static final double Z = 2;
    /** A pair this many spreads on the challenger's good side of the estimate is a surprise. */
    static final double SURPRISE = 4;
    /** Surprises in a row that replace the window (the machine changed). */
    static final int CONFIRM = 3;
    /** While the incumbent's sends take less, only one exploitation in {@link #SAMPLE_EVERY} is measured. */
    static final long SAMPLE_ALL_NANOS = 250_000;
    /** See {@link #SAMPLE_ALL_NANOS}. */
    static final int SAMPLE_EVERY = 8;
    /**
     * Where sends take less than {@link #SAMPLE_ALL_NANOS}, at most one send in this many tries the
     * challenger even while learning: each try is measured with its neighbours (four completion
     * reports, some 5% of a 1 KiB round trip each), and a gap too small to resolve quickly costs
     * less than measuring it would.
     */
    static final int CHEAP_TRY_EVERY = 16;
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
     * (whether to ask its receiver for a completion report). True for every exploration and the
     * incumbent's sends next to one (its neighbours), for the incumbent's first {@link #LEVEL}
     * sends, and for every send while the incumbent's sends take {@link #SAMPLE_ALL_NANOS} or more;
     * else for one exploitation in {@link #SAMPLE_EVERY}. A send not sampled still counts towards
     * the exploration budget's base, at the incumbent's level.
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
            double prior = Math.log(Math.max(1, gather)) - Math.log(Math.max(1, pack));
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
     * One cell's bandit: arm 0 PACK, arm 1 GATHER. Per arm its last {@link #LEVEL} log send times;
     * the last {@link #PAIRS} pairs (log gather time minus log pack time, one of them the
     * challenger's send, the other the incumbent's level at the time). The decision is recomputed
     * once per observed send (a few hundred nanoseconds); {@link #choose} only adds to the credit.
     */
    private static final class Cell {
        private final double prior; // the model's log gap, gather minus pack
        private final double[][] level = new double[2][LEVEL];
        private final long[][] levelStamp = new long[2][LEVEL];
        private final int[] n = new int[2]; // measured sends per arm
        private final double[] pairs = new double[PAIRS]; // a ring, in the order they came
        private final double[] sorted =
                new double[PAIRS]; // the window's pairs in order (kept sorted as they come and go)
        private long pairCount; // pairs ever made: the ring's next slot
        private int window; // the most recent pairs that count, <= PAIRS
        private int surprises; // surprising pairs in a row
        private final double[] tryX = new double[PENDING]; // tries waiting for their neighbours, oldest first
        private final int[] tryArm = new int[PENDING];
        private final long[] tryStamp = new long[PENDING];
        private final int[] tryCount = new int[PENDING];
        private final double[][] tryNeighbours = new double[PENDING][NEIGHBOURS];
        private int pending;
        private final double[] scratch = new double[LEVEL];
        private long step; // measured sends
        private double total; // ns of every send (unmeasured ones at the incumbent's level)
        private double measuredExcess; // ns that tries of the challenger took beyond the incumbent's level
        private double triedTime; // the incumbent's level summed over the tries
        private double credit; // tries owed: one is made when it reaches 1
        private int unsampled; // exploitations not measured since the last measured one
        private int best; // the incumbent
        private double gap; // estimated log gap, gather minus pack
        private double error; // its standard error
        private double sigma; // spread of one pair
        private double rate; // tries per send
        private boolean learning; // the gap is unresolved and the window not full: every send is measured
        private double bestTime; // the incumbent's level, ns (0 before it is measured)

        Cell(double prior) {
            this.prior = prior;
            estimate();
            update();
        }

        synchronized int samples(int a) {
            return n[a];
        }

        synchronized int incumbent() {
            return best;
        }

        synchronized int choose() {
            credit = Math.min(credit + rate, 1);
            if (credit >= 1 && !(excess() > BUDGET * total)) {
                credit -= 1;
                return 1 - best;
            }
            return best;
        }

        synchronized boolean sample(int a) {
            // tries, their neighbours (the send before a try and those after it), a level, expensive sends
            if (a != best
                    || n[best] < LEVEL
                    || bestTime >= SAMPLE_ALL_NANOS
                    || pending > 0
                    || credit + rate >= 1
                    || ++unsampled >= SAMPLE_EVERY) {
                unsampled = 0;
                return true;
            }
            total += bestTime;
            return false;
        }

        synchronized void observe(int a, long nanos) {
            double x = Math.log(nanos);
            total += nanos;
            neighbour(a, x);
            if (a != best) {
                double most = bestTime * Math.exp(Math.abs(prior) + 2 * MODEL_ERROR);
                measuredExcess += Math.max(0, Math.min(nanos, most) - bestTime);
                triedTime += bestTime;
                pend(a, x);
            }
            int slot = n[a] % LEVEL;
            level[a][slot] = x;
            levelStamp[a][slot] = step++;
            n[a] = n[a] == Integer.MAX_VALUE ? LEVEL : n[a] + 1;
            update();
        }

        /**
         * What the tries so far cost beyond the incumbent's level, for the hard budget: the
         * incumbent's level at each try times the gap the pairs show (their estimate, or while
         * fewer than MIN_PAIRS their median), not the tries' own times, which are draws of a
         * one-sided noise (a descheduled try takes 50 times a send; at 60 us a send one such try
         * spent a row's budget and stopped a tie's exploring for good). Before the first pair,
         * the tries' times, at most the largest gap the model allows (two of its errors above it).
         */
        private double excess() {
            if (window >= MIN_PAIRS) {
                return triedTime * Math.expm1(Math.abs(gap));
            }
            if (window > 0) {
                double d = median(sorted, window); // sorted stays sorted: median() sorts in place
                return triedTime * Math.expm1(Math.max(0, best == 0 ? d : -d));
            }
            return measuredExcess;
        }

        /**
         * A try of arm a (log-time x) waits for its neighbours: the other arm's last send before it
         * (younger than PAIR_SPAN measured sends) and as many after it as make NEIGHBOURS.
         */
        private void pend(int a, double x) {
            if (pending == PENDING) { // tries in a row with no send of the other arm between: keep the last
                drop(0);
            }
            int b = 1 - a;
            int k = 0;
            for (int j = 0; j < Math.min(n[b], NEIGHBOURS / 2); j++) {
                int slot = (int) ((n[b] - 1 - j) % LEVEL);
                if (step - levelStamp[b][slot] <= PAIR_SPAN) {
                    tryNeighbours[pending][k++] = level[b][slot];
                }
            }
            tryX[pending] = x;
            tryArm[pending] = a;
            tryStamp[pending] = step;
            tryCount[pending] = k;
            pending++;
        }

        /** A send of arm a (log-time x) is a neighbour of the pending tries of the other arm; full ones become pairs. */
        private void neighbour(int a, double x) {
            for (int i = 0; i < pending; ) {
                if (step - tryStamp[i] > PAIR_SPAN) {
                    drop(i);
                } else if (tryArm[i] != a) {
                    double[] nb = tryNeighbours[i];
                    nb[tryCount[i]++] = x;
                    if (tryCount[i] == NEIGHBOURS) {
                        double l = median(nb, NEIGHBOURS);
                        pair(tryArm[i] == 1 ? tryX[i] - l : l - tryX[i]);
                        drop(i);
                    } else {
                        i++;
                    }
                } else {
                    i++;
                }
            }
        }

        /** Removes pending try i, keeping the others in order. */
        private void drop(int i) {
            double[] nb = tryNeighbours[i];
            System.arraycopy(tryX, i + 1, tryX, i, pending - 1 - i);
            System.arraycopy(tryArm, i + 1, tryArm, i, pending - 1 - i);
            System.arraycopy(tryStamp, i + 1, tryStamp, i, pending - 1 - i);
            System.arraycopy(tryCount, i + 1, tryCount, i, pending - 1 - i);
            System.arraycopy(tryNeighbours, i + 1, tryNeighbours, i, pending - 1 - i);
            tryNeighbours[--pending] = nb;
        }

        /** The median of arm a's last LEVEL log-times younger than PAIR_SPAN measured sends; NaN if none. */
        private double recentLevel(int a) {
            int k = 0;
            for (int j = 0; j < Math.min(n[a], LEVEL); j++) {
                int slot = (int) ((n[a] - 1 - j) % LEVEL);
                if (step - levelStamp[a][slot] <= PAIR_SPAN) {
                    scratch[k++] = level[a][slot];
                }
            }
            return k == 0 ? Double.NaN : median(scratch, k);
        }

        /** Adds a pair d (log gather minus log pack), after checking whether it is a surprise. */
        private void pair(double d) {
            boolean challengerFaster = best == 0 ? d < 0 : d > 0;
            boolean surprise = window >= MIN_PAIRS && challengerFaster && Math.abs(d - gap) > SURPRISE * sigma;
            int slot = (int) (pairCount++ % PAIRS);
            if (window == PAIRS) {
                remove(pairs[slot]);
            } else {
                window++;
            }
            pairs[slot] = d;
            insert(d);
            surprises = surprise ? surprises + 1 : 0;
            if (surprises >= CONFIRM) { // the machine changed: the last pairs alone describe it
                window = CONFIRM;
                for (int j = 0; j < CONFIRM; j++) {
                    sorted[j] = pairs[(int) ((pairCount - 1 - j) % PAIRS)];
                }
                java.util.Arrays.sort(sorted, 0, CONFIRM);
                surprises = 0;
            } else if (surprise) {
                credit = 1; // look again at once
            }
            estimate();
        }

        /** Inserts d into sorted[0, window - 1) (window already counts it). */
        private void insert(double d) {
            int at = java.util.Arrays.binarySearch(sorted, 0, window - 1, d);
            at = at < 0 ? -at - 1 : at;
            System.arraycopy(sorted, at, sorted, at + 1, window - 1 - at);
            sorted[at] = d;
        }

        /** Removes one occurrence of d from sorted[0, window). */
        private void remove(double d) {
            int at = java.util.Arrays.binarySearch(sorted, 0, window, d);
            System.arraycopy(sorted, at + 1, sorted, at, window - 1 - at);
        }

        /** The posterior gap from the prior and the window of pairs: recomputed only when a pair comes. */
        private void estimate() {
            double p = 1 / (MODEL_ERROR * MODEL_ERROR);
            gap = prior;
            error = MODEL_ERROR;
            sigma = PRIOR_SIGMA;
            if (window >= MIN_PAIRS) {
                int from = (window + 2) / 4; // the middle half (the median of three)
                int to = window - from;
                double sum = 0;
                for (int i = from; i < to; i++) {
                    sum += sorted[i];
                }
                double mean = sum / (to - from);
                // spread of one pair from the interquartile range (1.349 of them per standard deviation)
                double iqr = sorted[(3 * window) / 4] - sorted[window / 4];
                double spread = Math.max(MIN_SIGMA, iqr / 1.349);
                // few pairs say little about their spread: shrink it towards the prior's (two pseudo-pairs)
                sigma = Math.sqrt((window * spread * spread + 2 * PRIOR_SIGMA * PRIOR_SIGMA) / (window + 2));
                double q = window / (sigma * sigma);
                gap = (p * prior + q * mean) / (p + q);
                error = 1 / Math.sqrt(p + q);
            }
        }

        /** The incumbent, the rate of tries and the incumbent's level (see the class comment). */
        private void update() {
            best = gap < 0 ? 1 : 0;
            learning = Math.abs(gap) <= Z * error && window < PAIRS;
            double l = recentLevel(best);
            bestTime = !Double.isNaN(l) ? Math.exp(l) : n[best] == 0 ? 0 : Math.exp(level[best][(n[best] - 1) % LEVEL]);
            boolean cheap = bestTime > 0 && bestTime < SAMPLE_ALL_NANOS;
            double cap = !learning ? 1.0 / REFRESH_EVERY : cheap ? 1.0 / CHEAP_TRY_EVERY : 0.5;
            double budget = learning ? BUDGET : SETTLED_BUDGET;
            double cost = Math.expm1(Math.max(0, Math.abs(gap) - error));
            rate = cost <= budget / cap ? cap : budget / cost;
        }

        /** The median of the first k values (sorted in place). */
        private static double median(double[] v, int k) {
            java.util.Arrays.sort(v, 0, k);
            return k % 2 == 1 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
        }
    }
}
