package dev.layout.naming;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Stencil neighbourhoods on a {@link CartesianNaming}, as {@code Cart_neighbors} and {@code
 * Cart_neighbors_count} of the orthogonality paper.
 *
 * <p>A neighbourhood is the list of relative offsets {@code v} with {@code shadow <= dist(v) <=
 * depth} under a {@link Metric} (shadow 0 keeps the rank itself). The generation order is fixed:
 * the offsets of the cube {@code [-depth, depth]^d} enumerated with dimension 0 varying fastest,
 * filtered by the metric. Callers may permute the list into any order that fits their buffers
 * before creating a graph from it.
 *
 * <pre>{@code
 * Neighborhoods.offsets(2, Metric.CHEBYSHEV, 1, 1);
 * // (-1,-1) (0,-1) (1,-1) (-1,0) (1,0) (-1,1) (0,1) (1,1)
 * Neighborhoods.on(naming).neighborRanks(5, Metric.CHEBYSHEV, 1, 1); // drops PROC_NULL
 * }</pre>
 */
public final class Neighborhoods {

    private final CartesianNaming naming;

    private Neighborhoods(CartesianNaming naming) {
        this.naming = naming;
    }

    /** Neighbourhoods on the grid of {@code naming}. */
    public static Neighborhoods on(CartesianNaming naming) {
        if (naming == null) {
            throw new IllegalArgumentException("neighbors: naming null (expected: a CartesianNaming)");
        }
        return new Neighborhoods(naming);
    }

    /** One generated neighbour: its relative offset and its rank, PROC_NULL off a border. */
    public record Neighbor(int[] offset, int rank) {
        public Neighbor {
            offset = offset.clone();
        }

        @Override
        public int[] offset() {
            return offset.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Neighbor n && n.rank == rank && java.util.Arrays.equals(n.offset, offset);
        }

        @Override
        public int hashCode() {
            return 31 * java.util.Arrays.hashCode(offset) + rank;
        }

        @Override
        public String toString() {
            return formatOffset(offset) + " " + (rank == CartesianNaming.PROC_NULL ? "null" : rank);
        }
    }

    /**
     * The relative offsets of the neighbourhood in generation order, independent of any rank.
     *
     * @throws IllegalArgumentException if d < 1, shadow < 0 or depth < shadow
     */
    public static List<int[]> offsets(int d, Metric metric, int shadow, int depth) {
        check(d, metric, shadow, depth);
        List<int[]> out = new ArrayList<>();
        int[] v = new int[d];
        java.util.Arrays.fill(v, -depth);
        while (true) {
            int dist = metric.distance(v);
            if (dist >= shadow && dist <= depth) {
                out.add(v.clone());
            }
            int i = 0;
            while (i < d && v[i] == depth) {
                v[i] = -depth;
                i++;
            }
            if (i == d) {
                break;
            }
            v[i]++;
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Every offset of the neighbourhood of {@code rank} in generation order with the neighbour's
     * rank, PROC_NULL where it falls off a non-periodic border.
     */
    public List<Neighbor> neighbors(int rank, Metric metric, int shadow, int depth) {
        List<Neighbor> out = new ArrayList<>();
        for (int[] v : offsets(naming.d(), metric, shadow, depth)) {
            out.add(new Neighbor(v, naming.relative(rank, v)));
        }
        return Collections.unmodifiableList(out);
    }

    /** The offsets of the neighbours that exist for {@code rank}, in generation order. */
    public List<int[]> existingOffsets(int rank, Metric metric, int shadow, int depth) {
        List<int[]> out = new ArrayList<>();
        for (int[] v : offsets(naming.d(), metric, shadow, depth)) {
            if (naming.relative(rank, v) != CartesianNaming.PROC_NULL) {
                out.add(v);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * The ranks of the neighbours that exist for {@code rank}, in generation order, PROC_NULL
     * dropped: the list to give to graph creation.
     */
    public int[] neighborRanks(int rank, Metric metric, int shadow, int depth) {
        return offsets(naming.d(), metric, shadow, depth).stream()
                .mapToInt(v -> naming.relative(rank, v))
                .filter(r -> r != CartesianNaming.PROC_NULL)
                .toArray();
    }

    /** The number of neighbours that exist for {@code rank} (PROC_NULL not counted). */
    public int neighborsCount(int rank, Metric metric, int shadow, int depth) {
        return neighborRanks(rank, metric, shadow, depth).length;
    }

    /**
     * The neighbourhood size on a periodic grid, by formula: Chebyshev {@code (2*depth+1)^d -
     * (2*shadow-1)^d} (shadow >= 1), Manhattan {@code M(depth) - M(shadow-1)} with {@code M(r) =
     * sum_k 2^k C(d,k) C(r,k)} the size of the L1 ball, Axis {@code 2d(depth-shadow+1)} (plus one
     * for shadow 0).
     */
    public static long periodicCount(int d, Metric metric, int shadow, int depth) {
        check(d, metric, shadow, depth);
        return switch (metric) {
            case CHEBYSHEV -> pow(2L * depth + 1, d) - (shadow == 0 ? 0 : pow(2L * shadow - 1, d));
            case MANHATTAN -> manhattanBall(d, depth) - (shadow == 0 ? 0 : manhattanBall(d, shadow - 1));
            case AXIS -> 2L * d * (depth - Math.max(shadow, 1) + 1) + (shadow == 0 ? 1 : 0);
        };
    }

    private static long manhattanBall(int d, int r) {
        long total = 0;
        for (int k = 0; k <= Math.min(d, r); k++) {
            total += pow(2, k) * binomial(d, k) * binomial(r, k);
        }
        return total;
    }

    private static long binomial(int n, int k) {
        long b = 1;
        for (int i = 1; i <= k; i++) {
            b = b * (n - k + i) / i;
        }
        return b;
    }

    private static long pow(long b, int e) {
        long r = 1;
        for (int i = 0; i < e; i++) {
            r = Math.multiplyExact(r, b);
        }
        return r;
    }

    private static void check(int d, Metric metric, int shadow, int depth) {
        if (d < 1) {
            throw new IllegalArgumentException("neighbors: d " + d + " (expected: >= 1)");
        }
        if (metric == null) {
            throw new IllegalArgumentException("neighbors: metric null (expected: CHEBYSHEV, MANHATTAN or AXIS)");
        }
        if (shadow < 0) {
            throw new IllegalArgumentException("neighbors: shadow " + shadow + " (expected: >= 0)");
        }
        if (depth < shadow) {
            throw new IllegalArgumentException("neighbors: depth " + depth + " (expected: >= shadow " + shadow + ")");
        }
    }

    /** Formats an offset as the comma-separated coordinates, e.g. {@code -1,1}. */
    public static String formatOffset(int[] offset) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < offset.length; i++) {
            sb.append(i == 0 ? "" : ",").append(offset[i]);
        }
        return sb.toString();
    }
}
