package dev.layout.transport;

import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * How many contiguous blocks a typed message has, and its {@link TypeShape}: what the send cost model
 * and the adaptive policy weigh (pack or gather) and what a typed receive weighs (scatter or unpack).
 */
final class BlockEstimates {
    private BlockEstimates() {}

    /**
     * Estimated contiguous blocks of the segment's whole stream: exact up to 64 blocks, extrapolated
     * from the first 64 beyond; remembered per (type, count) in a small cache, since flattening even
     * 64 blocks of a struct costs tens of microseconds. Leaves the segment at position 0.
     */
    static long of(Segment s) {
        return estimate(s).blocks();
    }

    /**
     * The segment's estimated blocks ({@link #of}) and its shape, remembered together: a repeated
     * send of a (type, count) looks both up without allocating or walking anything.
     */
    static BlockEstimate estimate(Segment s) {
        int slot = (System.identityHashCode(s.type()) * 31 + Long.hashCode(s.count())) & (ESTIMATES.length() - 1);
        BlockEstimate e = ESTIMATES.get(slot);
        if (e != null && e.type.get() == s.type() && e.count == s.count()) {
            return e;
        }
        s.seek(0);
        List<Piece> pieces = s.flatten(64);
        boolean all = s.remaining() == 0;
        s.seek(0);
        long blocks;
        if (all || pieces.isEmpty()) {
            blocks = pieces.size();
        } else {
            long covered = 0;
            for (Piece p : pieces) {
                covered += p.length();
            }
            blocks = (long) Math.ceil((double) pieces.size() * s.byteSize() / Math.max(1, covered));
        }
        e = new BlockEstimate(new WeakReference<>(s.type()), s.count(), blocks, TypeShape.of(s.dataloop()));
        ESTIMATES.set(slot, e);
        return e;
    }

    /** The estimate of a (type, count): its blocks and shape. */
    record BlockEstimate(WeakReference<Datatype> type, long count, long blocks, TypeShape shape) {}

    private static final AtomicReferenceArray<BlockEstimate> ESTIMATES = new AtomicReferenceArray<>(256);
}
