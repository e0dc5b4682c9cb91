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
        return order != null && (pack || order.disjoint()) ? order : null;
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
        long size = form == STRIP ? c.blocklen : c.size;
        Promotion trial = g == null ? null : g.promotion(pack, outer != null);
        int what = trial == null ? Promotion.GENERIC : trial.begin();
        long dose = trial != null && what == Promotion.GENERIC ? trial.dose(count, size) : 0;
        long start = Promotion.timed(what) || dose > 0 ? System.nanoTime() : 0;
        long done = Promotion.kernel(what) ? kernel(g, form, c, u, spacing, outer, from, count, stream) : 0;
        // the dose, a few instances a call of the kernel, so that the JIT compiles it
        for (long n = 1; done < dose && n > 0; done += n) {
            long at = outer == null ? u + done * spacing : u;
            long piece = Math.min(Promotion.PIECE, dose - done);
            n = kernel(g, form, c, at, spacing, outer, from + (int) done, piece, stream + done * size);
        }
        long dosed = dose > 0 ? System.nanoTime() : 0;
        if (done < count) {
            long at = outer == null ? u + done * spacing : u;
            generic(form, c, at, spacing, outer, from + (int) done, count - done, stream + done * size);
        }
        if (dose > 0) {
            trial.dosed(done, dosed - start, count - done, System.nanoTime() - dosed);
        } else if (Promotion.timed(what) && (what == Promotion.BASELINE || done > 0)) {
            trial.end(what, count, System.nanoTime() - start);
        }
        return count * size;
    }

    /** {@code n} instances through the kernel, laid out as in {@link #instances}; returns how many it moved (a strip may leave a tail, a kernel that cannot run here none). */
    private long kernel(
            GeneratedKernel g,
            int form,
            Dataloop c,
            long u,
            long spacing,
            long[] outer,
            int from,
            long n,
            long stream) {
        if (form == STRIP) {
            return GeneratedKernel.strip(g, user, u, spacing, n, packed, delta + stream, pack);
        }
        // planes' kernels take the base of their rows (a plane's generic loops add the row's disp themselves)
        long gu = form == PLANES || form == RECORD_ROWS ? u + c.child.disp : u;
        return GeneratedKernel.run(g, user, gu, spacing, outer, from, n, packed, delta + stream, pack) ? n : 0;
    }

    /** {@code n} instances through the generic loops of {@code form}, laid out as in {@link #instances}. */
    private void generic(int form, Dataloop c, long u, long spacing, long[] outer, int from, long n, long stream) {
        switch (form) {
            case STRIP -> vector(u, spacing, c.blocklen, n, stream, 1);
            case ROWS -> strided3(u, 0, spacing, c.stride, stream, 0, c.size, c.blocklen, 1, n, c.nblocks);
            case RECORDS ->
                ListedAccess.records(
                        user,
                        u,
                        spacing,
                        outer,
                        from,
                        n,
                        c.offsets,
                        c.blocklens,
                        c.blocklen,
                        packed,
                        delta + stream,
                        pack);
            case PLANES -> {
                Dataloop r = c.child;
                long row = r.nblocks * r.blocklen;
                strided3(
                        u + r.disp,
                        spacing,
                        c.stride,
                        r.stride,
                        stream,
                        c.size,
                        row,
                        r.blocklen,
                        n,
                        c.nblocks,
                        r.nblocks);
            }
            default -> super.repeatPlanes(c, u, spacing, n, stream, 1);
        }
    }
}
