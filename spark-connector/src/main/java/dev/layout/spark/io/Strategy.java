package dev.layout.spark.io;

/** How a collective read or write moves the data. */
public enum Strategy {
    /** Let the cost model choose ({@link CollectiveFile#readAll}, {@link CollectiveFile#writeAll}). */
    AUTO,
    /**
     * ROMIO's two-phase I/O: the file is split into contiguous domains, one aggregator rank per
     * domain accesses it sequentially, and {@code alltoallw} moves the data between the ranks and the
     * aggregators.
     */
    TWO_PHASE,
    /**
     * Every rank accesses its own bytes: reads through a sieving {@code ViewReader}; writes only when
     * each rank's bytes are one contiguous run and the runs tile the file (each rank writes its run as
     * one part).
     */
    INDEPENDENT
}
