package dev.layout.spark.grid;

import java.util.List;

/**
 * Ready-made stencil kernels: Jacobi heat diffusion on any {@link Stencil}, and Conway's Game of
 * Life on the 2D Moore neighbourhood.
 *
 * <p>Both loop over the interior with the last (contiguous) axis innermost and read neighbours at
 * precomputed flat offsets, so one kernel serves 2D and 3D without per-dimension code. The sum
 * over neighbours is taken in {@link Stencil#offsets()} order; a sequential reference that sums in
 * the same order gets bit-identical results.
 */
public final class Kernels {
    private Kernels() {}

    /**
     * Jacobi heat diffusion: {@code u' = (1 - c) u + c * mean(neighbours)}.
     *
     * @param c diffusion weight in (0, 1]
     */
    public static StencilKernel heat(Stencil stencil, double c) {
        if (!(c > 0 && c <= 1)) {
            throw new IllegalArgumentException("heat: c " + c + " (expected: 0 < c <= 1)");
        }
        List<int[]> offsets = stencil.offsets();
        int dims = stencil.d();
        double keep = 1 - c;
        double share = c / offsets.size();
        return (src, dst) -> {
            check(src, dims, stencil);
            int[] off = flat(src, offsets);
            forInterior(src, (from, to) -> {
                for (int i = from; i < to; i++) {
                    double s = 0;
                    for (int k = 0; k < off.length; k++) {
                        s += src.get(i + off[k]);
                    }
                    dst.set(i, keep * src.get(i) + share * s);
                }
            });
        };
    }

    /** Conway's Game of Life (B3/S23) on 2D cells holding 0.0 (dead) or 1.0 (alive). */
    public static StencilKernel life() {
        List<int[]> offsets = Stencil.NINE_POINT.offsets();
        return (src, dst) -> {
            check(src, 2, Stencil.NINE_POINT);
            int[] off = flat(src, offsets);
            forInterior(src, (from, to) -> {
                for (int i = from; i < to; i++) {
                    int n = 0;
                    for (int k = 0; k < off.length; k++) {
                        n += src.get(i + off[k]) != 0 ? 1 : 0;
                    }
                    boolean alive = src.get(i) != 0;
                    dst.set(i, (n == 3 || (alive && n == 2)) ? 1.0 : 0.0);
                }
            });
        };
    }

    private static void check(GridBlock b, int d, Stencil s) {
        if (b.d() != d || b.ghost() < s.depth()) {
            throw new IllegalArgumentException(
                    "kernel: " + b + " (expected: " + d + " dimensions and ghost >= " + s.depth() + " for " + s + ")");
        }
    }

    static int[] flat(GridBlock b, List<int[]> offsets) {
        int[] off = new int[offsets.size()];
        for (int k = 0; k < off.length; k++) {
            int[] v = offsets.get(k);
            for (int a = 0; a < v.length; a++) {
                off[k] += v[a] * b.stride(a);
            }
        }
        return off;
    }

    /** A run of interior elements along the last axis, flat indices [from, to). */
    interface Row {
        void run(int from, int to);
    }

    /** Calls {@code row} for every interior row (odometer over all axes but the last). */
    static void forInterior(GridBlock b, Row row) {
        int d = b.d();
        int g = b.ghost();
        int[] n = b.interior();
        for (int x : n) {
            if (x == 0) {
                return;
            }
        }
        int[] c = new int[d];
        java.util.Arrays.fill(c, g);
        int last = n[d - 1];
        while (true) {
            int from = b.index(c);
            row.run(from, from + last);
            int a = d - 2;
            while (a >= 0 && ++c[a] == g + n[a]) {
                c[a] = g;
                a--;
            }
            if (a < 0) {
                return;
            }
        }
    }
}
