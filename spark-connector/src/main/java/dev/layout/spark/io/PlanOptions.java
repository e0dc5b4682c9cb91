package dev.layout.spark.io;

import java.util.Locale;

/**
 * The options a collective call's plan is computed from ({@link IoPlan}). Every rank computes the
 * plan itself, and each pair of ranks derives the size of what it exchanges from it, so the ranks
 * must have the same options: each rank sends its own in the plan round and a difference fails the
 * call at every rank ({@link RankAccess#throwIfOptionsDiffer}), where it would leave a pair
 * disagreeing about a block's size (one side sending nothing, the other waiting for bytes).
 *
 * @param aggregators the number of aggregators asked for, 0 for the default (one per host)
 * @param mapped for a read: whether aggregators map their domains (decided from the file system)
 */
record PlanOptions(Strategy strategy, long cycleBytes, long minDomainBytes, int aggregators, boolean mapped) {

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "strategy %s, cycle bytes %d, minimum domain bytes %d, aggregators %s, %s domains",
                strategy,
                cycleBytes,
                minDomainBytes,
                aggregators == 0 ? "default" : Integer.toString(aggregators),
                mapped ? "mapped" : "streamed");
    }
}
