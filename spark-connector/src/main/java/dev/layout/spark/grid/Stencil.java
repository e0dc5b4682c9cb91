package dev.layout.spark.grid;

import dev.layout.naming.Metric;
import dev.layout.naming.Neighborhoods;
import java.io.Serializable;
import java.util.List;

/**
 * A Cartesian neighbourhood of radius {@code depth} under {@code metric}: the points a stencil
 * reads around each cell, and the process neighbours a block exchanges halos with.
 *
 * <pre>{@code
 * Stencil.NINE_POINT.offsets();   // the 8 offsets of the 2D Moore neighbourhood, generation order
 * }</pre>
 *
 * @param d number of dimensions
 * @param metric the neighbourhood's metric (MANHATTAN for 5/7-point, CHEBYSHEV for 9/27-point)
 * @param depth radius in cells; also the least ghost width a grid needs for it
 */
public record Stencil(int d, Metric metric, int depth) implements Serializable {

    /** 2D von Neumann neighbourhood (5 points with the centre). */
    public static final Stencil FIVE_POINT = new Stencil(2, Metric.MANHATTAN, 1);
    /** 2D Moore neighbourhood (9 points with the centre). */
    public static final Stencil NINE_POINT = new Stencil(2, Metric.CHEBYSHEV, 1);
    /** 3D von Neumann neighbourhood (7 points with the centre). */
    public static final Stencil SEVEN_POINT = new Stencil(3, Metric.MANHATTAN, 1);
    /** 3D Moore neighbourhood (27 points with the centre). */
    public static final Stencil TWENTY_SEVEN_POINT = new Stencil(3, Metric.CHEBYSHEV, 1);

    public Stencil {
        if (d < 1 || metric == null || depth < 1) {
            throw new IllegalArgumentException("stencil: d " + d + ", metric " + metric + ", depth " + depth
                    + " (expected: d >= 1, a metric, depth >= 1)");
        }
    }

    /** The cell offsets without the centre, in {@link Neighborhoods#offsets} generation order. */
    public List<int[]> offsets() {
        return Neighborhoods.offsets(d, metric, 1, depth);
    }

    /**
     * The process-neighbour offsets of a block: every direction in {-1,0,1}^d (without 0) that the
     * stencil reaches, i.e. the stencil's shape at radius 1. A block is at least {@code depth} wide,
     * so the halo always comes from the adjacent blocks.
     */
    public List<int[]> blockOffsets() {
        return Neighborhoods.offsets(d, metric, 1, 1);
    }

    /** The number of points including the centre (5, 9, 7, 27, ...). */
    public int points() {
        return offsets().size() + 1;
    }
}
