package dev.layout.naming;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Cartesian naming of ranks: {@code d} dimensions with sizes, periodicity and a rank order.
 *
 * <p>A naming is a description (immutable, value equality). It implies no neighbourhood and never
 * reorders ranks; it only maps ranks to points of the grid and back. Ranks at or beyond {@link
 * #size()} have no name: their coordinates are empty and relative queries answer {@link
 * #PROC_NULL}. Periodic dimensions wrap; a coordinate outside a non-periodic dimension gives
 * {@link #PROC_NULL}, never a partly computed rank.
 *
 * <pre>{@code
 * CartesianNaming grid = CartesianNaming.of(new int[] {4, 4}, new boolean[] {true, false}, RankOrder.C);
 * grid.coordinates(5);                           // [1, 1]
 * grid.relative(5, new int[] {-2, 0});           // rank of (3, 1) = 13: dimension 0 wraps
 * grid.relative(5, new int[] {0, 3});            // PROC_NULL: dimension 1 is not periodic
 * grid.relativeShift(5, new int[] {1, 0});       // in 1, out 9, as MPI_Cart_shift(dim 0, +1)
 * }</pre>
 */
public final class CartesianNaming {

    /** The rank of no process, as {@code MPI_PROC_NULL}. */
    public static final int PROC_NULL = -1;

    private final int[] sizes;
    private final boolean[] periods;
    /** Dimensions from the slowest to the fastest varying. */
    private final int[] slowToFast;
    /** Rank stride of each dimension. */
    private final int[] strides;

    private final int size;
    private final RankOrder order;

    private CartesianNaming(int[] sizes, boolean[] periods, int[] slowToFast, RankOrder order) {
        this.sizes = sizes;
        this.periods = periods;
        this.slowToFast = slowToFast;
        this.order = order;
        this.strides = new int[sizes.length];
        long stride = 1;
        for (int k = slowToFast.length - 1; k >= 0; k--) {
            int dim = slowToFast[k];
            strides[dim] = (int) stride;
            stride *= sizes[dim];
        }
        this.size = (int) stride;
    }

    /**
     * Names a grid in order C or F.
     *
     * @throws IllegalArgumentException if there are no dimensions, a size is below 1, the arrays
     *     differ in length or the grid has more than {@code Integer.MAX_VALUE} points
     */
    public static CartesianNaming of(int[] sizes, boolean[] periods, RankOrder order) {
        if (order == null) {
            throw new IllegalArgumentException("cartName: order null (expected: C or F)");
        }
        int d = checkShape(sizes, periods);
        int[] slowToFast = new int[d];
        for (int k = 0; k < d; k++) {
            slowToFast[k] = order == RankOrder.C ? k : d - 1 - k;
        }
        return new CartesianNaming(sizes.clone(), periods.clone(), slowToFast, order);
    }

    /**
     * Names a grid whose ranks enumerate the dimensions in the order of {@code slowToFast}: its first
     * entry is the slowest varying dimension, its last the fastest. {@code [0, 1, ..., d-1]} is order
     * C and its reverse is order F.
     *
     * @throws IllegalArgumentException if {@code slowToFast} is not a permutation of {@code 0..d-1},
     *     or for the conditions of {@link #of}
     */
    public static CartesianNaming withPermutation(int[] sizes, boolean[] periods, int[] slowToFast) {
        int d = checkShape(sizes, periods);
        if (slowToFast == null || slowToFast.length != d) {
            throw new IllegalArgumentException("cartName: permutation length "
                    + (slowToFast == null ? "null" : slowToFast.length)
                    + " (expected: d = "
                    + d
                    + ")");
        }
        boolean[] seen = new boolean[d];
        for (int k = 0; k < d; k++) {
            int dim = slowToFast[k];
            if (dim < 0 || dim >= d || seen[dim]) {
                throw new IllegalArgumentException("cartName: permutation "
                        + Arrays.toString(slowToFast)
                        + " (expected: a permutation of 0.."
                        + (d - 1)
                        + ")");
            }
            seen[dim] = true;
        }
        RankOrder order = null;
        boolean isC = true;
        boolean isF = true;
        for (int k = 0; k < d; k++) {
            isC &= slowToFast[k] == k;
            isF &= slowToFast[k] == d - 1 - k;
        }
        if (isC) {
            order = RankOrder.C;
        } else if (isF) {
            order = RankOrder.F;
        }
        return new CartesianNaming(sizes.clone(), periods.clone(), slowToFast.clone(), order);
    }

    private static int checkShape(int[] sizes, boolean[] periods) {
        if (sizes == null || sizes.length == 0) {
            throw new IllegalArgumentException("cartName: d " + (sizes == null ? "null" : "0") + " (expected: >= 1)");
        }
        if (periods == null || periods.length != sizes.length) {
            throw new IllegalArgumentException("cartName: periods length "
                    + (periods == null ? "null" : periods.length)
                    + " (expected: d = "
                    + sizes.length
                    + ")");
        }
        long total = 1;
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] < 1) {
                throw new IllegalArgumentException("cartName: sizes[" + i + "] " + sizes[i] + " (expected: >= 1)");
            }
            total *= sizes[i];
            if (total > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(
                        "cartName: grid size " + Arrays.toString(sizes) + " (expected: product <= 2^31-1)");
            }
        }
        return sizes.length;
    }

    /** Number of dimensions. */
    public int d() {
        return sizes.length;
    }

    /** Sizes of the dimensions (a copy). */
    public int[] sizes() {
        return sizes.clone();
    }

    /** The size of dimension {@code dim}. */
    public int size(int dim) {
        return sizes[checkDim(dim)];
    }

    /** Periodicity of the dimensions (a copy). */
    public boolean[] periods() {
        return periods.clone();
    }

    /** Whether dimension {@code dim} wraps around. */
    public boolean isPeriodic(int dim) {
        return periods[checkDim(dim)];
    }

    /** Whether every dimension wraps around. */
    public boolean isFullyPeriodic() {
        for (boolean p : periods) {
            if (!p) {
                return false;
            }
        }
        return true;
    }

    /** The dimensions from the slowest to the fastest varying (a copy). */
    public int[] permutation() {
        return slowToFast.clone();
    }

    /** C or F, or null when the naming was given a permutation that is neither. */
    public RankOrder order() {
        return order;
    }

    /** The number of named ranks: the product of the sizes. */
    public int size() {
        return size;
    }

    /** Whether {@code rank} has a name (0 <= rank < size()). */
    public boolean isNamed(int rank) {
        return rank >= 0 && rank < size;
    }

    /**
     * The coordinates of {@code rank}; empty for {@link #PROC_NULL} and for ranks at or beyond
     * {@link #size()}.
     *
     * @throws IllegalArgumentException if rank is negative and not PROC_NULL
     */
    public int[] coordinates(int rank) {
        checkRank("coordinates", rank);
        if (!isNamed(rank)) {
            return new int[0];
        }
        int[] c = new int[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            c[i] = (rank / strides[i]) % sizes[i];
        }
        return c;
    }

    /**
     * The rank at {@code coordinates}: periodic dimensions wrap, a coordinate outside a non-periodic
     * dimension gives {@link #PROC_NULL}.
     *
     * @throws IllegalArgumentException if the number of coordinates is not d
     */
    public int rank(int... coordinates) {
        checkVector("rank", "coordinates", coordinates);
        long r = 0;
        for (int i = 0; i < sizes.length; i++) {
            int c = coordinates[i];
            if (periods[i]) {
                c = Math.floorMod(c, sizes[i]);
            } else if (c < 0 || c >= sizes[i]) {
                return PROC_NULL;
            }
            r += (long) c * strides[i];
        }
        return (int) r;
    }

    /**
     * The rank at {@code coordinates(source) + offset}, or {@link #PROC_NULL} off a non-periodic
     * border or when source has no name.
     */
    public int relative(int source, int[] offset) {
        checkRank("relative", source);
        checkVector("relative", "offset", offset);
        if (!isNamed(source)) {
            return PROC_NULL;
        }
        long r = 0;
        for (int i = 0; i < sizes.length; i++) {
            long c = (long) ((source / strides[i]) % sizes[i]) + offset[i];
            if (periods[i]) {
                c = Math.floorMod(c, (long) sizes[i]);
            } else if (c < 0 || c >= sizes[i]) {
                return PROC_NULL;
            }
            r += c * strides[i];
        }
        return (int) r;
    }

    /**
     * {@code coordinates(dest) - coordinates(source)}, the plain difference (see {@link
     * #canonicalOffset} to reduce it on periodic dimensions); empty if either rank has no name.
     */
    public int[] relativeCoordinates(int source, int dest) {
        int[] s = coordinates(source);
        int[] t = coordinates(dest);
        if (s.length == 0 || t.length == 0) {
            return new int[0];
        }
        for (int i = 0; i < t.length; i++) {
            t[i] -= s[i];
        }
        return t;
    }

    /**
     * The representative of {@code offset} that every rank agrees on: on periodic dimensions the
     * value modulo the size in {@code [-(size-1)/2, size/2]}, unchanged on the others. Two offsets
     * reach the same rank from every named rank exactly when their canonical forms are equal.
     */
    public int[] canonicalOffset(int[] offset) {
        checkVector("canonicalOffset", "offset", offset);
        int[] c = offset.clone();
        for (int i = 0; i < c.length; i++) {
            if (periods[i]) {
                int s = sizes[i];
                int m = Math.floorMod(c[i], s);
                c[i] = m > s / 2 ? m - s : m;
            }
        }
        return c;
    }

    /**
     * (inRank, outRank) = (relative(rank, -offset), relative(rank, offset)). Along a principal axis
     * this is {@code MPI_Cart_shift}.
     */
    public Shift relativeShift(int rank, int[] offset) {
        checkVector("relativeShift", "offset", offset);
        int[] negated = new int[offset.length];
        for (int i = 0; i < offset.length; i++) {
            negated[i] = -offset[i];
        }
        return new Shift(relative(rank, negated), relative(rank, offset));
    }

    /** The result of {@link #relativeShift}: where data comes from and where it goes. */
    public record Shift(int inRank, int outRank) {}

    /** {@link #rank} of each coordinate vector, PROC_NULL kept in place. */
    public int[] allRanks(List<int[]> coordinates) {
        int[] ranks = new int[coordinates.size()];
        for (int k = 0; k < ranks.length; k++) {
            ranks[k] = rank(coordinates.get(k));
        }
        return ranks;
    }

    /** {@link #relative} of {@code source} and each offset, PROC_NULL kept in place. */
    public int[] allRanksRelative(int source, List<int[]> offsets) {
        int[] ranks = new int[offsets.size()];
        for (int k = 0; k < ranks.length; k++) {
            ranks[k] = relative(source, offsets.get(k));
        }
        return ranks;
    }

    /**
     * The sub-grid colour of {@code rank} for {@code createSub(keep)}: ranks with equal colour share
     * the coordinates of every dropped dimension ({@code keep[i] == false}). Returns -1 for ranks
     * without a name. Communicators split by this colour (keeping the relative rank order) are the
     * sub-grids of {@code MPI_Cart_sub}.
     */
    public int subColor(int rank, boolean[] keep) {
        checkKeep(keep);
        int[] c = coordinates(rank);
        if (c.length == 0) {
            return -1;
        }
        long color = 0;
        for (int dim : slowToFast) {
            if (!keep[dim]) {
                color = color * sizes[dim] + c[dim];
            }
        }
        return (int) color;
    }

    /**
     * The naming of a sub-grid of {@code createSub(keep)}: the kept dimensions with their sizes,
     * periods and relative order. Imposed on a sub-communicator, every rank keeps its coordinates in
     * the kept dimensions. The sub-communicator itself carries no naming.
     *
     * @throws IllegalArgumentException if keep has the wrong length or keeps nothing
     */
    public CartesianNaming sub(boolean[] keep) {
        checkKeep(keep);
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < keep.length; i++) {
            if (keep[i]) {
                kept.add(i);
            }
        }
        if (kept.isEmpty()) {
            throw new IllegalArgumentException(
                    "createSub: keep " + Arrays.toString(keep) + " (expected: at least one true)");
        }
        int[] s = new int[kept.size()];
        boolean[] p = new boolean[kept.size()];
        for (int k = 0; k < s.length; k++) {
            s[k] = sizes[kept.get(k)];
            p[k] = periods[kept.get(k)];
        }
        int[] perm = new int[s.length];
        int n = 0;
        for (int dim : slowToFast) {
            if (keep[dim]) {
                perm[n++] = kept.indexOf(dim);
            }
        }
        return withPermutation(s, p, perm);
    }

    private void checkKeep(boolean[] keep) {
        if (keep == null || keep.length != sizes.length) {
            throw new IllegalArgumentException("createSub: keep length "
                    + (keep == null ? "null" : keep.length)
                    + " (expected: d = "
                    + sizes.length
                    + ")");
        }
    }

    private int checkDim(int dim) {
        if (dim < 0 || dim >= sizes.length) {
            throw new IllegalArgumentException(
                    "cartName: dimension " + dim + " (expected: 0.." + (sizes.length - 1) + ")");
        }
        return dim;
    }

    private static void checkRank(String op, int rank) {
        if (rank < 0 && rank != PROC_NULL) {
            throw new IllegalArgumentException(op + ": rank " + rank + " (expected: >= 0 or PROC_NULL)");
        }
    }

    private void checkVector(String op, String arg, int[] v) {
        if (v == null || v.length != sizes.length) {
            throw new IllegalArgumentException(op
                    + ": "
                    + arg
                    + " length "
                    + (v == null ? "null" : v.length)
                    + " (expected: d = "
                    + sizes.length
                    + ")");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CartesianNaming n
                && Arrays.equals(sizes, n.sizes)
                && Arrays.equals(periods, n.periods)
                && Arrays.equals(slowToFast, n.slowToFast);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(sizes) + Arrays.hashCode(periods)) + Arrays.hashCode(slowToFast);
    }

    /** For example {@code cart([4,4], periods [1,0], C)}. */
    @Override
    public String toString() {
        StringBuilder sb =
                new StringBuilder("cart(").append(Arrays.toString(sizes).replace(" ", ""));
        sb.append(", periods [");
        for (int i = 0; i < periods.length; i++) {
            sb.append(i == 0 ? "" : ",").append(periods[i] ? 1 : 0);
        }
        sb.append("], ");
        sb.append(order != null ? order.name() : Arrays.toString(slowToFast).replace(" ", ""));
        return sb.append(')').toString();
    }
}
