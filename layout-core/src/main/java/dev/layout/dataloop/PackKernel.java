package dev.layout.dataloop;

import dev.layout.dataloop.kernel.ListedAccess;
import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.dataloop.kernel.WordKernel;
import dev.layout.memory.Memory;

/**
 * Native pack: user to packed. Whole vector leaves are one strided loop, indexed leaves one
 * gather loop, and repeated small leaves (a vector or list of records) one loop with the
 * record's blocks held in registers ({@link ListedAccess#gatherRepeated}).
 */
final class PackKernel extends LeafKernel {
    final Memory user;
    Memory packed;
    long delta;

    PackKernel(Memory user, Memory packed, long delta) {
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
        // Packing only reads the user memory: any order writes the same packed bytes.
        return true;
    }

    @Override
    long run(long u, long len, long stream, int unit, long phase) {
        MemoryAccess.copy(user, u, packed, delta + stream, len);
        return len;
    }

    @Override
    long vector(long u, long stride, long blockBytes, long count, long stream, int unit) {
        MemoryAccess.strided(user, u, stride, packed, delta + stream, blockBytes, blockBytes, count);
        return count * blockBytes;
    }

    @Override
    long vectorLeaf(Dataloop d, long u, long count, long stream, int unit) {
        long done = strip(d, user, u, count, packed, delta + stream, true);
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
        MemoryAccess.stridedTile(
                user,
                u,
                userOuter,
                userInner,
                packed,
                delta + stream,
                packedOuter,
                packedInner,
                blockBytes,
                outer,
                inner);
        return outer * inner * blockBytes;
    }

    @Override
    long blocks(long u, long[] offsets, long[] lengths, long uniform, int from, int to, long stream, int unit) {
        return ListedAccess.gather(user, u, offsets, lengths, uniform, from, to, packed, delta + stream);
    }

    @Override
    long repeat(Dataloop c, long u, long spacing, long count, long stream, int unit) {
        switch (c.kind) {
            case CONTIG -> {
                // Runs at a constant spacing are a vector.
                MemoryAccess.strided(user, u, spacing, packed, delta + stream, c.blocklen, c.blocklen, count);
                return count * c.blocklen;
            }
            case VECTOR -> {
                // A vector of vector leaves: generated rows, else one two-level strided loop.
                long row = c.nblocks * c.blocklen;
                if (!MemoryAccess.planes(plan.rows(c, count), user, u, spacing, count, packed, delta + stream, true)) {
                    MemoryAccess.strided2(
                            user,
                            u,
                            spacing,
                            c.stride,
                            packed,
                            delta + stream,
                            row,
                            c.blocklen,
                            c.blocklen,
                            count,
                            c.nblocks);
                }
                return count * row;
            }
            case BLOCK_INDEXED, INDEXED -> {
                WordKernel w = words(c, count);
                if (w != null) {
                    // A small record of words (the Indexed test's pattern): fixed load/store sequences.
                    return ListedAccess.gatherWords(
                            w, user, u, spacing, null, 0, count, c.size, packed, delta + stream);
                }
                return ListedAccess.gatherRepeated(
                        user, u, spacing, null, 0, count, c.offsets, c.blocklens, c.blocklen, packed, delta + stream);
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
        // Planes of rows of strided blocks (Flash I/O: z, y, x): one three-level strided loop.
        long row = c.nblocks * c.blocklen;
        long plane = p.nblocks * row;
        if (!MemoryAccess.planes(
                plan.plane(p, count), user, u + c.disp, spacing, count, packed, delta + stream, true)) {
            MemoryAccess.strided3(
                    user,
                    u + c.disp,
                    spacing,
                    p.stride,
                    c.stride,
                    packed,
                    delta + stream,
                    plane,
                    row,
                    c.blocklen,
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
            // A list of small records of words (MD atoms): fixed load/store sequences per record.
            return ListedAccess.gatherWords(w, user, u, 0, offsets, from, to - from, c.size, packed, delta + stream);
        }
        if (c.kind == Dataloop.Kind.BLOCK_INDEXED || c.kind == Dataloop.Kind.INDEXED) {
            return ListedAccess.gatherRepeated(
                    user, u, 0, offsets, from, to - from, c.offsets, c.blocklens, c.blocklen, packed, delta + stream);
        }
        return super.repeatAt(c, u, offsets, from, to, stream, unit);
    }
}
