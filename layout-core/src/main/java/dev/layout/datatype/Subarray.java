package dev.layout.datatype;

import java.util.Arrays;
import java.util.List;

/**
 * {@code subarray(sizes, subsizes, starts, order, old)}: a sub-block of an n-dimensional array of old
 * elements. Its markers are at 0 and at the whole array's extent; the old type's markers do not
 * survive (MPI defines subarray over the old type's basic entries only).
 */
public final class Subarray extends DerivedType {
    private final long[] sizes;
    private final long[] subsizes;
    private final long[] starts;
    private final Order order;
    private final Datatype oldType;
    private final Datatype lowered;

    Subarray(long[] sizes, long[] subsizes, long[] starts, Order order, Datatype oldType) {
        this(sizes, subsizes, starts, order, oldType, lower(sizes, subsizes, starts, order, oldType));
    }

    private Subarray(long[] sizes, long[] subsizes, long[] starts, Order order, Datatype oldType, Datatype lowered) {
        super(
                "subarray",
                markedProps("subarray", lowered, product("subarray", sizes, oldType)),
                lowered.isDense(),
                List.of(oldType));
        this.sizes = sizes.clone();
        this.subsizes = subsizes.clone();
        this.starts = starts.clone();
        this.order = order;
        this.oldType = oldType;
        this.lowered = lowered;
    }

    static long product(String op, long[] dims, Datatype old) {
        long p = old.extent();
        for (long d : dims) {
            p = Checks.mul(op, p, d);
        }
        return p;
    }

    static Props markedProps(String op, Datatype lowered, long extent) {
        Props p = new Props();
        p.size = lowered.byteSize();
        p.trueLb = lowered.trueLb();
        p.trueUb = lowered.trueUb();
        p.marked = true;
        p.lb = 0;
        p.ub = extent;
        p.alignment = lowered.alignment();
        p.homogeneous = lowered.homogeneousPrimitive();
        return p;
    }

    private static Datatype lower(long[] sizes, long[] subsizes, long[] starts, Order order, Datatype old) {
        String op = "subarray";
        Checks.notNull(op, "sizes", sizes);
        Checks.notNull(op, "subsizes", subsizes);
        Checks.notNull(op, "starts", starts);
        Checks.notNull(op, "order", order);
        Checks.notNull(op, "oldType", old);
        int n = sizes.length;
        if (subsizes.length != n || starts.length != n) {
            throw new IllegalArgumentException("subarray: sizes, subsizes and starts lengths " + n + ", "
                    + subsizes.length + ", " + starts.length + " (expected: all equal)");
        }
        if (n < 1 || n > TypeLimits.MAX_DIMS) {
            throw Checks.invalid(op, "ndims", n, "1.." + TypeLimits.MAX_DIMS);
        }
        for (int i = 0; i < n; i++) {
            if (sizes[i] < 1) {
                throw Checks.invalid(op, "sizes[" + i + "]", sizes[i], ">= 1");
            }
            if (subsizes[i] < 1 || subsizes[i] > sizes[i]) {
                throw Checks.invalid(
                        op,
                        "subsizes[" + i + "]",
                        subsizes[i],
                        "1 <= subsizes[" + i + "] <= sizes[" + i + "] " + sizes[i]);
            }
            if (starts[i] < 0) {
                throw Checks.invalid(op, "starts[" + i + "]", starts[i], ">= 0");
            }
            if (starts[i] + subsizes[i] > sizes[i]) {
                throw Checks.invalid(
                        op,
                        "starts[" + i + "]+subsizes[" + i + "]",
                        starts[i] + subsizes[i],
                        "<= sizes[" + i + "] " + sizes[i]);
            }
        }
        product(op, sizes, old);
        int[] dims = fastestFirst(n, order);
        long ext = old.extent();
        long elemStride = 1;
        long disp = 0;
        Datatype inner = null;
        for (int k = 0; k < n; k++) {
            int d = dims[k];
            long byteStride = Checks.mul(op, elemStride, ext);
            inner = k == 0
                    ? Datatype.contiguous(subsizes[d], old)
                    : Datatype.hvector(subsizes[d], 1, byteStride, inner);
            disp = Checks.add(op, disp, Checks.mul(op, starts[d], byteStride));
            elemStride = Checks.mul(op, elemStride, sizes[d]);
        }
        return disp == 0 ? inner : Datatype.hindexedBlock(1, new long[] {disp}, inner);
    }

    /** Dimension indices from the fastest varying to the slowest. */
    static int[] fastestFirst(int n, Order order) {
        int[] dims = new int[n];
        for (int k = 0; k < n; k++) {
            dims[k] = order == Order.C ? n - 1 - k : k;
        }
        return dims;
    }

    public long[] sizes() {
        return sizes.clone();
    }

    public long[] subsizes() {
        return subsizes.clone();
    }

    public long[] starts() {
        return starts.clone();
    }

    public Order order() {
        return order;
    }

    public Datatype oldType() {
        return oldType;
    }

    /**
     * The same data positions built from contig/hvector/hindexed_block (the type map without the
     * subarray's markers): what the dataloop compiler processes.
     */
    public Datatype lowered() {
        return lowered;
    }

    @Override
    public Combiner combiner() {
        return Combiner.SUBARRAY;
    }

    @Override
    public Envelope envelope() {
        List<Long> ints = new java.util.ArrayList<>();
        ints.add((long) sizes.length);
        for (long v : sizes) ints.add(v);
        for (long v : subsizes) ints.add(v);
        for (long v : starts) ints.add(v);
        ints.add(order.mpiCode());
        return new Envelope(Combiner.SUBARRAY, ints, List.of(), List.of(oldType));
    }

    @Override
    public List<Datatype> children() {
        return List.of(oldType);
    }

    @Override
    boolean sameArguments(DerivedType o) {
        Subarray s = (Subarray) o;
        return Arrays.equals(sizes, s.sizes)
                && Arrays.equals(subsizes, s.subsizes)
                && Arrays.equals(starts, s.starts)
                && order == s.order
                && oldType.equals(s.oldType);
    }

    @Override
    int argumentHash() {
        return ((Arrays.hashCode(sizes) * 31 + Arrays.hashCode(subsizes)) * 31 + Arrays.hashCode(starts)) * 31
                + order.hashCode() * 7
                + oldType.hashCode();
    }
}
