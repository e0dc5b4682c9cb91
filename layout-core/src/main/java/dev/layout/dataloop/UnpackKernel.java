package dev.layout.dataloop;

import dev.layout.dataloop.kernel.ListedAccess;
import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.dataloop.kernel.WordKernel;
import dev.layout.memory.Memory;

/** Native unpack: packed to user; the mirror of {@link PackKernel}, same exploits. */
final class UnpackKernel extends LeafKernel {
    final Memory user;
    Memory packed;
    long delta;

    UnpackKernel(Memory user, Memory packed, long delta) {
        this.user = user;
        this.packed = packed;
        this.delta = delta;
    }

    void aim(Memory packed, long delta, Plan plan) {
        this.packed = packed;
        this.delta = delta;
        this.plan = plan;
    }

    @Override
    boolean mayReorder(BlockedOrder order) {
        // Overlapping blocks are written in packed order (the last write wins); the plan says when not.
        return order.unpackMayReorder;
    }

    @Override
    long run(long u, long len, long stream, int unit, long phase) {
        MemoryAccess.copy(packed, delta + stream, user, u, len);
        return len;
    }

    @Override
    long vector(long u, long stride, long blockBytes, long count, long stream, int unit) {
        MemoryAccess.strided(packed, delta + stream, blockBytes, user, u, stride, blockBytes, count);
        return count * blockBytes;
    }

    @Override
    long vectorLeaf(Dataloop d, long u, long count, long stream, int unit) {
        long done = strip(d, user, u, count, packed, delta + stream, false);
        return done * d.blocklen
                + vector(u + done * d.stride, d.stride, d.blocklen, count - done, stream + done * d.blocklen, unit);
    }

    @Override
    long plane(
            long u,
            long userOuter,
            long userInner,
            long stream,
            long packedOuter,
            long packedInner,
            long blockBytes,
            long outer,
            long inner) {
        MemoryAccess.strided2(
                packed,
                delta + stream,
                packedOuter,
                packedInner,
                user,
                u,
                userOuter,
                userInner,
                blockBytes,
                outer,
                inner);
        return outer * inner * blockBytes;
    }

    @Override
    long blocks(long u, long[] offsets, long[] lengths, long uniform, int from, int to, long stream, int unit) {
        return ListedAccess.scatter(packed, delta + stream, user, u, offsets, lengths, uniform, from, to);
    }

    @Override
    long repeat(Dataloop c, long u, long spacing, long count, long stream, int unit) {
        switch (c.kind) {
            case CONTIG -> {
                MemoryAccess.strided(packed, delta + stream, c.blocklen, user, u, spacing, c.blocklen, count);
                return count * c.blocklen;
            }
            case VECTOR -> {
                long row = c.nblocks * c.blocklen;
                if (!MemoryAccess.planes(plan.rows(c, count), user, u, spacing, count, packed, delta + stream, false)) {
                    MemoryAccess.strided2(
                            packed,
                            delta + stream,
                            row,
                            c.blocklen,
                            user,
                            u,
                            spacing,
                            c.stride,
                            c.blocklen,
                            count,
                            c.nblocks);
                }
                return count * row;
            }
            case BLOCK_INDEXED, INDEXED -> {
                WordKernel w = words(c, count);
                if (w != null) {
                    return ListedAccess.scatterWords(
                            w, user, u, spacing, null, 0, count, c.size, packed, delta + stream);
                }
                return ListedAccess.scatterRepeated(
                        packed, delta + stream, user, u, spacing, null, 0, count, c.offsets, c.blocklens, c.blocklen);
            }
            default -> {
                return super.repeat(c, u, spacing, count, stream, unit);
            }
        }
    }

    @Override
    long repeatPlanes(Dataloop p, long u, long spacing, long count, long stream, int unit) {
        Dataloop c = p.child;
        if (c.kind != Dataloop.Kind.VECTOR) {
            return super.repeatPlanes(p, u, spacing, count, stream, unit);
        }
        long row = c.nblocks * c.blocklen;
        long plane = p.nblocks * row;
        if (!MemoryAccess.planes(
                plan.plane(p, count), user, u + c.disp, spacing, count, packed, delta + stream, false)) {
            MemoryAccess.strided3(
                    packed,
                    delta + stream,
                    plane,
                    row,
                    c.blocklen,
                    user,
                    u + c.disp,
                    spacing,
                    p.stride,
                    c.stride,
                    c.blocklen,
                    count,
                    p.nblocks,
                    c.nblocks);
        }
        return count * plane;
    }

    @Override
    long repeatAt(Dataloop c, long u, long[] offsets, int from, int to, long stream, int unit) {
        WordKernel w = words(c, to - from);
        if (w != null) {
            return ListedAccess.scatterWords(w, user, u, 0, offsets, from, to - from, c.size, packed, delta + stream);
        }
        if (c.kind == Dataloop.Kind.BLOCK_INDEXED || c.kind == Dataloop.Kind.INDEXED) {
            return ListedAccess.scatterRepeated(
                    packed, delta + stream, user, u, 0, offsets, from, to - from, c.offsets, c.blocklens, c.blocklen);
        }
        return super.repeatAt(c, u, offsets, from, to, stream, unit);
    }
}
