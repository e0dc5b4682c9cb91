package dev.layout.naming;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class NamingPropertyTest {

    @Provide
    Arbitrary<CartesianNaming> namings() {
        Arbitrary<Integer> d = Arbitraries.integers().between(1, 4);
        return d.flatMap(dim -> {
            Arbitrary<int[]> sizes =
                    Arbitraries.integers().between(1, 4).array(int[].class).ofSize(dim);
            Arbitrary<boolean[]> periods =
                    Arbitraries.of(true, false).list().ofSize(dim).map(NamingPropertyTest::toArray);
            Arbitrary<List<Integer>> perm = Arbitraries.shuffle(range(dim));
            return Combinators.combine(sizes, periods, perm)
                    .as((s, p, q) -> CartesianNaming.withPermutation(
                            s, p, q.stream().mapToInt(i -> i).toArray()));
        });
    }

    private static List<Integer> range(int d) {
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < d; i++) {
            l.add(i);
        }
        return l;
    }

    private static boolean[] toArray(List<Boolean> l) {
        boolean[] b = new boolean[l.size()];
        for (int i = 0; i < b.length; i++) {
            b[i] = l.get(i);
        }
        return b;
    }

    /** All coordinate vectors of the grid, brute force. */
    private static List<int[]> allPoints(int[] sizes) {
        List<int[]> out = new ArrayList<>();
        int[] c = new int[sizes.length];
        while (true) {
            out.add(c.clone());
            int i = 0;
            while (i < sizes.length && ++c[i] == sizes[i]) {
                c[i] = 0;
                i++;
            }
            if (i == sizes.length) {
                return out;
            }
        }
    }

    @Property(tries = 200)
    void rankIsABijectionOntoTheGrid(@ForAll("namings") CartesianNaming n) {
        boolean[] seen = new boolean[n.size()];
        for (int[] c : allPoints(n.sizes())) {
            int r = n.rank(c);
            assertThat(r).isBetween(0, n.size() - 1);
            assertThat(seen[r]).isFalse();
            seen[r] = true;
            assertThat(n.coordinates(r)).containsExactly(c);
        }
    }

    @Property(tries = 200)
    void fastestDimensionHasStrideOne(@ForAll("namings") CartesianNaming n) {
        int[] perm = n.permutation();
        int fastest = perm[perm.length - 1];
        int[] c = new int[n.d()];
        if (n.size(fastest) > 1) {
            c[fastest] = 1;
            assertThat(n.rank(c)).isEqualTo(1);
        }
    }

    @Property(tries = 200)
    void relativeAgreesWithCoordinateArithmetic(
            @ForAll("namings") CartesianNaming n,
            @ForAll @IntRange(min = -5, max = 5) int a,
            @ForAll @IntRange(min = -5, max = 5) int b) {
        int[] offset = new int[n.d()];
        offset[0] = a;
        offset[n.d() - 1] += b;
        for (int r = 0; r < n.size(); r++) {
            int[] c = n.coordinates(r);
            int[] target = c.clone();
            boolean off = false;
            for (int i = 0; i < c.length; i++) {
                target[i] += offset[i];
                if (!n.isPeriodic(i) && (target[i] < 0 || target[i] >= n.size(i))) {
                    off = true;
                }
            }
            int expected = off ? CartesianNaming.PROC_NULL : n.rank(target);
            assertThat(n.relative(r, offset)).isEqualTo(expected);
            CartesianNaming.Shift s = n.relativeShift(r, offset);
            assertThat(s.outRank()).isEqualTo(expected);
            if (s.inRank() != CartesianNaming.PROC_NULL) {
                assertThat(n.relative(s.inRank(), offset)).isEqualTo(r);
            }
            // the canonical offset reaches the same rank
            assertThat(n.relative(r, n.canonicalOffset(offset))).isEqualTo(expected);
        }
    }

    @Property(tries = 100)
    void subGridsKeepCoordinatesAndRelativeOrder(@ForAll("namings") CartesianNaming n, @ForAll long seed) {
        boolean[] keep = new boolean[n.d()];
        java.util.Random random = new java.util.Random(seed);
        for (int i = 0; i < keep.length; i++) {
            keep[i] = random.nextBoolean();
        }
        keep[random.nextInt(keep.length)] = true;
        CartesianNaming sub = n.sub(keep);
        java.util.Map<Integer, List<Integer>> byColor = new java.util.TreeMap<>();
        for (int r = 0; r < n.size(); r++) {
            byColor.computeIfAbsent(n.subColor(r, keep), k -> new ArrayList<>()).add(r);
        }
        for (List<Integer> members : byColor.values()) {
            assertThat(members).hasSize(sub.size());
            for (int subRank = 0; subRank < members.size(); subRank++) {
                int[] full = n.coordinates(members.get(subRank));
                int[] kept = new int[sub.d()];
                int k = 0;
                for (int i = 0; i < full.length; i++) {
                    if (keep[i]) {
                        kept[k++] = full[i];
                    }
                }
                assertThat(sub.coordinates(subRank)).as(Arrays.toString(full)).containsExactly(kept);
            }
        }
    }

    @Property(tries = 200)
    void neighbourhoodsMatchBruteForceFilterAndCounts(
            @ForAll @IntRange(min = 1, max = 3) int d,
            @ForAll Metric metric,
            @ForAll @IntRange(min = 0, max = 2) int shadow,
            @ForAll @IntRange(min = 0, max = 2) int extra) {
        int depth = shadow + extra;
        List<int[]> offsets = Neighborhoods.offsets(d, metric, shadow, depth);
        assertThat((long) offsets.size()).isEqualTo(Neighborhoods.periodicCount(d, metric, shadow, depth));
        for (int[] v : offsets) {
            int dist = metric.distance(v);
            assertThat(dist).isBetween(shadow, depth);
        }
        if (metric == Metric.CHEBYSHEV && shadow >= 1) {
            long expected = (long) Math.pow(2 * depth + 1, d) - (long) Math.pow(2 * shadow - 1, d);
            assertThat((long) offsets.size()).isEqualTo(expected);
        }
        // generation order: dimension 0 varies fastest, i.e. sorted by reversed coordinates
        for (int k = 1; k < offsets.size(); k++) {
            int[] a = reversed(offsets.get(k - 1));
            int[] b = reversed(offsets.get(k));
            assertThat(Arrays.compare(a, b)).isNegative();
        }
    }

    private static int[] reversed(int[] v) {
        int[] r = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = v[v.length - 1 - i];
        }
        return r;
    }

    @Property(tries = 100)
    void dimsCreateIsABalancedNonIncreasingFactorization(
            @ForAll @IntRange(min = 1, max = 400) int p, @ForAll @IntRange(min = 1, max = 4) int d) {
        int[] dims = Dims.create(p, d);
        assertThat(dims).hasSize(d);
        assertThat(Arrays.stream(dims).reduce(1, (x, y) -> x * y)).isEqualTo(p);
        for (int i = 1; i < d; i++) {
            assertThat(dims[i]).isLessThanOrEqualTo(dims[i - 1]);
        }
        // no factorization has a smaller spread (brute force over all ordered factorizations)
        assertThat(minSpread(p, d, p)).isEqualTo(dims[0] - dims[d - 1]);
    }

    private static int minSpread(int p, int d, int max) {
        return minSpread(p, d, max, Integer.MAX_VALUE);
    }

    private static int minSpread(int rest, int k, int max, int smallest) {
        if (k == 1) {
            return rest <= max ? 0 : Integer.MAX_VALUE; // spread computed by caller
        }
        int best = Integer.MAX_VALUE;
        for (int f = 1; f <= max; f++) {
            if (rest % f == 0) {
                best = Math.min(best, spreadOf(rest / f, k - 1, f, f));
            }
        }
        return best;
    }

    /** Minimal (largest - smallest) over non-increasing factorizations with first factor top. */
    private static int spreadOf(int rest, int k, int max, int top) {
        if (k == 1) {
            return rest <= max ? top - rest : Integer.MAX_VALUE;
        }
        int best = Integer.MAX_VALUE;
        for (int f = 1; f <= Math.min(max, rest); f++) {
            if (rest % f == 0) {
                best = Math.min(best, spreadOf(rest / f, k - 1, f, top));
            }
        }
        return best;
    }
}
