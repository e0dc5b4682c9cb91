package dev.layout.dataloop;

/** Adapts a public {@link LeafAction}: offsets relative to the origin, no internal arrays exposed. */
final class VisitorKernel extends LeafKernel {
    final LeafAction action;
    final long origin;

    VisitorKernel(LeafAction action, long origin) {
        this.action = action;
        this.origin = origin;
    }

    @Override
    long run(long u, long len, long stream, int unit, long phase) {
        action.run(u - origin, len, stream);
        return len;
    }

    @Override
    long vector(long u, long stride, long blockBytes, long count, long stream, int unit) {
        action.vector(u - origin, stride, blockBytes, count, stream);
        return count * blockBytes;
    }

    @Override
    long blocks(Dataloop d, long u, int from, int to, long stream, int unit) {
        long[] offs = java.util.Arrays.copyOfRange(d.offsets, from, to);
        long[] lens = d.blocklens == null ? null : java.util.Arrays.copyOfRange(d.blocklens, from, to);
        action.blocks(u - origin, offs, lens, d.blocklen, 0, to - from, stream);
        return d.packedBefore(to) - d.packedBefore(from);
    }
}
