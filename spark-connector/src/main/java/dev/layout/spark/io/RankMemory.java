package dev.layout.spark.io;

import dev.layout.collective.Block;
import dev.layout.collective.RegionBlock;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.transport.TypedRegion;

/**
 * A rank's side of a collective read or write: {@code count} elements of {@code type} at byte
 * {@code origin} of {@code memory}, whose packed stream is the rank's data in view order.
 */
record RankMemory(Memory memory, long origin, Datatype type, long count) {
    /**
     * Bytes {@code [from, to)} of the packed stream, as a block a same-JVM peer copies straight into
     * (a read) or out of (a write).
     */
    Block block(long from, long to) {
        return new RegionBlock(TypedRegion.range(memory, type, count, origin, from, to));
    }
}
