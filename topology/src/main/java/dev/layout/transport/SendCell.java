package dev.layout.transport;

import java.util.function.LongConsumer;

/**
 * One cell's two-armed bandit (arm 0 PACK, arm 1 GATHER) of {@link AdaptiveSendPolicy}: the
 * incumbent is the arm the {@link PairedGap} puts lower, the challenger is tried as the {@link
 * ExplorationBudget} allows, and the cell says which sends are to be measured.
 *
 * <p>Measuring a send costs a completion report (carried by the receiver's next frame) and this
 * bookkeeping, a visible share of a small round trip and, measured on every send, still of a 1 MB
 * one (benchmarks/graph-and-pingpong.md, eleventh round and session 41). So only the sends that
 * inform the estimate are measured: the tries and their neighbours (the pairs), the incumbent's first
 * {@link RecentSends#LEVEL} sends and one other send in {@link #SAMPLE_EVERY} (its level), whether or
 * not the gap is resolved. The decision is recomputed once per observed send (a few hundred
 * nanoseconds); {@link #choose} only adds to the credit. Thread-safe.
 */
final class SendCell {
    /**
     * Sends of this or more are expensive: while learning the challenger may be tried on up to every
     * other send (cheaper ones are tried more slowly, {@link ExplorationBudget#CHEAP_TRY_EVERY}), and a
     * report counts the receiver's figure alone ({@link #learn}).
     */
    static final long EXPENSIVE_NANOS = 250_000;
    /** Exploitations measured besides tries, their neighbours and a level: one in this many. */
    static final int SAMPLE_EVERY = 8;
    /** A gap is resolved when its estimate lies this many standard errors from zero. */
    static final double Z = 2;

    private final RecentSends recent = new RecentSends();
    private final PairedGap gap;
    private final ExplorationBudget budget = new ExplorationBudget();
    private int unsampled; // exploitations not measured since the last measured one
    private int best; // the incumbent
    private double bestTime; // the incumbent's level, ns (0 before it is measured)
    private boolean learning; // the gap unresolved and the window of pairs not full

    private final LongConsumer[] observers = {nanos -> observe(0, nanos), nanos -> observe(1, nanos)};

    /** A cell whose model puts the log gap (gather minus pack) at {@code prior}. */
    SendCell(double prior) {
        this.gap = new PairedGap(prior);
        update();
    }

    /** The arm of a strategy: 0 PACK, 1 GATHER. */
    static int arm(SendStrategy s) {
        return s == SendStrategy.PACK ? 0 : 1;
    }

    /** The strategy of an arm. */
    static SendStrategy strategy(int a) {
        return a == 0 ? SendStrategy.PACK : SendStrategy.GATHER;
    }

    /** {@link #observe} of arm a as a listener (made once: a sampled send allocates nothing for it). */
    LongConsumer observer(int a) {
        return observers[a];
    }

    synchronized int samples(int a) {
        return recent.count(a);
    }

    /** Whether the gap is unresolved and the window of pairs not full (the challenger is then tried more often). */
    synchronized boolean learning() {
        return learning;
    }

    synchronized int incumbent() {
        return best;
    }

    /**
     * Whether the incumbent's sends take less than {@link #EXPENSIVE_NANOS} (or are not measured
     * yet): short enough that on loopback such a message arrives whole from one write call.
     */
    synchronized boolean cheap() {
        return bestTime < EXPENSIVE_NANOS;
    }

    /**
     * E.g. {@code GATHER; log gap -0.081 +- 0.024 (spread 0.210, 40 of 52 pairs); 180 sends measured}:
     * the incumbent, the gap's estimate (gather minus pack) and standard error, a pair's spread, the
     * pairs in the window and ever made (for traces).
     */
    @Override
    public synchronized String toString() {
        return String.format(
                java.util.Locale.ROOT,
                "%s; log gap %.3f +- %.3f (spread %.3f, %d of %d pairs); %d sends measured",
                strategy(best),
                gap.gap(),
                gap.error(),
                gap.spread(),
                gap.window(),
                gap.made(),
                recent.step());
    }

    /** The arm of the next send. */
    synchronized int choose() {
        return budget.tryNow(1 - best, gap.challengerLoss(best)) ? 1 - best : best;
    }

    /** Whether the send just chosen with arm a is to be measured and {@link #observe observed}. */
    synchronized boolean sample(int a) {
        // tries, their neighbours (the send before a try and those after it), a level
        if (a != best
                || recent.count(best) < RecentSends.LEVEL
                || gap.pending()
                || budget.tryDue()
                || ++unsampled >= SAMPLE_EVERY) {
            unsampled = 0;
            return true;
        }
        budget.spent(bestTime);
        return false;
    }

    /** A measured send of arm a took {@code nanos} (at least 1). */
    synchronized void observe(int a, long nanos) {
        nanos = Math.max(1, nanos);
        double x = Math.log(nanos);
        budget.spent(nanos);
        if (gap.neighbour(a, x, recent.step(), best)) {
            budget.owe();
        }
        if (a != best) {
            budget.tried(a, nanos, bestTime, Math.abs(gap.prior()) + 2 * PairedGap.MODEL_ERROR);
            gap.pend(a, x, recent);
        }
        recent.add(a, x);
        update();
    }

    /** The incumbent, the rate of tries and the incumbent's level. */
    private void update() {
        double g = gap.gap();
        best = g < 0 ? 1 : 0;
        learning = Math.abs(g) <= Z * gap.error() && gap.window() < PairedGap.PAIRS;
        bestTime = recent.level(best, PairedGap.PAIR_SPAN);
        boolean cheap = bestTime > 0 && bestTime < EXPENSIVE_NANOS;
        double cap = !learning
                ? 1.0 / ExplorationBudget.REFRESH_EVERY
                : cheap ? 1.0 / ExplorationBudget.CHEAP_TRY_EVERY : 0.5;
        // no more often than the chance that the challenger is the faster arm (Thompson sampling's
        // rate), and never less often than the floor that follows a drifting machine
        double chance = Math.max(1.0 / ExplorationBudget.MOST_SENDS_BETWEEN_TRIES, gap.challengerChance());
        budget.rate(Math.abs(g) - gap.error(), learning, Math.min(cap, chance));
    }

    /**
     * Learns from a sampled send that started at {@code t0}: with a report asked for ({@code report}),
     * its end-to-end time once the report is in, the receiver's figure plus {@code headerDelay} (see
     * {@link CompletionReports}); else, if {@code learn} (too many reports awaited, or a small eager
     * send), the sender's own time. Where this cell's sends are {@link #cheap()} the figure is at
     * least the sender's own time: an eager message (up to some 64 KiB on loopback) arrives whole, and
     * the receiver's clock, which starts once it is there, misses the write call. A longer message
     * streams to a receiver already reading, whose time covers the call; its sender's time would only
     * add the moments a loaded machine took its cpu (with it, the 1 MB rows of bench pingpong split
     * between the arms).
     */
    void learn(
            CompletionReports reports,
            int id,
            boolean report,
            boolean learn,
            SendStrategy used,
            long t0,
            long headerDelay) {
        if (report) {
            long senderNanos = cheap() ? System.nanoTime() - t0 : 0;
            reports.sent(id, headerDelay, senderNanos, observer(arm(used)));
        } else if (learn) {
            observe(arm(used), System.nanoTime() - t0);
        }
    }
}
