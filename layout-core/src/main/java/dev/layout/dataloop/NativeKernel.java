package dev.layout.dataloop;

import dev.layout.dataloop.kernel.GeneratedKernel;
import dev.layout.dataloop.kernel.ListedAccess;
import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.dataloop.kernel.Promotion;
import dev.layout.memory.Memory;

/**
 * Native pack (user to packed) and unpack (packed to user), one kernel per direction with the
 * direction a final field. Whole vector leaves are one strided loop, indexed leaves one listed loop,
 * and repeated small leaves (a vector or list of records) one loop with the record's blocks held in
 * registers ({@link ListedAccess#records}) or generated word moves ({@link GeneratedKernel#records}).
 * Where the plan has a generated kernel, the generic loops run until it is promoted ({@link #instances}).
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
        return instances(plan.strip(d, count), STRIP, d, u, d.stride, null, 0, count, stream);
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
            // A vector of vector leaves: generated rows, else one two-level strided loop.
            case VECTOR -> instances(plan.planes(c, count, spacing), ROWS, c, u, spacing, null, 0, count, stream);
            case BLOCK_INDEXED, INDEXED ->
                instances(plan.words(c, count), RECORDS, c, u, spacing, null, 0, count, stream);
            default -> super.repeat(c, u, spacing, count, stream, unit);
        };
    }

    @Override
    long repeatPlanes(Dataloop p, long u, long spacing, long count, long stream, int unit) {
        // Planes of rows of strided blocks (Flash I/O: z, y, x), or rows of records: generated, else generic loops.
        int form = p.child.kind == Dataloop.Kind.VECTOR ? PLANES : RECORD_ROWS;
        return instances(plan.planes(p, count, spacing), form, p, u, spacing, null, 0, count, stream);
    }

    @Override
    long repeatAt(Dataloop c, long u, long[] offsets, int from, int to, long stream, int unit) {
        if (c.kind == Dataloop.Kind.BLOCK_INDEXED || c.kind == Dataloop.Kind.INDEXED) {
            // A list of small records (MD atoms): generated word moves or the record loops.
            return instances(plan.words(c, to - from), RECORDS, c, u, 0, offsets, from, to - from, stream);
        }
        return super.repeatAt(c, u, offsets, from, to, stream, unit);
    }

    /** The generic loops {@link #instances} falls back on: a strided run, rows of a vector leaf, records, planes, rows of records. */
    private static final int STRIP = 0;

    private static final int ROWS = 1;
    private static final int RECORDS = 2;
    private static final int PLANES = 3;
    private static final int RECORD_ROWS = 4;

    /** The call of {@link #instances} under way, for its steps (a kernel serves one thread). */
    private GeneratedKernel g;

    private int form;
    private Dataloop c;
    private long u;
    private long spacing;
    private long[] outer;
    private int from;
    private long stream;
    private long size;

    /**
     * {@code count} instances of {@code c} (a strip's: its blocks), instance i at user {@code u + i *
     * spacing} (or {@code u + outer[from + i]}), packed back to back from {@code stream}: through the
     * generated kernel {@code g} once it is promoted, and in its trials; else through the generic loops of
     * {@code form}, after a warming dose through {@code g} while it is on trial ({@link Promotion}).
     */
    private long instances(
            GeneratedKernel g,
            int form,
            Dataloop c,
            long u,
            long spacing,
            long[] outer,
            int from,
            long count,
            long stream) {
        this.g = g;
        this.form = form;
        this.c = c;
        this.u = u;
        this.spacing = spacing;
        this.outer = outer;
        this.from = from;
        this.stream = stream;
        long size = form == STRIP ? c.blocklen : c.size;
        this.size = size;
        Promotion trial = g == null ? null : g.promotion(pack, outer != null);
        int what = trial == null ? Promotion.GENERIC : trial.begin();
        long start = Promotion.timed(what) ? System.nanoTime() : 0;
        long done = Promotion.kernel(what) ? kernel(0, count) : 0;
        if (trial != null && what == Promotion.GENERIC) {
            // the dose, a few instances a call of the kernel, so that the JIT compiles it
            for (long dose = trial.dose(count, size), n = 1; done < dose && n > 0; done += n) {
                n = kernel(done, Math.min(Promotion.PIECE, dose - done));
            }
        }
        if (done < count) {
            generic(done, count - done); // last to read the fields: rows of records re-enter this method
        }
        if (Promotion.timed(what) && (what == Promotion.BASELINE || done > 0)) {
            trial.end(what, count, System.nanoTime() - start);
        }
        this.g = null; // hold no kernel or loop between calls
        this.c = null;
        this.outer = null;
        return count * size;
    }

    /** Instances {@code [first, first + n)} through the kernel; returns how many it moved (a strip may leave a tail, a kernel that cannot run here none). */
    private long kernel(long first, long n) {
        long at = outer == null ? u + first * spacing : u;
        long p = delta + stream + first * size;
        if (form == STRIP) {
            return GeneratedKernel.strip(g, user, at, spacing, n, packed, p, pack);
        }
        // planes' kernels take the base of their rows (a plane's generic loops add the row's disp themselves)
        long gu = form == PLANES || form == RECORD_ROWS ? at + c.child.disp : at;
        return GeneratedKernel.run(g, user, gu, spacing, outer, from + (int) first, n, packed, p, pack) ? n : 0;
    }

    /** Instances {@code [first, first + n)} through the generic loops. */
    private void generic(long first, long n) {
        long at = outer == null ? u + first * spacing : u;
        long s = stream + first * size;
        Dataloop r = c.child;
        switch (form) {
            case STRIP -> vector(at, spacing, c.blocklen, n, s, 1);
            case ROWS -> strided3(at, 0, spacing, c.stride, s, 0, c.size, c.blocklen, 1, n, c.nblocks);
            case RECORDS ->
                ListedAccess.records(
                        user,
                        at,
                        spacing,
                        outer,
                        from + (int) first,
                        n,
                        c.offsets,
                        c.blocklens,
                        c.blocklen,
                        packed,
                        delta + s,
                        pack);
            case PLANES ->
                strided3(
                        at + r.disp,
                        spacing,
                        c.stride,
                        r.stride,
                        s,
                        c.size,
                        r.nblocks * r.blocklen,
                        r.blocklen,
                        n,
                        c.nblocks,
                        r.nblocks);
            default -> super.repeatPlanes(c, at, spacing, n, s, 1);
        }
    }
}
