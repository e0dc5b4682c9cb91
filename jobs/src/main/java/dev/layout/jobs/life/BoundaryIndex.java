package dev.layout.jobs.life;

import dev.layout.spark.grid.DistributedGrid;
import java.io.Serializable;

/**
 * The positions of the vector that {@link AllreduceLife} reduces: one byte per board cell that lies
 * on a block edge (the first or last row or column of some block), named so that every process
 * can compute a cell's position from the cell alone, without knowing who will read it.
 *
 * <p>A cell on a block-edge row goes to the row part, at {@code (row class, column position)}; a
 * cell on a block-edge column only, to the column part, at {@code (column class, row position)}.
 * Along an axis of P blocks, block b gets a colour c(b) such that blocks at (cyclic, on a
 * periodic axis) distance 1 or 2 differ: b mod 3 on an open axis; on a ring of P ≥ 3 blocks a
 * proper colouring of the ring's square (3 colours if 3 divides P, 4 otherwise, 5 for P = 5); on
 * rings of 1 or 2 blocks every block its own colour. A coordinate's <em>class</em> is {@code
 * 2 c(b) + (first of its block ? 0 : 1)} and its <em>position</em> is {@code c(b) * maxBlock +
 * offset in the block}.
 *
 * <p>Why this is enough: a process q reads the positions of its own edge cells x; it receives the
 * sum of the vectors of its Chebyshev neighbours p, and p writes only at cells y of its outer
 * ring (the cells around its block), whose rows and columns lie in the blocks q-2..q+2 along each
 * axis. If y and x share a position, their rows have the same class and their columns the same
 * position; blocks at distance 1 or 2 have different colours, so y's row is in x's block and
 * is the same first/last row, and likewise for the column: y = x. So what q reads at x is
 * exactly what its neighbours wrote for x. Sizes: {@code 2 k0 * k1 maxCols + 2 k1 * k0 maxRows}
 * bytes for k0, k1 colours, rounded up to whole ints (the sum is taken as INT_SUM).
 */
final class BoundaryIndex implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Axis rows;
    private final Axis cols;
    private final int rowPartBytes;
    private final int bytes;

    BoundaryIndex(DistributedGrid grid) {
        if (grid.d() != 2) {
            throw new IllegalArgumentException("boundaryIndex: " + grid.d() + " dimensions (expected: 2)");
        }
        rows = new Axis(grid.globalSize()[0], grid.processGrid()[0], grid.periodic()[0]);
        cols = new Axis(grid.globalSize()[1], grid.processGrid()[1], grid.periodic()[1]);
        long rowPart = 2L * rows.colours * cols.colours * cols.maxBlock;
        long colPart = 2L * cols.colours * rows.colours * rows.maxBlock;
        long total = (rowPart + colPart + 3) / 4 * 4;
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "boundaryIndex: " + total + " bytes for " + grid + " (expected: < 2^31)");
        }
        rowPartBytes = (int) rowPart;
        bytes = (int) total;
    }

    /** Length of the reduced vector in bytes (a multiple of 4). */
    int bytes() {
        return bytes;
    }

    /**
     * The position of board cell (i, j) (both inside the board), or -1 if it is on no block edge.
     */
    int of(int i, int j) {
        if (rows.isEdge(i)) {
            return rows.edgeClass(i) * (cols.colours * cols.maxBlock) + cols.position(j);
        }
        if (cols.isEdge(j)) {
            return rowPartBytes + cols.edgeClass(j) * (rows.colours * rows.maxBlock) + rows.position(i);
        }
        return -1;
    }

    /** One axis: n cells in P blocks (larger blocks first, as {@link DistributedGrid} cuts them). */
    static final class Axis implements Serializable {
        private static final long serialVersionUID = 1L;
        final int n;
        final int blocks;
        final int[] start;
        final int[] colour;
        final int colours;
        final int maxBlock;

        Axis(int n, int blocks, boolean periodic) {
            this.n = n;
            this.blocks = blocks;
            int q = n / blocks;
            int r = n % blocks;
            start = new int[blocks + 1];
            for (int b = 0; b <= blocks; b++) {
                start[b] = b * q + Math.min(b, r);
            }
            colour = colours(blocks, periodic);
            int k = 0;
            for (int c : colour) {
                k = Math.max(k, c + 1);
            }
            colours = k;
            maxBlock = q + (r > 0 ? 1 : 0);
        }

        int block(int i) {
            int q = n / blocks;
            int r = n % blocks;
            int big = r * (q + 1);
            return i < big ? i / (q + 1) : r + (i - big) / q;
        }

        boolean isEdge(int i) {
            int b = block(i);
            return i == start[b] || i == start[b + 1] - 1;
        }

        int edgeClass(int i) {
            int b = block(i);
            return 2 * colour[b] + (i == start[b] ? 0 : 1);
        }

        int position(int i) {
            int b = block(i);
            return colour[b] * maxBlock + (i - start[b]);
        }
    }

    /**
     * Colours of {@code p} blocks along an axis such that blocks at distance 1 or 2 (cyclic on a
     * periodic axis) differ; on rings of 1 or 2 blocks, where "distance 2" is the block itself,
     * every block keeps its own colour.
     */
    static int[] colours(int p, boolean periodic) {
        int[] c = new int[p];
        for (int b = 0; b < p; b++) {
            if (!periodic || p <= 2 || p % 3 == 0) {
                c[b] = periodic && p <= 2 ? b : b % 3;
            } else if (p % 3 == 1) {
                c[b] = b < p - 1 ? b % 3 : 3; // ...0,1,2,0,1,2,3 | 0,1,...
            } else if (p == 5) {
                c[b] = b; // the square of a 5-ring is complete
            } else {
                c[b] = b < p - 8
                        ? b % 3
                        : (b - (p - 8)) % 4; // ...0,1,2 | 0,1,2,3,0,1,2,3 | 0,1,... (p - 8 divisible by 3)
            }
        }
        return c;
    }
}
