package dev.layout.collective;

import dev.layout.transport.TypedRegion;

/**
 * A {@link Block} whose bytes lie in memory described by a datatype: a collective can move them
 * from one such block straight into another without packing (the single-copy path between ranks
 * in one JVM, {@link dev.layout.transport.Transport#postReceive}).
 */
public interface TypedBlock extends Block {
    /** Where this block's bytes lie (a region is a cursor: one collective call uses it at a time). */
    TypedRegion region();
}
