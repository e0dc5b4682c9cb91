package dev.layout.dataloop;

import dev.layout.dataloop.kernel.GeneratedKernel;
import dev.layout.dataloop.kernel.ListedAccess;
import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.memory.Memory;

/**
 * Native pack (user to packed) and unpack (packed to user), one kernel per direction with the
 * direction a final field. Whole vector leaves are one strided loop, indexed leaves one listed loop,
 * and repeated small leaves (a vector or list of records) one loop with the record's blocks held in
 * registers ({@link ListedAccess#records}) or generated word moves ({@link GeneratedKernel#records}).
 */
final class NativeKernel extends LeafKernel {
    final boolean pack;
    Memory user;
    Memory packed;
    long delta;
    /** The kernels for the current memories. */
    Plan plan;

    NativeKernel(boolean pack) {
        this.pack = pack;
    }

    /** Re-aims this kernel (made once per segment and direction, so that a steady-state call allocates nothing). */
    void aim(Memory user, Memory packed, long delta, Plan plan) {
        this.user = user;
        this.packed = packed;
        this.delta = delta;
        this.plan = plan;
    }

    @Override
    BlockedOrder order(Dataloop d) {
        // Packing only reads the user memory: any order writes the same packed bytes. Overlapping blocks
        // are unpacked in packed order (the last write wins); the plan says when not.
        BlockedOrder order = plan.order(d);
        return order != null && (pack || order.unpackMayReorder()) ? order : null;
    }

    @Override
    long run(long u, long len, long stream, int unit, long phase) {
        if (pack) {
            MemoryAccess.copy(user, u, packed, delta + stream, len);
        } else {
            MemoryAccess.copy(packed, delta + stream, user, u, len);
        }
        return len;
    }

    /** {@link MemoryAccess#strided3} between user planes ({@code u3}, {@code u2}, {@code u1}) and packed ones (blocks adjacent in a row) from stream byte {@code s}. */
    private void strided3(
            long u, long u3, long u2, long u1, long s, long p3, long p2, long w, long n3, long n2, long n1) {
        if (pack) {
            MemoryAccess.strided3(user, u, u3, u2, u1, packed, delta + s, p3, p2, w, w, n3, n2, n1);
        } else {
            MemoryAccess.strided3(packed, delta + s, p3, p2, w, user, u, u3, u2, u1, w, n3, n2, n1);
        }
    }

    @Override
    long vector(long u, long stride, long blockBytes, long count, long stream, int unit) {
        if (pack) {
            MemoryAccess.strided(user, u, stride, packed, delta + stream, blockBytes, blockBytes, count);
        } else {
            MemoryAccess.strided(packed, delta + stream, blockBytes, user, u, stride, blockBytes, count);
        }
        return count * blockBytes;
    }

    @Override
    long vectorLeaf(Dataloop d, long u, long count, long stream, int unit) {
        long done = GeneratedKernel.strip(plan.strip(d, count), user, u, d.stride, count, packed, delta + stream, pack);
        return done * d.blocklen
                + vector(u + done * d.stride, d.stride, d.blocklen, count - done, stream + done * d.blocklen, unit);
    }

    /**
     * A plane of {@code outer x inner} blocks of {@code blockBytes}: block (i, j) at user {@code u + i *
     * userOuter + j * userInner}, packed at {@code stream + i * packedOuter + j * blockBytes} (the packed
     * rows need not be adjacent: a blocked order's tile).
     */
    long plane(
            long u,
            long userOuter,
            long userInner,
            long stream,
            long packedOuter,
            long blockBytes,
            long outer,
            long inner) {
        // A pack reading a transposed side may take the line-tiled loop.
        long p = delta + stream;
        if (!pack
                || !MemoryAccess.stridedTile(
                        user, u, userOuter, userInner, packed, p, packedOuter, blockBytes, blockBytes, outer, inner)) {
            strided3(u, 0, userOuter, userInner, stream, 0, packedOuter, blockBytes, 1, outer, inner);
        }
        return outer * inner * blockBytes;
    }

    @Override
    long blocks(Dataloop d, long u, int from, int to, long stream, int unit) {
        return ListedAccess.blocks(user, u, d.offsets, d.blocklens, d.blocklen, from, to, packed, delta + stream, pack);
    }

    @Override
    long repeat(Dataloop c, long u, long spacing, long count, long stream, int unit) {
        return switch (c.kind) {
            case CONTIG -> vector(u, spacing, c.blocklen, count, stream, unit); // runs at a constant spacing
            case VECTOR -> {
                // A vector of vector leaves: generated rows, else one two-level strided loop.
                long row = c.nblocks * c.blocklen;
                GeneratedKernel rows = plan.planes(c, count, spacing);
                if (!GeneratedKernel.run(rows, user, u, spacing, null, 0, count, packed, delta + stream, pack)) {
                    strided3(u, 0, spacing, c.stride, stream, 0, row, c.blocklen, 1, count, c.nblocks);
                }
                yield count * row;
            }
            case BLOCK_INDEXED, INDEXED -> records(c, u, spacing, null, 0, count, stream);
            default -> super.repeat(c, u, spacing, count, stream, unit);
        };
    }

    /** {@code count} instances of the listed leaf {@code c}: generated word moves (a small record of words) or the record loops. */
    private long records(Dataloop c, long u, long spacing, long[] outer, int from, long count, long stream) {
        long p = delta + stream;
        if (GeneratedKernel.run(plan.words(c, count), user, u, spacing, outer, from, count, packed, p, pack)) {
            return count * c.size;
        }
        return ListedAccess.records(
                user, u, spacing, outer, from, count, c.offsets, c.blocklens, c.blocklen, packed, p, pack);
    }

    @Override
    long repeatPlanes(Dataloop p, long u, long spacing, long count, long stream, int unit) {
        Dataloop c = p.child;
        if (c.kind != Dataloop.Kind.VECTOR) {
            // Rows of records: generated records in rows, else a records call per plane.
            GeneratedKernel rows = plan.planes(p, count, spacing);
            return GeneratedKernel.run(rows, user, u + c.disp, spacing, null, 0, count, packed, delta + stream, pack)
                    ? count * p.size
                    : super.repeatPlanes(p, u, spacing, count, stream, unit);
        }
        // Planes of rows of strided blocks (Flash I/O: z, y, x): generated planes, else one three-level strided loop.
        long row = c.nblocks * c.blocklen;
        long plane = p.nblocks * row;
        long at = u + c.disp;
        if (!GeneratedKernel.run(
                plan.planes(p, count, spacing), user, at, spacing, null, 0, count, packed, delta + stream, pack)) {
            long w = c.blocklen;
            strided3(at, spacing, p.stride, c.stride, stream, plane, row, w, count, p.nblocks, c.nblocks);
        }
        return count * plane;
    }

    @Override
    long repeatAt(Dataloop c, long u, long[] offsets, int from, int to, long stream, int unit) {
        if (c.kind == Dataloop.Kind.BLOCK_INDEXED || c.kind == Dataloop.Kind.INDEXED) {
            // A list of small records (MD atoms): generated word moves or the record loops.
            return records(c, u, 0, offsets, from, to - from, stream);
        }
        return super.repeatAt(c, u, offsets, from, to, stream, unit);
    }
}
