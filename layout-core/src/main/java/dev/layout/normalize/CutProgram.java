package dev.layout.normalize;

import java.util.ArrayList;
import java.util.List;

/**
 * The generalized dynamic program of {@link Reconstruction}: a shortest path over the cut points
 * (the repeated divisors of n, ascending, {@code cut(0) = 1}, {@code cut(K-1) = n}) where an edge
 * from cut b to cut a (b | a) is one node of count a/b visited n/a times, with one bit of state
 * ("an idx node below can carry the start offset"). It only needs to know, per edge, whether a
 * {@code vec} node is possible there and, per cut, whether the leaf can be {@code con(cut)}: the
 * caller answers from the explicit sequence (reconstruction) or from a symbolic description
 * (type normalization, without expanding the type map).
 */
final class CutProgram {

    static final long INF = Long.MAX_VALUE;

    private CutProgram() {}

    /** What the program needs to know about the sequence. */
    interface Structure {
        /** Number of cut points K. */
        int cuts();

        /** The i-th cut point, ascending; cut(0) = 1 and cut(K-1) = n. */
        long cut(int i);

        /** Whether the level from cut i to cut j (cut(i) | cut(j), i < j) is regularly strided. */
        boolean vec(int i, int j);

        /** Whether the first cut(j) elements are consecutive (the leaf can be con(cut(j))). */
        boolean con(int j);

        /** Largest count an idx node may have (bounds the output, not the cost). */
        default long maxIdxCount() {
            return Integer.MAX_VALUE - 8;
        }
    }

    /** One node of the chosen path: kind, lower and upper cut. */
    record Level(TypePath.Kind kind, long lower, long upper) {
        long count() {
            return upper / lower;
        }
    }

    /**
     * The chosen path: its vec/idx levels top-down, the leaf count, whether an extra {@code
     * idx(1,<x0>)} goes on top, and which level (index into {@code levels}) carries the offset, or
     * -1.
     */
    record Plan(List<Level> levels, long leaf, boolean extraOffsetNode, int offsetCarrier, long cost) {}

    static Plan solve(Structure s, boolean hasOffset, CostModel model) {
        final int k = s.cuts();
        final long n = s.cut(k - 1);
        long[][] g = {new long[k], new long[k]};
        int[][] prev = {new int[k], new int[k]};
        int[][] prevState = {new int[k], new int[k]};
        TypePath.Kind[][] kind = {new TypePath.Kind[k], new TypePath.Kind[k]};
        long maxIdx = s.maxIdxCount();
        for (int j = 0; j < k; j++) {
            g[0][j] = INF;
            g[1][j] = INF;
            prev[0][j] = -2;
            prev[1][j] = -2;
            long a = s.cut(j);
            if (a == 1 || s.con(j)) {
                long c = nodeCost(model, TypePath.Kind.CON, a, n / a);
                if (c < INF) {
                    g[0][j] = c;
                    prev[0][j] = -1;
                    kind[0][j] = TypePath.Kind.CON;
                }
            }
            for (int i = 0; i < j; i++) {
                long b = s.cut(i);
                if (a % b != 0) {
                    continue;
                }
                long count = a / b;
                long mult = n / a;
                if (count <= maxIdx) {
                    long idxCost = nodeCost(model, TypePath.Kind.IDX, count, mult);
                    for (int st = 0; st < 2; st++) {
                        long cand = sat(g[st][i], idxCost);
                        if (cand < g[1][j]) {
                            g[1][j] = cand;
                            prev[1][j] = i;
                            prevState[1][j] = st;
                            kind[1][j] = TypePath.Kind.IDX;
                        }
                    }
                }
                if (s.vec(i, j)) {
                    long vecCost = nodeCost(model, TypePath.Kind.VEC, count, mult);
                    for (int st = 0; st < 2; st++) {
                        long cand = sat(g[st][i], vecCost);
                        if (cand < g[st][j]) {
                            g[st][j] = cand;
                            prev[st][j] = i;
                            prevState[st][j] = st;
                            kind[st][j] = TypePath.Kind.VEC;
                        }
                    }
                }
            }
        }

        int top = k - 1;
        int state;
        boolean extra = false;
        long best;
        if (!hasOffset) {
            state = g[1][top] < g[0][top] ? 1 : 0;
            best = g[state][top];
        } else {
            long withNode = sat(Math.min(g[0][top], g[1][top]), nodeCost(model, TypePath.Kind.IDX, 1, 1));
            if (g[1][top] <= withNode) {
                state = 1;
                best = g[1][top];
            } else {
                state = g[1][top] < g[0][top] ? 1 : 0;
                best = withNode;
                extra = true;
            }
        }
        if (best == INF) {
            throw new IllegalArgumentException("normalize: every path's cost overflows 64 bits under " + model);
        }
        List<Level> levels = new ArrayList<>();
        int j = top;
        int st = state;
        while (prev[st][j] >= 0) {
            int i = prev[st][j];
            levels.add(new Level(kind[st][j], s.cut(i), s.cut(j)));
            int ps = prevState[st][j];
            j = i;
            st = ps;
        }
        int carrier = -1;
        if (hasOffset && !extra) {
            for (int l = 0; l < levels.size(); l++) {
                if (levels.get(l).kind() == TypePath.Kind.IDX) {
                    carrier = l;
                    break;
                }
            }
        }
        return new Plan(levels, s.cut(j), extra, carrier, best);
    }

    static long nodeCost(CostModel model, TypePath.Kind kind, long count, long mult) {
        long c;
        try {
            c = model.nodeCost(kind, count, mult);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().contains("overflows")) {
                return INF;
            }
            throw e;
        }
        if (c < 0) {
            throw new IllegalArgumentException("cost model " + model.name() + ": node cost " + c + " (expected: >= 0)");
        }
        return c;
    }

    static long sat(long a, long b) {
        if (a == INF || b == INF) {
            return INF;
        }
        long r = a + b;
        return (r < 0 || r < a) ? INF : r;
    }
}
