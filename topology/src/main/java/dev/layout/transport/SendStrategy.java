package dev.layout.transport;

/** How a typed send moves non-contiguous data onto the wire (Furmento and Mercier 2005). */
public enum SendStrategy {
    /** Pack the blocks into a staging buffer through the datatype engine, then write it (MPICH). */
    PACK,
    /** Hand the blocks to the socket as a gather list, no copy (Madeleine's {@code mad_pack} per block). */
    GATHER,
    /** Choose {@link #PACK} or {@link #GATHER} per message: the {@link AdaptiveSendPolicy}, from the {@link SendCostModel} and measured sends. */
    ADAPTIVE
}
