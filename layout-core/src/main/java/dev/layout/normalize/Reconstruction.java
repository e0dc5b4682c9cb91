package dev.layout.normalize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Least-cost type reconstruction (Träff 2014, section 3), extended so that it reaches the true
 * optimum over <em>all</em> con/vec/idx paths.
 *
 * <h2>The paper's procedure</h2>
 *
 * {@code TypePath} (Listing 1) builds a path from the leaf up: a {@code vec} node for the longest
 * regularly strided repeated prefix ({@code LongestVector}), otherwise an {@code idx} node for the
 * shortest repeated prefix over the divisors of n ({@code Repeat}), and recurses on every c-th
 * element. An interval dynamic program over that path then combines successive nodes and splits a
 * vector node sandwiched between two others (Table 1), keeping one least-cost representative (its
 * first, second and last node) per sub-interval.
 *
 * <h2>Why that is not optimal, and the extension</h2>
 *
 * A literal implementation misses the optimum on some inputs (see {@code NORMALIZER.md}, section
 * 7), for four reasons:
 *
 * <ol>
 *   <li><b>The start offset.</b> Listing 1 always puts {@code x[0]} on the top node (adding an
 *       {@code idx(1,<x[0]>,·)} when the top is a {@code vec}), and no rule of Table 1 moves it
 *       down. But the offset may ride for free on <em>any</em> {@code idx} node: {@code
 *       5,6,8,9,10,12,13,14,16} is {@code vec(3,4,idx(3,<5,6,8>,con(1)))}, cost 11 under
 *       (Kcon,Kvec,Kidx) = (1,4,3), where the paper reaches 13.
 *   <li><b>{@code idx(1,<0>,·)}.</b> Listing 1 adds it even when {@code x[0] = 0}; nothing removes
 *       it ({@code [0]} would cost more than {@code con(1)}).
 *   <li><b>One representative per interval.</b> Keeping only the cheapest compressed sub-path per
 *       interval loses paths whose sub-paths are individually dearer but combine better: a vector
 *       split hidden once the representative has merged the vector into one neighbour (the
 *       paper's own Table 2 with Kidx = Kvec = 10 reaches 36, not 33), and collapses of three or
 *       more nodes into one {@code idx} that no pairwise merge justifies.
 *   <li><b>A lone {@code vec} priced as an {@code idx}.</b> Table 1 never turns a single vector
 *       node into an index node, which is cheaper when, e.g., Kvec &gt; Kidx + c.
 * </ol>
 *
 * <p>The extension rests on a characterisation that removes the need for representatives. Call a
 * divisor N of n <em>repeated</em> if {@code x[jN + t] - x[jN] = x[t] - x[0]} for all j and all
 * {@code t < N}. Every path {@code T_0 … T_(m-1)} describing x defines the chain {@code N_k =
 * c_k·…·c_(m-1)}, and each {@code N_k} is repeated; conversely, for a chain {@code 1 <= N_(m-1) |
 * … | N_0 = n} of repeated divisors, level k (from {@code N_(k+1)} to {@code N_k}) is fixed up to
 * an additive shift: its displacements are {@code x[j·N_(k+1)] - x[0]}, {@code j < N_k/N_(k+1)}.
 * It can be an {@code idx} node always, a {@code vec} node iff those displacements are
 * arithmetic, and the leaf {@code con(N_(m-1))} iff {@code x[0..N_(m-1))} is consecutive. The
 * shifts must add up to {@code x[0]} and can be non-zero only on {@code idx} nodes. Under a
 * level-additive cost model (every {@link CostModel}) the cost of a level depends only on its
 * kind, its count and its multiplier {@code n/N_k}, so the optimum over all paths is a
 * <em>shortest path</em> over the repeated divisors, ordered by divisibility, with one extra bit
 * of state: "an {@code idx} node below carries the offset". If no {@code idx} node is chosen and
 * {@code x[0] != 0}, an {@code idx(1,<x[0]>,·)} on top (multiplier 1, the cheapest place) pays
 * for it. This is the paper's dynamic program with every combination (any run of consecutive
 * nodes collapsed into one), every split (a vector node split at any divisor of its count), both
 * node kinds priced at every level, and the offset free to move down: reasons 1 to 4 disappear.
 *
 * <p>The repeated divisors are exactly the node boundaries of the {@code TypePath} path together
 * with the divisors inside its vector nodes (the paper's Lemma 2). For an {@code idx} level this
 * is Lemma 1. For a {@code vec} level of count c: if prefixes c and r are repeated and neither
 * divides the other, then {@code lcm(c, r)} is repeated and every break of the stride lies on a
 * multiple of it, contradicting that c is the <em>longest</em> vector; so every repeated r divides
 * c (and all divisors of c are repeated) or is a multiple of c, which the recursion on every c-th
 * element finds. The property tests check the result against an exhaustive search that uses none
 * of this.
 *
 * <h2>Running time</h2>
 *
 * {@code TypePath} takes {@code O(n·d(n)) = O(n sqrt n)} in the worst case (trying divisors with
 * {@code Repeat}), usually {@code O(n)}. There are at most {@code d(n) <= 2 sqrt n} cut points, so
 * the shortest path takes {@code O(d(n)^2) = O(n)}; the arithmetic-prefix lengths for the vector
 * test take {@code O(sigma(n)) = O(n log log n)}; building the path is {@code O(n)}.
 */
final class Reconstruction {

    private Reconstruction() {}

    // ---------------------------------------------------------------- Listing 2

    /**
     * {@code LongestVector}: the largest c dividing m such that every block {@code y[jc .. jc+c)} is
     * regularly strided with the common stride {@code y[1]-y[0]}; 1 if none. A break (a difference
     * other than the stride) at position i forces c | i, so c is gcd(m, all break positions). O(m).
     */
    static int longestVector(long[] y, int m) {
        if (m < 2) {
            return 1;
        }
        long d = y[1] - y[0];
        int g = m;
        for (int i = 2; i < m; i++) {
            if (y[i] - y[i - 1] != d) {
                g = (int) Arith.gcd(g, i);
                if (g == 1) {
                    return 1;
                }
            }
        }
        return g;
    }

    /** {@code Repeat}: whether the prefix of length c (c | m) is repeated in {@code y[0, m)}. */
    static boolean repeats(long[] y, int m, int c) {
        for (int i = c; i < m; i += c) {
            long base = y[i];
            for (int j = 1; j < c; j++) {
                if (y[i + j] - base != y[j] - y[0]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The shortest repeated prefix of length {@code >= 2} over the divisors of m ({@code m >= 2}). */
    static int shortestRepeat(long[] y, int m) {
        for (long c : divisors(m)) {
            if (c >= 2 && repeats(y, m, (int) c)) {
                return (int) c;
            }
        }
        return m; // unreachable: m is always repeated
    }

    /** Divisors of c ascending; for c beyond 10^12 only those found up to 10^6 and their cofactors. */
    static long[] divisors(long c) {
        List<Long> small = new ArrayList<>();
        List<Long> large = new ArrayList<>();
        for (long i = 1; i * i <= c && i <= 1_000_000; i++) {
            if (c % i == 0) {
                small.add(i);
                if (i != c / i) {
                    large.add(c / i);
                }
            }
        }
        long[] out = new long[small.size() + large.size()];
        int k = 0;
        for (long v : small) {
            out[k++] = v;
        }
        for (int i = large.size() - 1; i >= 0; i--) {
            out[k++] = large.get(i);
        }
        Arrays.sort(out);
        return out;
    }

    private static long[] everyCth(long[] y, int m, int c) {
        long[] out = new long[m / c];
        for (int i = 0, j = 0; j < out.length; i += c, j++) {
            out[j] = y[i];
        }
        return out;
    }

    // ---------------------------------------------------------------- Listing 1

    /** The literal Listing 1 path (see {@link TypePath#construct}). */
    static TypePath paperTypePath(long[] x) {
        TypePath t = TypePath.con(1);
        long[] y = x;
        int m = x.length;
        while (m > 1) {
            int c = longestVector(y, m);
            if (c > 1) {
                t = TypePath.vec(c, y[1] - y[0], t);
            } else {
                c = shortestRepeat(y, m);
                long[] nix = new long[c];
                for (int i = 0; i < c; i++) {
                    nix[i] = y[i] - y[0];
                }
                t = TypePath.idx(nix, t);
            }
            y = everyCth(y, m, c);
            m /= c;
        }
        if (t instanceof TypePath.Idx top) {
            long[] nix = top.indices();
            for (int i = 0; i < nix.length; i++) {
                nix[i] = Arith.add("typepath", nix[i], y[0]);
            }
            return TypePath.idx(nix, top.child());
        }
        return TypePath.idx(new long[] {y[0]}, t);
    }

    /**
     * The cut points: all repeated divisors of n, ascending. They are the boundaries of the
     * {@code TypePath} path ({@code 1 = B_0 < B_1 < … = n}) plus {@code B_k·e} for every divisor e
     * of the count of each vector node.
     */
    static int[] cutPoints(long[] x) {
        List<Integer> cuts = new ArrayList<>();
        long[] y = x;
        int m = x.length;
        int b = 1;
        while (m > 1) {
            int c = longestVector(y, m);
            if (c > 1) {
                for (long e : divisors(c)) {
                    if (e < c) {
                        cuts.add(b * (int) e);
                    }
                }
            } else {
                c = shortestRepeat(y, m);
                cuts.add(b);
            }
            y = everyCth(y, m, c);
            m /= c;
            b *= c;
        }
        cuts.add(b);
        int[] out = new int[cuts.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = cuts.get(i);
        }
        return out;
    }

    // ---------------------------------------------------------------- the optimum

    /** The least-cost path describing x under model (see the class documentation). */
    static TypePath optimal(long[] x, CostModel model) {
        final int n = x.length;
        final int[] p = cutPoints(x);
        final int k = p.length;

        // Longest arithmetic prefix (in elements) of x[0], x[b], x[2b], … for each cut b.
        final int[] arith = new int[k];
        for (int i = 0; i < k; i++) {
            int b = p[i];
            int m = n / b;
            if (m == 1) {
                arith[i] = 1;
                continue;
            }
            long d = x[b] - x[0];
            int len = 2;
            while (len < m && x[len * b] - x[(len - 1) * b] == d) {
                len++;
            }
            arith[i] = len;
        }
        final boolean unitStride = n == 1 || x[1] - x[0] == 1;

        CutProgram.Plan plan = CutProgram.solve(
                new CutProgram.Structure() {
                    @Override
                    public int cuts() {
                        return k;
                    }

                    @Override
                    public long cut(int i) {
                        return p[i];
                    }

                    @Override
                    public boolean vec(int i, int j) {
                        return p[j] / p[i] <= arith[i];
                    }

                    @Override
                    public boolean con(int j) {
                        return unitStride && arith[0] >= p[j];
                    }
                },
                x[0] != 0,
                model);

        long x0 = x[0];
        List<CutProgram.Level> levels = plan.levels();
        TypePath path = TypePath.con(plan.leaf());
        for (int l = levels.size() - 1; l >= 0; l--) {
            CutProgram.Level lv = levels.get(l);
            int b = (int) lv.lower();
            int count = (int) lv.count();
            if (lv.kind() == TypePath.Kind.VEC) {
                path = new TypePath.Vec(count, x[b] - x0, path);
            } else {
                long[] ix = new long[count];
                long shift = l == plan.offsetCarrier() ? 0 : x0;
                for (int t = 0; t < count; t++) {
                    ix[t] = x[t * b] - shift;
                }
                path = new TypePath.Idx(ix, path);
            }
        }
        if (plan.extraOffsetNode()) {
            path = new TypePath.Idx(new long[] {x0}, path);
        }
        return path;
    }
}
