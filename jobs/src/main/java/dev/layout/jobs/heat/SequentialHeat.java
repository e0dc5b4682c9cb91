package dev.layout.jobs.heat;

/**
 * The sequential reference for the heat job: Jacobi iteration on a 2D or 3D grid with exactly the
 * job's semantics (see the README). 2D 5-point: mean of N, S, E, W; 2D 9-point: (4*(N+S+E+W) +
 * corners) / 20; 3D 7-point: mean of the 6 face neighbours; 3D 27-point: mean of the 26
 * neighbours. Cells outside the grid hold fixed (Dirichlet) values unless periodic. The distributed
 * jobs are checked against this, value for value.
 */
public final class SequentialHeat {
    private SequentialHeat() {}

    /** The plate boundary: 1.0 on the ghost layer before index 0 of dimension 0 (with its corners), else 0. */
    public static double plateBoundary(int[] ghostIndex) {
        return ghostIndex[0] < 0 ? 1.0 : 0.0;
    }

    /**
     * Runs {@code steps} iterations; {@code init} is the interior in C order (null: all 0.0). Returns
     * the interior after the last step.
     */
    public static double[] run(int[] grid, int stencil, boolean periodic, double[] init, int steps) {
        int d = grid.length;
        if (d != 2 && d != 3) {
            throw new IllegalArgumentException("heat: grid dimensions " + d + " (expected: 2 or 3)");
        }
        int[] p = new int[3];
        int[] g = d == 2 ? new int[] {1, grid[0], grid[1]} : grid.clone();
        for (int i = 0; i < 3; i++) {
            p[i] = g[i] + 2;
        }
        if (d == 2) {
            p[0] = 1;
        }
        double[] u = new double[p[0] * p[1] * p[2]];
        int off0 = d == 2 ? 0 : 1;
        // boundary values and initial interior
        for (int a = 0; a < p[0]; a++) {
            for (int b = 0; b < p[1]; b++) {
                for (int c = 0; c < p[2]; c++) {
                    int ia = a - off0;
                    int ib = b - 1;
                    int ic = c - 1;
                    boolean inside = (d == 2 || (ia >= 0 && ia < g[0])) && ib >= 0 && ib < g[1] && ic >= 0 && ic < g[2];
                    int idx = (a * p[1] + b) * p[2] + c;
                    if (inside) {
                        u[idx] = init == null ? 0.0 : init[(ia * g[1] + ib) * g[2] + ic];
                    } else {
                        int[] gi = d == 2 ? new int[] {ib, ic} : new int[] {ia, ib, ic};
                        u[idx] = plateBoundary(gi);
                    }
                }
            }
        }
        double[] next = u.clone();
        for (int s = 0; s < steps; s++) {
            if (periodic) {
                wrap(u, p, d);
            }
            for (int a = off0; a < p[0] - off0; a++) {
                for (int b = 1; b < p[1] - 1; b++) {
                    for (int c = 1; c < p[2] - 1; c++) {
                        next[(a * p[1] + b) * p[2] + c] = update(u, p, a, b, c, d, stencil);
                    }
                }
            }
            // Both arrays carry the same fixed boundary, so swapping keeps it.
            double[] t = u;
            u = next;
            next = t;
        }
        double[] out = new double[g[0] * g[1] * g[2]];
        for (int a = 0; a < g[0]; a++) {
            for (int b = 0; b < g[1]; b++) {
                for (int c = 0; c < g[2]; c++) {
                    out[(a * g[1] + b) * g[2] + c] = u[((a + off0) * p[1] + b + 1) * p[2] + c + 1];
                }
            }
        }
        return out;
    }

    static double update(double[] u, int[] p, int a, int b, int c, int d, int stencil) {
        int sb = p[2];
        int sa = p[1] * p[2];
        int i = (a * p[1] + b) * p[2] + c;
        if (d == 2) {
            double n = u[i - sb];
            double s = u[i + sb];
            double w = u[i - 1];
            double e = u[i + 1];
            if (stencil == 5) {
                return (n + s + e + w) / 4;
            }
            if (stencil == 9) {
                return (4 * (n + s + e + w) + (u[i - sb - 1] + u[i - sb + 1] + u[i + sb - 1] + u[i + sb + 1])) / 20;
            }
            throw new IllegalArgumentException("heat: stencil " + stencil + " (expected: 5 or 9 in 2D)");
        }
        if (stencil == 7) {
            return (u[i - sa] + u[i + sa] + u[i - sb] + u[i + sb] + u[i - 1] + u[i + 1]) / 6;
        }
        if (stencil == 27) {
            double sum = 0;
            for (int x = -1; x <= 1; x++) {
                for (int y = -1; y <= 1; y++) {
                    for (int z = -1; z <= 1; z++) {
                        if (x != 0 || y != 0 || z != 0) {
                            sum += u[i + x * sa + y * sb + z];
                        }
                    }
                }
            }
            return sum / 26;
        }
        throw new IllegalArgumentException("heat: stencil " + stencil + " (expected: 7 or 27 in 3D)");
    }

    /** Periodic: ghost cells copy the opposite interior cells (faces, edges and corners). */
    private static void wrap(double[] u, int[] p, int d) {
        for (int a = 0; a < p[0]; a++) {
            for (int b = 0; b < p[1]; b++) {
                for (int c = 0; c < p[2]; c++) {
                    int sa = d == 2 ? a : wrapIndex(a, p[0]);
                    int sb = wrapIndex(b, p[1]);
                    int sc = wrapIndex(c, p[2]);
                    if (sa != a || sb != b || sc != c) {
                        u[(a * p[1] + b) * p[2] + c] = u[(sa * p[1] + sb) * p[2] + sc];
                    }
                }
            }
        }
    }

    /** Ghost index 0 maps to n-2 (the last interior), n-1 to 1. */
    private static int wrapIndex(int i, int n) {
        if (i == 0) {
            return n - 2;
        }
        if (i == n - 1) {
            return 1;
        }
        return i;
    }
}
