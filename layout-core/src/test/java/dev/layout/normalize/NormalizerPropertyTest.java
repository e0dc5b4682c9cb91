package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Reconstruction against an exhaustive search that knows nothing of {@code TypePath}, Lemma 1 or
 * Lemma 2, on random sequences up to n = 64 under random storage and processing models.
 */
class NormalizerPropertyTest {

    static final int MAX_N = 64;

    // ------------------------------------------------------------------ the exhaustive search

    /**
     * The minimum cost over all con/vec/idx paths describing x exactly, by exhaustive search over
     * the top node. A path's top node of count c splits its sequence into c equal blocks; its child
     * describes the first block. That block is always a prefix of x (exactly, or up to a
     * translation when an idx node above has absorbed the offset), so the search is memoized on
     * (prefix length, exact or up to translation). Count-1 nodes never lower a cost (costs are
     * non-negative) except one idx(1,&lt;t&gt;,·) that carries an offset, which the exact mode tries.
     */
    static long exhaustive(long[] x, CostModel model) {
        int n = x.length;
        Long[][] memo = new Long[2][n + 1];
        return search(x, n, n, true, model, memo);
    }

    private static final long INF = Long.MAX_VALUE / 4;

    private static long search(long[] x, int n, int len, boolean exact, CostModel model, Long[][] memo) {
        Long known = memo[exact ? 1 : 0][len];
        if (known != null) {
            return known;
        }
        long mult = n / len;
        long best = INF;
        // con(len): exactly 0..len-1, or a translate of it
        boolean con = true;
        for (int i = 0; i < len; i++) {
            if (x[i] - (exact ? 0 : x[0]) != i) {
                con = false;
                break;
            }
        }
        if (con) {
            best = model.nodeCost(TypePath.Kind.CON, len, mult);
        }
        for (int c = 2; c <= len; c++) {
            if (len % c != 0) {
                continue;
            }
            int block = len / c;
            long[] t = new long[c];
            boolean translates = true;
            for (int k = 0; k < c && translates; k++) {
                t[k] = x[k * block] - x[0];
                for (int i = 0; i < block; i++) {
                    if (x[k * block + i] - x[k * block] != x[i] - x[0]) {
                        translates = false;
                        break;
                    }
                }
            }
            if (!translates) {
                continue;
            }
            // idx(c,<t_k + shift>,child): the child may describe any translate of the first block.
            long child = search(x, n, block, false, model, memo);
            best = Math.min(best, child + model.nodeCost(TypePath.Kind.IDX, c, mult));
            // vec(c,d,child): offsets must be 0, d, 2d, ...
            boolean arithmetic = true;
            for (int k = 0; k < c; k++) {
                if (t[k] != k * t[1]) {
                    arithmetic = false;
                    break;
                }
            }
            if (arithmetic) {
                long vchild = search(x, n, block, exact, model, memo);
                best = Math.min(best, vchild + model.nodeCost(TypePath.Kind.VEC, c, mult));
            }
        }
        if (exact && len == n) {
            // idx(1,<t>,child) on top: the only count-1 node that can help (it carries the offset).
            long child = search(x, n, len, false, model, memo);
            best = Math.min(best, child + model.nodeCost(TypePath.Kind.IDX, 1, 1));
        }
        memo[exact ? 1 : 0][len] = best;
        return best;
    }

    /** Repeated divisors by definition: x[jN + t] - x[jN] = x[t] - x[0]. */
    static int[] repeatedDivisors(long[] x) {
        int n = x.length;
        List<Integer> out = new ArrayList<>();
        for (int d = 1; d <= n; d++) {
            if (n % d != 0) {
                continue;
            }
            boolean ok = true;
            for (int i = 0; i < n && ok; i++) {
                ok = x[i] - x[(i / d) * d] == x[i % d] - x[0];
            }
            if (ok) {
                out.add(d);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    // ------------------------------------------------------------------ properties

    @Property(tries = 1500)
    void reconstructionIsOptimalAndExact(@ForAll("sequences") long[] x, @ForAll("models") CostModel model) {
        TypePath p = Normalizer.of(model).reconstruct(DisplacementSequence.of(x));
        assertThat(p.expand().toArray()).as(p.toString()).containsExactly(x);
        assertThat(p.cost(model)).as(p.toString()).isEqualTo(exhaustive(x, model));
    }

    @Property(tries = 1000)
    void cutPointsAreExactlyTheRepeatedDivisors(@ForAll("sequences") long[] x) {
        assertThat(Reconstruction.cutPoints(x)).containsExactly(repeatedDivisors(x));
    }

    @Property(tries = 500)
    void paperTypePathExpandsExactly(@ForAll("sequences") long[] x) {
        TypePath p = TypePath.construct(DisplacementSequence.of(x));
        assertThat(p.expand().toArray()).containsExactly(x);
    }

    @Property(tries = 500)
    void optimumNeverExceedsPaperTypePath(@ForAll("sequences") long[] x, @ForAll("models") CostModel model) {
        DisplacementSequence seq = DisplacementSequence.of(x);
        assertThat(Normalizer.of(model).reconstruct(seq).cost(model))
                .isLessThanOrEqualTo(TypePath.construct(seq).cost(model));
    }

    @Property(tries = 500)
    void printThenParseIsIdentity(@ForAll("paths") TypePath p) {
        assertThat(TypePath.parse(p.toString())).isEqualTo(p);
        assertThat(TypePath.parse(p.toString()).toString()).isEqualTo(p.toString());
    }

    // ------------------------------------------------------------------ generators

    @Provide
    Arbitrary<long[]> sequences() {
        return Arbitraries.randomValue(NormalizerPropertyTest::randomSequence);
    }

    @Provide
    Arbitrary<TypePath> paths() {
        return Arbitraries.randomValue(NormalizerPropertyTest::randomPath);
    }

    @Provide
    Arbitrary<CostModel> models() {
        return Arbitraries.randomValue(r -> {
            int[] small = {0, 1, 1, 2, 3, 4, 5, 8, 10, 20};
            if (r.nextBoolean()) {
                return CostModel.storage(
                        small[r.nextInt(small.length)], small[r.nextInt(small.length)], small[r.nextInt(small.length)]);
            }
            return CostModel.processing(
                    small[r.nextInt(small.length)],
                    small[r.nextInt(small.length)],
                    small[r.nextInt(small.length)],
                    r.nextInt(4),
                    r.nextInt(4),
                    r.nextInt(6));
        });
    }

    static long[] randomSequence(Random r) {
        int kind = r.nextInt(10);
        if (kind < 6) {
            long[] x = randomPath(r).expand().toArray();
            if (kind == 5 && x.length > 1) { // perturb one element
                x[r.nextInt(x.length)] += r.nextBoolean() ? 1 : -1;
            }
            return x;
        }
        if (kind < 8) { // short random over a tiny range: many accidental repeats and duplicates
            int n = 1 + r.nextInt(12);
            long[] x = new long[n];
            for (int i = 0; i < n; i++) {
                x[i] = r.nextInt(5) - 2;
            }
            return x;
        }
        // unstructured, up to MAX_N, over a wider range
        int n = 1 + r.nextInt(MAX_N);
        long[] x = new long[n];
        for (int i = 0; i < n; i++) {
            x[i] = r.nextInt(200) - 100;
        }
        return x;
    }

    /** A random path of at most MAX_N elements with small counts, strides and indices. */
    static TypePath randomPath(Random r) {
        int[] counts = {1, 2, 2, 2, 3, 3, 4, 5, 6, 8};
        long size = 1 + r.nextInt(4);
        if (size > 1 && r.nextInt(3) == 0) {
            size = 1;
        }
        TypePath p = TypePath.con(size);
        int depth = r.nextInt(5);
        for (int k = 0; k < depth; k++) {
            int c = counts[r.nextInt(counts.length)];
            if (size * c > MAX_N) {
                break;
            }
            if (r.nextInt(5) < 2) {
                long[] ix = new long[c];
                int mode = r.nextInt(3);
                for (int i = 0; i < c; i++) {
                    // mode 0: arbitrary, 1: strided (a hidden vector), 2: with duplicates
                    ix[i] = switch (mode) {
                        case 0 -> r.nextInt(61) - 30;
                        case 1 -> i * (long) (r.nextInt(3) == 0 ? 0 : 7) + 3;
                        default -> r.nextInt(3);
                    };
                }
                p = TypePath.idx(ix, p);
            } else {
                long stride = r.nextInt(4) == 0 ? size : r.nextInt(25) - 12;
                p = TypePath.vec(c, stride, p);
            }
            size *= c;
        }
        if (r.nextInt(3) == 0) {
            p = TypePath.idx(new long[] {r.nextInt(21) - 10}, p);
        }
        return p;
    }

    @Property(tries = 200)
    void exhaustiveSearchAgreesOnKnownCosts(@ForAll("paths") TypePath p, @ForAll("models") CostModel m) {
        // sanity of the oracle itself: it never exceeds the cost of a path it must have considered
        long[] x = p.expand().toArray();
        assertThat(exhaustive(x, m)).isLessThanOrEqualTo(p.cost(m));
        assertThat(Arrays.stream(x).count()).isEqualTo(p.size());
    }
}
