package dev.layout.spark.grid;

/** How {@link HaloExchange} runs the iterations. */
public enum ExchangeMode {
    /**
     * The whole loop inside one barrier stage: tasks are ranks of a communicator, halos move with
     * alltoallw on the stencil's graph communicator each iteration. Needs all slots at once.
     */
    BARRIER,
    /**
     * One Spark stage per iteration: halos packed with the region datatypes, keyed by destination
     * rank, shuffled with {@link RankPartitioner}, unpacked into the blocks; lineage cut by
     * checkpointing.
     */
    SHUFFLE
}
