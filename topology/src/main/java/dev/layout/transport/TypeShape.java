package dev.layout.transport;

import dev.layout.dataloop.Dataloop;

/**
 * The shape of a typed message's compiled dataloop, as far as it sets what packing costs against
 * gathering: the engine packs a strided leaf with one copy loop, a listed one block by block from its
 * tables, a nested one with a walk over its loops, while gathering costs per block whatever the
 * shape. With the size classes of the bytes and blocks (which give the block length's) it keys an
 * {@link AdaptiveSendPolicy} cell. Four values: a cell table stays bounded by peers, size classes
 * and these.
 */
public enum TypeShape {
    /** One contiguous run (a contiguous leaf, however the type was written). */
    RUN,
    /** Equal blocks at a constant stride: a vector leaf. */
    STRIDED,
    /** Blocks at listed offsets: an indexed or block-indexed leaf. */
    LISTED,
    /** Loops over loops (a struct of several kinds, blocks of strided elements): not a leaf. */
    NESTED;

    /** The shape of a segment's root dataloop ({@code null}: no data, which is one empty run). */
    static TypeShape of(Dataloop root) {
        if (root == null) {
            return RUN;
        }
        if (!root.isLeaf()) {
            return NESTED;
        }
        return switch (root.kind()) {
            case CONTIG -> RUN;
            case VECTOR -> root.blockCount() <= 1 ? RUN : STRIDED;
            default -> root.blockCount() <= 1 ? RUN : LISTED;
        };
    }
}
