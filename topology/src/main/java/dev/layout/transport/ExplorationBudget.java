package dev.layout.transport;

/**
 * What one {@link SendCell} may spend on trying the arm it does not believe in, in time. Tries are
 * owed by a deterministic credit, not drawn at random, at a rate such that, at the gap the estimate
 * still allows at one standard error below its mean, they cost at most {@link #BUDGET} of the
 * cell's send time (and at most every other send) while the gap is unresolved; once it is resolved
 * or the window of pairs full, at most {@link #SETTLED_BUDGET} and one send in {@link
 * #REFRESH_EVERY}: enough to keep the pairs fresh, so a near tie is never frozen but tried on, each
 * try costing the small gap. As a hard bound besides, no try is made while the tries have cost more
 * than {@link #BUDGET} of all the cell's send time beyond the incumbent's level, each try charged
 * the gap its pairs show (not its own noisy time: at 60 us a send one descheduled try would spend a
 * row's budget). Everything is counted in nanoseconds of this cell's sends, so a 16 MB cell's tries
 * are bounded by its own time, not by a count of messages that a thousand 1 KiB sends would swell.
 *
 * <p>Within those bounds the cell tries no more often than the chance, under the gap's posterior,
 * that the challenger is in fact the faster arm ({@link PairedGap#challengerChance()}: Thompson
 * sampling's rate, whose regret grows with the logarithm of the sends, Agrawal and Goyal 2012), and
 * never less often than one send in {@link #MOST_SENDS_BETWEEN_TRIES}. Why: the budget alone spent
 * its share on a gap already known, every 32nd send paying the whole gap for the rest of the
 * run; with the chance, tries fade as the pairs pile up on one side (at a large gap the cost
 * falls with the sends towards the floor), and they come back as soon as a pair lands on the
 * challenger's side (it asks for the next try at once, and a run of them overturns the window:
 * {@link PairedGap}), so a machine that drifts is still followed. Not thread-safe: the cell's lock
 * guards it.
 */
final class ExplorationBudget {
    /** Largest share of a cell's send time that exploring may cost beyond the incumbent (and its hard bound). */
    static final double BUDGET = 0.02;
    /** The same once the gap is resolved or the window full: the long-run cost of keeping the pairs fresh. */
    static final double SETTLED_BUDGET = 0.005;
    /** Once the gap is resolved or the window full, at most one send in this many tries the challenger. */
    static final int REFRESH_EVERY = 32;
    /**
     * Where sends take less than {@link SendCell#EXPENSIVE_NANOS}, at most one send in this many tries
     * the challenger even while learning: each try is measured with its neighbours (four completion
     * reports, some 5% of a 1 KiB round trip each), and a gap too small to resolve quickly costs less
     * than measuring it would.
     */
    static final int CHEAP_TRY_EVERY = 16;
    /**
     * However sure the estimate, one send in this many tries the challenger: a machine whose gap
     * flips is seen within as many sends (and a try that finds the challenger ahead asks for the
     * next at once, see {@link PairedGap}); at a 20% gap this floor costs 0.15% of the send time.
     */
    static final int MOST_SENDS_BETWEEN_TRIES = 128;

    private double total; // ns of every send (unmeasured ones at the incumbent's level)
    // per arm tried, so that a change of incumbent does not charge the old challenger's tries to the new one
    private final double[] measuredExcess = new double[2]; // ns tries took beyond the incumbent's level
    private final double[] triedTime = new double[2]; // the incumbent's level summed over the tries
    private double credit; // tries owed: one is made when it reaches 1
    private double rate; // tries per send

    /**
     * Adds a send's worth of credit; true if this send is to try arm {@code challenger}: a whole try
     * is owed and its tries so far, charged {@code loss} (log gap, NaN for their own times), are
     * within the hard bound.
     */
    boolean tryNow(int challenger, double loss) {
        credit = Math.min(credit + rate, 1);
        if (credit >= 1 && !(excess(challenger, loss) > BUDGET * total)) {
            credit -= 1;
            return true;
        }
        return false;
    }

    /** Whether the next send will be owed a try (its predecessor is then measured as its neighbour). */
    boolean tryDue() {
        return credit + rate >= 1;
    }

    /** Owes a try at once (a surprising pair asks to look again). */
    void owe() {
        credit = 1;
    }

    /** Counts a send of {@code nanos} into the cell's time. */
    void spent(double nanos) {
        total += nanos;
    }

    /**
     * Charges a try of arm a that took {@code nanos} where the incumbent takes {@code level}: its own
     * excess, at most the largest gap the model allows ({@code mostLoss}, a log gap), counts until
     * pairs exist.
     */
    void tried(int a, long nanos, double level, double mostLoss) {
        double most = level * Math.exp(mostLoss);
        measuredExcess[a] += Math.max(0, Math.min(nanos, most) - level);
        triedTime[a] += level;
    }

    /**
     * Sets the rate of tries: the challenger is {@code loss} (log gap, one standard error off the
     * estimate's in its favour) slower; {@code cap} is the most tries per send.
     */
    void rate(double loss, boolean learning, double cap) {
        double budget = learning ? BUDGET : SETTLED_BUDGET;
        double cost = Math.expm1(Math.max(0, loss));
        rate = cost <= budget / cap ? cap : budget / cost;
    }

    /**
     * What the tries of arm a cost beyond the incumbent's level: at the gap {@code loss} their pairs
     * show, else their own times. Charged per arm: a cell whose incumbent changed after a thousand tries
     * of the other arm once charged them all at the new gap, and did not try the old incumbent again.
     */
    private double excess(int a, double loss) {
        return Double.isNaN(loss) ? measuredExcess[a] : triedTime[a] * Math.expm1(loss);
    }
}
