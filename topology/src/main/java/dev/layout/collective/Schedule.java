package dev.layout.collective;

import dev.layout.comm.CollectiveChannel;
import dev.layout.topology.DistGraph;

/**
 * How one rank moves the blocks of a neighbourhood exchange (block i to out-neighbour i, block k
 * from in-neighbour k): the building block of alltoall(v,w), allgather(v) and allreduce on graphs.
 * {@link #exchange} moves distinct blocks (alltoall family), {@link #allgather} one block to all.
 * Computed once per graph (and kept by persistent handles).
 */
public sealed interface Schedule permits DirectSchedule, CombiningSchedule {

    /** The two schedules. */
    enum Kind {
        /** One message per out-neighbour. */
        DIRECT,
        /** d phases, one message per distinct non-zero offset value per dimension. */
        COMBINING
    }

    Kind kind();

    /** The messages this rank sends per call (self-loops are local copies and not counted). */
    int messagesPerCall();

    /**
     * Runs the exchange: {@code send[i]} goes to out-neighbour i; returns the block of each
     * in-neighbour in in-list order.
     */
    byte[][] exchange(CollectiveChannel channel, String op, int seq, byte[][] send);

    /**
     * Runs the exchange of allgather (and allreduce): the same {@code block} goes to every
     * out-neighbour; returns the block of each in-neighbour in in-list order. The combining schedule
     * sends it along the prefix tree of the offsets, shared prefixes once.
     */
    byte[][] allgather(CollectiveChannel channel, String op, int seq, byte[] block);

    /** The messages this rank sends per {@link #allgather} call (self-loops not counted). */
    int allgatherMessagesPerCall();

    /** The block copies this rank sends per {@link #allgather} call, forwarded ones included. */
    int allgatherBlocksPerCall();

    /** The direct schedule of this rank of {@code graph}. */
    static Schedule direct(DistGraph graph, int rank) {
        return new DirectSchedule(graph, rank);
    }

    /**
     * The message-combining schedule of this rank of {@code graph}.
     *
     * @throws IllegalArgumentException if the graph's Cartesianity check did not succeed
     */
    static Schedule combining(DistGraph graph, int rank) {
        return new CombiningSchedule(graph, rank);
    }
}
