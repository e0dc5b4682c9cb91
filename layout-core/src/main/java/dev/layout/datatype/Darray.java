package dev.layout.datatype;

import java.util.Arrays;
import java.util.List;

/**
 * {@code darray(size, rank, gsizes, distribs, dargs, psizes, order, old)}: the part of a
 * block/cyclic distributed global array that process {@code rank} of a {@code size}-process grid
 * owns (process coordinates are row-major over {@code psizes}, as MPI prescribes). Markers at 0 and
 * at the global array's extent; data in the order of the global array restricted to owned elements.
 * Built dimension by dimension as MPICH does (block: a run; cyclic: a vector of blocks plus a
 * shorter last block).
 */
public final class Darray extends DerivedType {
    private final long size;
    private final long rank;
    private final long[] gsizes;
    private final Distribution[] distribs;
    private final long[] dargs;
    private final long[] psizes;
    private final Order order;
    private final Datatype oldType;
    private final Datatype lowered;

    Darray(
            long size,
            long rank,
            long[] gsizes,
            Distribution[] distribs,
            long[] dargs,
            long[] psizes,
            Order order,
            Datatype oldType) {
        this(
                size,
                rank,
                gsizes,
                distribs,
                dargs,
                psizes,
                order,
                oldType,
                lower(size, rank, gsizes, distribs, dargs, psizes, order, oldType));
    }

    private Darray(
            long size,
            long rank,
            long[] gsizes,
            Distribution[] distribs,
            long[] dargs,
            long[] psizes,
            Order order,
            Datatype oldType,
            Datatype lowered) {
        super(
                "darray",
                Subarray.markedProps("darray", lowered, Subarray.product("darray", gsizes, oldType)),
                lowered.isDense(),
                List.of(oldType));
        this.size = size;
        this.rank = rank;
        this.gsizes = gsizes.clone();
        this.distribs = distribs.clone();
        this.dargs = dargs.clone();
        this.psizes = psizes.clone();
        this.order = order;
        this.oldType = oldType;
        this.lowered = lowered;
    }

    private static Datatype lower(
            long size,
            long rank,
            long[] gsizes,
            Distribution[] distribs,
            long[] dargs,
            long[] psizes,
            Order order,
            Datatype old) {
        String op = "darray";
        Checks.notNull(op, "gsizes", gsizes);
        Checks.notNull(op, "distribs", distribs);
        Checks.notNull(op, "dargs", dargs);
        Checks.notNull(op, "psizes", psizes);
        Checks.notNull(op, "order", order);
        Checks.notNull(op, "oldType", old);
        Checks.positive(op, "size", size);
        if (rank < 0 || rank >= size) {
            throw Checks.invalid(op, "rank", rank, "0 <= rank < size " + size);
        }
        int n = gsizes.length;
        if (distribs.length != n || dargs.length != n || psizes.length != n) {
            throw new IllegalArgumentException("darray: gsizes, distribs, dargs and psizes lengths " + n + ", "
                    + distribs.length + ", " + dargs.length + ", " + psizes.length + " (expected: all equal)");
        }
        if (n < 1 || n > TypeLimits.MAX_DIMS) {
            throw Checks.invalid(op, "ndims", n, "1.." + TypeLimits.MAX_DIMS);
        }
        long procs = 1;
        for (int i = 0; i < n; i++) {
            if (gsizes[i] < 1) {
                throw Checks.invalid(op, "gsizes[" + i + "]", gsizes[i], ">= 1");
            }
            if (psizes[i] < 1) {
                throw Checks.invalid(op, "psizes[" + i + "]", psizes[i], ">= 1");
            }
            if (distribs[i] == null) {
                throw new NullPointerException("darray: distribs[" + i + "] is null");
            }
            procs = Checks.mul(op, procs, psizes[i]);
            if (dargs[i] != Datatype.DEFAULT_DARG && dargs[i] <= 0) {
                throw Checks.invalid(op, "dargs[" + i + "]", dargs[i], "> 0 or default");
            }
            switch (distribs[i]) {
                case NONE -> {
                    if (psizes[i] != 1) {
                        throw Checks.invalid(op, "psizes[" + i + "]", psizes[i], "1 for distribution none");
                    }
                }
                case BLOCK -> {
                    if (dargs[i] != Datatype.DEFAULT_DARG && Checks.mul(op, dargs[i], psizes[i]) < gsizes[i]) {
                        throw Checks.invalid(
                                op,
                                "dargs[" + i + "]*psizes[" + i + "]",
                                dargs[i] * psizes[i],
                                ">= gsizes[" + i + "] " + gsizes[i]);
                    }
                }
                case CYCLIC -> {}
            }
        }
        if (procs != size) {
            throw Checks.invalid(op, "product of psizes", procs, "equal to size " + size);
        }
        Subarray.product(op, gsizes, old);
        // Process coordinates: row-major over psizes, whatever the array order (MPI 4.1, 5.1.4).
        long[] coords = new long[n];
        long rest = rank;
        long remaining = size;
        for (int i = 0; i < n; i++) {
            remaining /= psizes[i];
            coords[i] = rest / remaining;
            rest %= remaining;
        }
        int[] dims = Subarray.fastestFirst(n, order);
        long ext = old.extent();
        long elemStride = 1;
        long disp = 0;
        Datatype inner = old;
        for (int k = 0; k < n; k++) {
            int d = dims[k];
            long rowStride = Checks.mul(op, elemStride, ext);
            long g = gsizes[d];
            long p = psizes[d];
            long c = coords[d];
            Distribution dist = distribs[d];
            if (dist == Distribution.NONE) {
                dist = Distribution.BLOCK;
            }
            if (dist == Distribution.BLOCK) {
                long blk = dargs[d] == Datatype.DEFAULT_DARG || distribs[d] == Distribution.NONE
                        ? (g + p - 1) / p
                        : dargs[d];
                long mysize = Math.max(0, Math.min(blk, g - Checks.mul(op, blk, c)));
                long start = mysize == 0 ? 0 : blk * c;
                inner = run(mysize, rowStride, inner, k == 0);
                disp = Checks.add(op, disp, Checks.mul(op, start, rowStride));
            } else {
                long blk = dargs[d] == Datatype.DEFAULT_DARG ? 1 : dargs[d];
                long stIndex = Checks.mul(op, c, blk);
                long local;
                if (g - 1 < stIndex) {
                    local = 0;
                } else {
                    long span = Checks.mul(op, p, blk);
                    local = ((g - stIndex) / span) * blk + Math.min((g - stIndex) % span, blk);
                }
                long count = local / blk;
                long rem = local % blk;
                long cycle = Checks.mul(op, Checks.mul(op, p, blk), rowStride);
                Datatype full = Datatype.hvector(count, 1, cycle, run(blk, rowStride, inner, k == 0));
                if (rem == 0) {
                    inner = full;
                } else {
                    Datatype last = run(rem, rowStride, inner, k == 0);
                    long lastDisp = Checks.mul(op, count, cycle);
                    inner = count == 0
                            ? Datatype.hindexedBlock(1, new long[] {lastDisp}, last)
                            : Datatype.struct(new long[] {1, 1}, new long[] {0, lastDisp}, List.of(full, last));
                }
                if (local > 0) {
                    disp = Checks.add(op, disp, Checks.mul(op, stIndex, rowStride));
                }
            }
            elemStride = Checks.mul(op, elemStride, g);
        }
        return disp == 0 ? inner : Datatype.hindexedBlock(1, new long[] {disp}, inner);
    }

    /** {@code n} consecutive rows of {@code inner}, {@code rowStride} bytes apart. */
    private static Datatype run(long n, long rowStride, Datatype inner, boolean fastest) {
        return fastest ? Datatype.contiguous(n, inner) : Datatype.hvector(n, 1, rowStride, inner);
    }

    public long size() {
        return size;
    }

    public long rank() {
        return rank;
    }

    public long[] gsizes() {
        return gsizes.clone();
    }

    public Distribution[] distribs() {
        return distribs.clone();
    }

    public long[] dargs() {
        return dargs.clone();
    }

    public long[] psizes() {
        return psizes.clone();
    }

    public Order order() {
        return order;
    }

    public Datatype oldType() {
        return oldType;
    }

    /** The same data positions built from contig/hvector/hindexed_block/struct, without darray's markers. */
    public Datatype lowered() {
        return lowered;
    }

    @Override
    public Combiner combiner() {
        return Combiner.DARRAY;
    }

    @Override
    public Envelope envelope() {
        List<Long> ints = new java.util.ArrayList<>();
        ints.add(size);
        ints.add(rank);
        ints.add((long) gsizes.length);
        for (long v : gsizes) ints.add(v);
        for (Distribution v : distribs) ints.add(v.mpiCode());
        for (long v : dargs) ints.add(v);
        for (long v : psizes) ints.add(v);
        ints.add(order.mpiCode());
        return new Envelope(Combiner.DARRAY, ints, List.of(), List.of(oldType));
    }

    @Override
    public List<Datatype> children() {
        return List.of(oldType);
    }

    @Override
    boolean sameArguments(DerivedType o) {
        Darray x = (Darray) o;
        return size == x.size
                && rank == x.rank
                && Arrays.equals(gsizes, x.gsizes)
                && Arrays.equals(distribs, x.distribs)
                && Arrays.equals(dargs, x.dargs)
                && Arrays.equals(psizes, x.psizes)
                && order == x.order
                && oldType.equals(x.oldType);
    }

    @Override
    int argumentHash() {
        return Arrays.hashCode(new long[] {size, rank}) * 31
                + Arrays.hashCode(gsizes) * 17
                + Arrays.hashCode(distribs) * 13
                + Arrays.hashCode(dargs) * 11
                + Arrays.hashCode(psizes) * 7
                + order.hashCode()
                + oldType.hashCode() * 3;
    }
}
