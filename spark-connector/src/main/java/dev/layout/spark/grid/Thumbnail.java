package dev.layout.spark.grid;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A picture-sized summary of one plane of a distributed field: the plane cut into at most {@code
 * max x max} tiles, each the mean of its cells. Each rank computes the partial sums of the tiles its
 * block touches ({@link #partial}, a rectangle of tiles, about 1/ranks of the picture); {@link
 * #add} accumulates the partials, so the picture is made without any rank or the driver holding
 * the plane.
 *
 * <p>The plane of a 2D field is the field. Of a 3D field it is the slice through the middle of the
 * last axis, rows along axis 0 and columns along axis 1: across the first axis, along which the
 * heat job's plate drives the gradient ({@link #plane}).
 */
public final class Thumbnail implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int rows;
    private final int cols;
    private final int row0;
    private final int col0;
    private final int height;
    private final int width;
    private final double[] sums;
    private final long[] counts;

    private Thumbnail(int rows, int cols, int row0, int col0, int height, int width) {
        this.rows = rows;
        this.cols = cols;
        this.row0 = row0;
        this.col0 = col0;
        this.height = height;
        this.width = width;
        this.sums = new double[Math.multiplyExact(height, width)];
        this.counts = new long[sums.length];
    }

    /** An empty picture of the plane of {@code grid}, at most {@code max x max} tiles. */
    public static Thumbnail empty(DistributedGrid grid, int max) {
        int[] p = plane(grid);
        int r = Math.min(p[0], max);
        int c = Math.min(p[1], max);
        return new Thumbnail(r, c, 0, 0, r, c);
    }

    /**
     * The sizes of the pictured plane: rows, columns, and for 3D the index along the last axis of
     * the slice (-1 in 2D).
     */
    public static int[] plane(DistributedGrid grid) {
        int[] n = grid.globalSize();
        if (n.length == 2) {
            return new int[] {n[0], n[1], -1};
        }
        if (n.length == 3) {
            return new int[] {n[0], n[1], n[2] / 2};
        }
        throw new IllegalArgumentException(
                "thumbnail: a " + n.length + "-dimensional grid (expected: 2 or 3 dimensions)");
    }

    /** What the picture shows, for a caption: {@code "the field"} or the slice. */
    public static String caption(DistributedGrid grid) {
        int[] p = plane(grid);
        int[] n = grid.globalSize();
        return p[2] < 0 ? n[0] + "x" + n[1] : "slice x2 = " + p[2] + " of " + n[2] + " (rows x0, columns x1)";
    }

    /** The partial sums of {@code block}'s cells in the plane, over the tiles it touches (null if none). */
    public static Thumbnail partial(DistributedGrid grid, GridBlock block, int max) {
        int[] p = plane(grid);
        int tr = Math.min(p[0], max);
        int tc = Math.min(p[1], max);
        int[] s = block.start();
        int[] n = block.interior();
        if (p[2] >= 0 && (p[2] < s[2] || p[2] >= s[2] + n[2])) {
            return null;
        }
        int r0 = tile(s[0], p[0], tr);
        int r1 = tile(s[0] + n[0] - 1, p[0], tr);
        int c0 = tile(s[1], p[1], tc);
        int c1 = tile(s[1] + n[1] - 1, p[1], tc);
        Thumbnail t = new Thumbnail(tr, tc, r0, c0, r1 - r0 + 1, c1 - c0 + 1);
        int g = block.ghost();
        int[] local = new int[grid.d()];
        if (p[2] >= 0) {
            local[2] = p[2] - s[2] + g;
        }
        for (int i = 0; i < n[0]; i++) {
            int ti = tile(s[0] + i, p[0], tr) - r0;
            local[0] = i + g;
            for (int j = 0; j < n[1]; j++) {
                int tj = tile(s[1] + j, p[1], tc) - c0;
                local[1] = j + g;
                int k = ti * t.width + tj;
                t.sums[k] += block.get(block.index(local));
                t.counts[k]++;
            }
        }
        return t;
    }

    /** The tile of cell {@code x} of {@code n} cells cut into {@code tiles <= n} tiles: floor(x tiles / n), none empty. */
    static int tile(int x, int n, int tiles) {
        return (int) ((long) x * tiles / n);
    }

    /** Adds a partial (of the same picture) into this whole picture. */
    public Thumbnail add(Thumbnail part) {
        if (part == null) {
            return this;
        }
        if (part.rows != rows || part.cols != cols || height != rows || width != cols) {
            throw new IllegalArgumentException("thumbnail: partial of " + part.rows + "x" + part.cols + " into " + rows
                    + "x" + cols + " (expected: a partial of this picture into a whole one)");
        }
        for (int i = 0; i < part.height; i++) {
            for (int j = 0; j < part.width; j++) {
                int k = (part.row0 + i) * width + part.col0 + j;
                sums[k] += part.sums[i * part.width + j];
                counts[k] += part.counts[i * part.width + j];
            }
        }
        return this;
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    /** The tile means, row-major ({@code NaN} for a tile no partial reached). */
    public double[] means() {
        double[] m = new double[sums.length];
        for (int k = 0; k < m.length; k++) {
            m[k] = counts[k] == 0 ? Double.NaN : sums[k] / counts[k];
        }
        return m;
    }

    @Override
    public String toString() {
        return "thumbnail(" + rows + "x" + cols + ", tiles " + Arrays.toString(new int[] {row0, col0, height, width})
                + ")";
    }
}
