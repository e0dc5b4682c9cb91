package dev.layout.jobs.grid;

import dev.layout.spark.grid.GridBlock;
import dev.layout.spark.grid.StencilKernel;

/**
 * The heat job's Jacobi update with exactly the arithmetic of {@link
 * dev.layout.jobs.heat.SequentialHeat} (same formulas, same summation order), so distributed and
 * sequential fields agree bit for bit: 2D 5-point (N+S+E+W)/4, 2D 9-point (4(N+S+E+W) + corners)/20,
 * 3D 7-point mean of the 6 faces, 3D 27-point mean of the 26 neighbours.
 */
public final class JacobiKernel implements StencilKernel {
    private static final long serialVersionUID = 1L;
    private final int points;

    public JacobiKernel(int points) {
        if (points != 5 && points != 9 && points != 7 && points != 27) {
            throw new IllegalArgumentException("heat: stencil " + points + " (expected: 5 or 9 in 2D, 7 or 27 in 3D)");
        }
        this.points = points;
    }

    @Override
    public void apply(GridBlock src, GridBlock dst) {
        int d = src.d();
        if ((d == 2) != (points == 5 || points == 9)) {
            throw new IllegalArgumentException(
                    "heat: stencil " + points + " on a " + d + "D grid (expected: 5 or 9 in 2D, 7 or 27 in 3D)");
        }
        int g = src.ghost();
        int[] n = src.interior();
        if (d == 2) {
            int sb = src.stride(0);
            for (int r = g; r < g + n[0]; r++) {
                int row = src.index(r, g);
                for (int i = row; i < row + n[1]; i++) {
                    double nn = src.get(i - sb);
                    double s = src.get(i + sb);
                    double w = src.get(i - 1);
                    double e = src.get(i + 1);
                    dst.set(
                            i,
                            points == 5
                                    ? (nn + s + e + w) / 4
                                    : (4 * (nn + s + e + w)
                                                    + (src.get(i - sb - 1)
                                                            + src.get(i - sb + 1)
                                                            + src.get(i + sb - 1)
                                                            + src.get(i + sb + 1)))
                                            / 20);
                }
            }
            return;
        }
        int sa = src.stride(0);
        int sb = src.stride(1);
        for (int p = g; p < g + n[0]; p++) {
            for (int r = g; r < g + n[1]; r++) {
                int row = src.index(p, r, g);
                for (int i = row; i < row + n[2]; i++) {
                    if (points == 7) {
                        dst.set(
                                i,
                                (src.get(i - sa)
                                                + src.get(i + sa)
                                                + src.get(i - sb)
                                                + src.get(i + sb)
                                                + src.get(i - 1)
                                                + src.get(i + 1))
                                        / 6);
                    } else {
                        double sum = 0;
                        for (int x = -1; x <= 1; x++) {
                            for (int y = -1; y <= 1; y++) {
                                for (int z = -1; z <= 1; z++) {
                                    if (x != 0 || y != 0 || z != 0) {
                                        sum += src.get(i + x * sa + y * sb + z);
                                    }
                                }
                            }
                        }
                        dst.set(i, sum / 26);
                    }
                }
            }
        }
    }
}
