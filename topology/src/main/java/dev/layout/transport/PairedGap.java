package dev.layout.transport;

import java.util.Arrays;

/**
 * The estimated gap between the two arms of one {@link SendCell}: log gather time minus log pack
 * time, learnt from paired comparisons. A shared machine's send times drift (load, the JIT, another
 * job): in one trace the packing arm was tried four times while the machine was slow, its estimate
 * then stood 15% above the gathering arm's later, faster times, and the cell gathered for the rest
 * of the run where packing was 15-25% faster. So the arms are not compared by their own times taken
 * at different moments: each try of the challenger makes a pair, its log-time minus the median of
 * its {@link #NEIGHBOURS} neighbours, the other arm's send before it and the next ones (within
 * {@link #PAIR_SPAN} measured sends). A level shared by both arms cancels out of a pair, and so
 * does a step of the load or a drift, unless it falls between the try and its neighbours.
 *
 * <p>The estimate is the Gaussian posterior of the model's prior (standard error {@link
 * #MODEL_ERROR}) and the interquartile mean of the last {@link #PAIRS} pairs (the middle half:
 * blind to descheduled sends, 50 times slower, and steady when times fall into two clusters), their
 * spread from their interquartile range, shrunk towards {@link #PRIOR_SIGMA} while there are few.
 * A pair {@link #SURPRISE} spreads on the challenger's good side of the estimate asks for another
 * try at once; {@link #CONFIRM} such pairs in a row replace the window (the machine changed). So
 * does a run of {@link #OVERTURN} pairs merely on the challenger's side of zero once the estimate is
 * resolved (a gap that flipped, however small), and so does a drift statistic of the pairs against a
 * resolved estimate reaching {@link #DRIFT_LIMIT} (a gap that moved a few spreads, from far on one
 * side to a little on the other: such pairs are neither surprises nor, by noise, five in a row),
 * each pair on the challenger's side of zero asking for another try at once: tries are rare by then
 * ({@link ExplorationBudget}), and the window of old pairs would take half its length to turn. Not
 * thread-safe: the cell's lock guards it.
 */
final class PairedGap {
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
    /**
     * A try is compared with the median of this many sends of the other arm around it, the one
     * before it and the next ones: odd, so that one descheduled send among them does not move it.
     */
    static final int NEIGHBOURS = 3;
    /** Neighbours and tries further apart than this many measured sends of the cell are not paired. */
    static final int PAIR_SPAN = 24;
    /** Most tries waiting for their neighbours at once. */
    static final int PENDING = 8;
    /** A pair this many spreads on the challenger's good side of the estimate is a surprise. */
    static final double SURPRISE = 4;
    /** Surprises in a row that replace the window (the machine changed). */
    static final int CONFIRM = 3;
    /**
     * The shift a pair's drift statistic looks for, in spreads: each pair adds how many spreads it
     * lies on the challenger's good side of the estimate, less this ({@link #DRIFT_LIMIT}).
     */
    static final double DRIFT_SLACK = 1;
    /** Most spreads one pair adds to the drift statistic: a descheduled send is one pair, not a flip. */
    static final double DRIFT_STEP = 3;
    /**
     * The drift statistic (a one-sided CUSUM, Page 1954, of the pairs against a resolved estimate,
     * towards the challenger) that replaces the window: under a steady gap each pair adds a standard
     * normal less {@link #DRIFT_SLACK}, so it seldom climbs this far; after the gap moved two spreads or more towards the challenger it climbs some
     * spreads a pair and gets there within a few tries, each of which asks for the next at once.
     * Unlike a count of pairs in a row ({@link #OVERTURN}), one noisy pair does not start it over.
     */
    static final double DRIFT_LIMIT = 6;
    /**
     * Pairs in a row on the challenger's side of an estimate resolved against it that replace the
     * window: under a steady gap of two standard errors or more such a run is rare (each pair falls
     * there only by noise, so five in a row are the product of five such chances), after a flip it
     * comes within a few tries, each of which asks for the next at once. It catches a gap that flipped
     * by less than the drift statistic looks for (a spread or two), in a run of quiet pairs.
     */
    static final int OVERTURN = 5;

    private final double prior; // the model's log gap, gather minus pack
    private final double[] pairs = new double[PAIRS]; // a ring, in the order they came
    private final double[] sorted = new double[PAIRS]; // the window's pairs in order (kept sorted as they come and go)
    private long pairCount; // pairs ever made: the ring's next slot
    private int window; // the most recent pairs that count, <= PAIRS
    private int surprises; // surprising pairs in a row
    private int contradictions; // pairs in a row on the challenger's side of a resolved estimate
    private double drift; // the drift statistic (see DRIFT_LIMIT) of the pairs since the estimate was resolved
    private int drifting; // pairs since the drift statistic was last 0
    private final double[] tryX = new double[PENDING]; // tries waiting for their neighbours, oldest first
    private final int[] tryArm = new int[PENDING];
    private final long[] tryStamp = new long[PENDING];
    private final int[] tryCount = new int[PENDING];
    private final double[][] tryNeighbours = new double[PENDING][NEIGHBOURS];
    private int pending;
    private double gap; // estimated log gap, gather minus pack
    private double error; // its standard error
    private double sigma; // spread of one pair

    PairedGap(double prior) {
        this.prior = prior;
        estimate();
    }

    double prior() {
        return prior;
    }

    /** The estimated log gap, gather minus pack. */
    double gap() {
        return gap;
    }

    /** The standard error of {@link #gap()}. */
    double error() {
        return error;
    }

    /** Pairs in the window. */
    int window() {
        return window;
    }

    /** The spread (standard deviation) of one pair, as the window shows it. */
    double spread() {
        return sigma;
    }

    /** Pairs ever made, the window's and those it dropped. */
    long made() {
        return pairCount;
    }

    /** Whether tries wait for neighbours (the next sends of the other arm are to be measured). */
    boolean pending() {
        return pending > 0;
    }

    /**
     * The chance, under the estimate's Gaussian posterior, that the arm it puts behind is in fact the
     * faster: Phi(-|gap| / error); 1 before {@link #MIN_PAIRS} pairs, while the estimate is the
     * model's alone (what a wrong model costs is bounded by the budget, not by its own confidence).
     */
    double challengerChance() {
        return window < MIN_PAIRS ? 1 : upperTail(Math.abs(gap) / error);
    }

    /** 1 - Phi(z) for z >= 0, the standard normal's upper tail (Abramowitz and Stegun 7.1.26: within 1e-7). */
    static double upperTail(double z) {
        double x = z / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
        return 0.5 * poly * Math.exp(-x * x);
    }

    /**
     * The log gap by which the challenger of {@code best} is slower, as the pairs show it (their
     * estimate, or while fewer than MIN_PAIRS their median, at least 0); NaN before the first pair.
     */
    double challengerLoss(int best) {
        if (window >= MIN_PAIRS) {
            return Math.abs(gap);
        }
        if (window > 0) {
            double d = RecentSends.median(sorted, window); // sorted stays sorted
            return Math.max(0, best == 0 ? d : -d);
        }
        return Double.NaN;
    }

    /**
     * A try of arm a (log-time x, at measured send {@code step}) waits for its neighbours: the other
     * arm's last send before it (younger than PAIR_SPAN measured sends) and as many after it as make
     * NEIGHBOURS.
     */
    void pend(int a, double x, RecentSends recent) {
        if (pending == PENDING) { // tries in a row with no send of the other arm between: keep the last
            drop(0);
        }
        tryCount[pending] = recent.youngest(1 - a, NEIGHBOURS / 2, PAIR_SPAN, tryNeighbours[pending]);
        tryX[pending] = x;
        tryArm[pending] = a;
        tryStamp[pending] = recent.step();
        pending++;
    }

    /**
     * A send of arm a (log-time x, at measured send {@code step}) is a neighbour of the pending tries
     * of the other arm; full ones become pairs, judged against incumbent {@code best}. Returns
     * whether a surprising pair asks for another try at once.
     */
    boolean neighbour(int a, double x, long step, int best) {
        boolean again = false;
        for (int i = 0; i < pending; ) {
            if (step - tryStamp[i] > PAIR_SPAN) {
                drop(i);
            } else if (tryArm[i] != a) {
                double[] nb = tryNeighbours[i];
                nb[tryCount[i]++] = x;
                if (tryCount[i] == NEIGHBOURS) {
                    double l = RecentSends.median(nb, NEIGHBOURS);
                    again |= pair(tryArm[i] == 1 ? tryX[i] - l : l - tryX[i], best);
                    drop(i);
                } else {
                    i++;
                }
            } else {
                i++;
            }
        }
        return again;
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

    /** Adds a pair d (log gather minus log pack); returns whether it is a lone surprise (look again at once). */
    private boolean pair(double d, int best) {
        boolean challengerFaster = best == 0 ? d < 0 : d > 0;
        boolean surprise = window >= MIN_PAIRS && challengerFaster && Math.abs(d - gap) > SURPRISE * sigma;
        // a pair against an estimate resolved so far: tries are rare by then, so look again at once
        boolean resolved = window >= MIN_PAIRS && Math.abs(gap) > SendCell.Z * error;
        double z = (best == 0 ? gap - d : d - gap) / sigma; // spreads on the challenger's good side
        drift = resolved ? Math.max(0, drift + Math.min(z, DRIFT_STEP) - DRIFT_SLACK) : 0;
        drifting = drift > 0 ? drifting + 1 : 0;
        boolean contradicts = resolved && challengerFaster && Math.abs(d) > Math.abs(gap) / 2;
        int slot = (int) (pairCount++ % PAIRS);
        if (window == PAIRS) {
            remove(pairs[slot]);
        } else {
            window++;
        }
        pairs[slot] = d;
        insert(d);
        surprises = surprise ? surprises + 1 : 0;
        contradictions = contradicts ? contradictions + 1 : 0;
        // the machine changed: the last pairs alone describe it
        int keep = surprises >= CONFIRM
                ? CONFIRM
                : contradictions >= OVERTURN
                        ? OVERTURN
                        : drift >= DRIFT_LIMIT ? Math.min(window, Math.max(MIN_PAIRS, drifting)) : 0;
        boolean again = false;
        if (keep > 0) {
            window = keep;
            for (int j = 0; j < keep; j++) {
                sorted[j] = pairs[(int) ((pairCount - 1 - j) % PAIRS)];
            }
            Arrays.sort(sorted, 0, keep);
            surprises = 0;
            contradictions = 0;
            drift = 0;
            drifting = 0;
        } else {
            again = surprise || contradicts || (resolved && challengerFaster && drift > 0);
        }
        estimate();
        return again;
    }

    /** Inserts d into sorted[0, window - 1) (window already counts it). */
    private void insert(double d) {
        int at = Arrays.binarySearch(sorted, 0, window - 1, d);
        at = at < 0 ? -at - 1 : at;
        System.arraycopy(sorted, at, sorted, at + 1, window - 1 - at);
        sorted[at] = d;
    }

    /** Removes one occurrence of d from sorted[0, window). */
    private void remove(double d) {
        int at = Arrays.binarySearch(sorted, 0, window, d);
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
}
