package dev.layout.dataloop;

/** What a walk does with each leaf. Methods return the bytes consumed (all of them unless stopping). */
abstract class LeafKernel {
    /** True when every call consumes all it is given (all but flatten, which stops when full). */
    boolean whole = true;

    /**
     * The blocked order in which this kernel may move whole instances of the nest {@code d} instead of
     * the packed order (each byte still lands at its own packed offset), or null. Only native pack and
     * unpack have one, and {@link BlockedWalk} runs it with them; flatten and visits report runs in packed order.
     */
    BlockedOrder order(Dataloop d) {
        return null;
    }

    abstract long run(long u, long len, long stream, int unit, long phase);

    /** One whole leaf instance at {@code u}. */
    final long leafWhole(Dataloop c, long u, long stream, int unit) {
        return switch (c.kind) {
            case CONTIG -> run(u, c.blocklen, stream, unit, 0);
            case VECTOR -> vector(u, c.stride, c.blocklen, c.nblocks, stream, unit);
            case BLOCK_INDEXED, INDEXED -> blocks(c, u, 0, (int) c.nblocks, stream, unit);
            case STRUCT -> throw new AssertionError("struct leaf");
        };
    }

    /** {@code count} whole instances of leaf {@code c}, instance i at {@code u + i * spacing}. */
    long repeat(Dataloop c, long u, long spacing, long count, long stream, int unit) {
        long s = 0;
        for (long i = 0; i < count; i++) {
            s += leafWhole(c, u + i * spacing, stream + s, unit);
        }
        return s;
    }

    /**
     * {@code count} whole planes {@code p} (a vector with one leaf per block), plane i at {@code u +
     * i * spacing}: one {@link #repeat} per plane unless a kernel does better.
     */
    long repeatPlanes(Dataloop p, long u, long spacing, long count, long stream, int unit) {
        long s = 0;
        for (long i = 0; i < count; i++) {
            s += repeat(p.child, u + i * spacing + p.child.disp, p.stride, p.nblocks, stream + s, unit);
        }
        return s;
    }

    /** Whole instances of leaf {@code c} at {@code u + offsets[b]}, b in {@code [from, to)}. */
    long repeatAt(Dataloop c, long u, long[] offsets, int from, int to, long stream, int unit) {
        long s = 0;
        for (int b = from; b < to; b++) {
            s += leafWhole(c, u + offsets[b], stream + s, unit);
        }
        return s;
    }

    /** {@code count} whole blocks of the vector leaf {@code d} from block address {@code u}. */
    long vectorLeaf(Dataloop d, long u, long count, long stream, int unit) {
        return vector(u, d.stride, d.blocklen, count, stream, unit);
    }

    long vector(long u, long stride, long blockBytes, long count, long stream, int unit) {
        for (long i = 0; i < count; i++) {
            long got = run(u + i * stride, blockBytes, stream + i * blockBytes, unit, 0);
            if (got < blockBytes) {
                return i * blockBytes + got;
            }
        }
        return count * blockBytes;
    }

    /** Blocks {@code [from, to)} of the listed leaf {@code d} at {@code u + d.offsets[b]}, {@code d.blockLen(b)} bytes each. */
    long blocks(Dataloop d, long u, int from, int to, long stream, int unit) {
        long s = 0;
        for (int b = from; b < to; b++) {
            long len = d.blockLen(b);
            long got = run(u + d.offsets[b], len, stream + s, unit, 0);
            s += got;
            if (got < len) {
                return s;
            }
        }
        return s;
    }
}
