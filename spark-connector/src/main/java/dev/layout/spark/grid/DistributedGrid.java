package dev.layout.spark.grid;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Dims;
import dev.layout.naming.RankOrder;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A 2D or 3D (any d) array of float64 elements distributed as one block per rank over a Cartesian
 * process grid, each block surrounded by {@code ghost} cells.
 *
 * <p>Blocks are as even as possible: along an axis of N elements over P processes the first {@code
 * N mod P} processes hold {@code N/P + 1} elements, the others {@code N/P}. Ranks follow C order
 * of the process coordinates ({@link RankOrder#C}), and in Spark the block of rank r lives in
 * partition r.
 *
 * <pre>{@code
 * DistributedGrid grid = DistributedGrid.create(new int[] {1024, 1024}, 4, 1, new boolean[] {false, false});
 * JavaRDD<GridBlock> blocks = grid.parallelize(jsc, x -> x[0] == 0 ? 100.0 : 0.0);
 * }</pre>
 *
 * <p>Immutable and serializable: shipped to executors with the closures that use it.
 */
public final class DistributedGrid implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int[] globalSize;
    private final int[] processGrid;
    private final int ghost;
    private final boolean[] periodic;

    private DistributedGrid(int[] globalSize, int[] processGrid, int ghost, boolean[] periodic) {
        this.globalSize = globalSize.clone();
        this.processGrid = processGrid.clone();
        this.ghost = ghost;
        this.periodic = periodic.clone();
    }

    /**
     * A grid over a given process grid.
     *
     * @throws IllegalArgumentException if the arrays' lengths differ, a size is not positive, ghost
     *     < 1, or a block would be narrower than the ghost width
     */
    public static DistributedGrid of(int[] globalSize, int[] processGrid, int ghost, boolean[] periodic) {
        if (globalSize == null || processGrid == null || periodic == null) {
            throw new IllegalArgumentException(
                    "distributedGrid: null argument (expected: global size, process grid, periods)");
        }
        int d = globalSize.length;
        if (d < 1 || processGrid.length != d || periodic.length != d) {
            throw new IllegalArgumentException(
                    "distributedGrid: global size " + Arrays.toString(globalSize) + ", process grid "
                            + Arrays.toString(processGrid) + ", periods " + Arrays.toString(periodic)
                            + " (expected: the same number >= 1 of dimensions)");
        }
        if (ghost < 1) {
            throw new IllegalArgumentException("distributedGrid: ghost " + ghost + " (expected: >= 1)");
        }
        for (int a = 0; a < d; a++) {
            if (globalSize[a] < 1 || processGrid[a] < 1) {
                throw new IllegalArgumentException("distributedGrid: dimension " + a + " size " + globalSize[a]
                        + " over " + processGrid[a] + " processes (expected: both >= 1)");
            }
            if (globalSize[a] / processGrid[a] < ghost) {
                throw new IllegalArgumentException(
                        "distributedGrid: dimension " + a + " has blocks of " + globalSize[a] / processGrid[a]
                                + " elements (" + globalSize[a] + " over " + processGrid[a]
                                + " processes), narrower than ghost width "
                                + ghost + " (expected: fewer processes or a wider grid)");
            }
        }
        return new DistributedGrid(globalSize, processGrid, ghost, periodic);
    }

    /** A grid over {@code Dims.create(ranks, d)}, the most balanced process grid. */
    public static DistributedGrid create(int[] globalSize, int ranks, int ghost, boolean[] periodic) {
        if (globalSize == null) {
            throw new IllegalArgumentException("distributedGrid: global size null");
        }
        return of(globalSize, Dims.create(ranks, globalSize.length), ghost, periodic);
    }

    public int d() {
        return globalSize.length;
    }

    public int[] globalSize() {
        return globalSize.clone();
    }

    public int[] processGrid() {
        return processGrid.clone();
    }

    public int ghost() {
        return ghost;
    }

    public boolean[] periodic() {
        return periodic.clone();
    }

    /** The number of ranks = blocks = Spark partitions. */
    public int ranks() {
        return Arrays.stream(processGrid).reduce(1, (x, y) -> x * y);
    }

    /** Global element count. */
    public long elements() {
        long n = 1;
        for (int s : globalSize) {
            n *= s;
        }
        return n;
    }

    /** The process grid as a Cartesian naming (C rank order, the grid's periods). */
    public CartesianNaming naming() {
        return CartesianNaming.of(processGrid, periodic, RankOrder.C);
    }

    public int[] coordinates(int rank) {
        checkRank(rank);
        return naming().coordinates(rank);
    }

    /** Global coordinates of the first element of rank's block. */
    public int[] blockStart(int rank) {
        int[] c = coordinates(rank);
        int[] s = new int[d()];
        for (int a = 0; a < d(); a++) {
            int q = globalSize[a] / processGrid[a];
            int r = globalSize[a] % processGrid[a];
            s[a] = c[a] * q + Math.min(c[a], r);
        }
        return s;
    }

    /** Interior sizes of rank's block. */
    public int[] blockSize(int rank) {
        int[] c = coordinates(rank);
        int[] n = new int[d()];
        for (int a = 0; a < d(); a++) {
            n[a] = globalSize[a] / processGrid[a] + (c[a] < globalSize[a] % processGrid[a] ? 1 : 0);
        }
        return n;
    }

    /** Local array sizes of rank's block (interior plus ghosts). */
    public int[] localSize(int rank) {
        int[] n = blockSize(rank);
        for (int a = 0; a < n.length; a++) {
            n[a] += 2 * ghost;
        }
        return n;
    }

    /**
     * The region of rank's local array sent toward the neighbour at process offset {@code v}
     * (components in -1..1): the {@code ghost}-wide slab of the interior on that side (a face, an
     * edge or a corner), as a subarray of float64.
     */
    public Datatype haloSendType(int rank, int[] v) {
        return region(rank, v, false);
    }

    /** The ghost region of rank's local array on the side of process offset {@code v}. */
    public Datatype haloRecvType(int rank, int[] v) {
        return region(rank, v, true);
    }

    private Datatype region(int rank, int[] v, boolean halo) {
        if (v == null || v.length != d()) {
            throw new IllegalArgumentException(
                    "halo: offset " + Arrays.toString(v) + " (expected: " + d() + " components in -1..1)");
        }
        int[] n = blockSize(rank);
        long[] sizes = new long[d()];
        long[] sub = new long[d()];
        long[] starts = new long[d()];
        for (int a = 0; a < d(); a++) {
            sizes[a] = n[a] + 2L * ghost;
            switch (v[a]) {
                case 0 -> {
                    starts[a] = ghost;
                    sub[a] = n[a];
                }
                case -1 -> {
                    starts[a] = halo ? 0 : ghost;
                    sub[a] = ghost;
                }
                case 1 -> {
                    starts[a] = halo ? ghost + n[a] : n[a];
                    sub[a] = ghost;
                }
                default ->
                    throw new IllegalArgumentException(
                            "halo: offset " + Arrays.toString(v) + " (expected: components in -1..1)");
            }
        }
        return Datatype.subarray(sizes, sub, starts, Order.C, Primitive.FLOAT64);
    }

    /**
     * A new block of {@code rank} with every local element, ghosts included, set from {@code init}
     * at its global coordinates (wrapped on periodic axes; outside the domain on the others).
     */
    public GridBlock newBlock(int rank, GridFunction init) {
        int[] start = blockStart(rank);
        int[] dims = localSize(rank);
        long len = 8L;
        for (int x : dims) {
            len *= x;
        }
        GridBlock b = new GridBlock(rank, ghost, start, dims, new byte[Math.toIntExact(len)]);
        int[] local = new int[d()];
        int[] global = new int[d()];
        for (int i = 0, n = b.length(); i < n; i++) {
            for (int a = 0; a < d(); a++) {
                int g = start[a] + local[a] - ghost;
                global[a] = periodic[a] ? Math.floorMod(g, globalSize[a]) : g;
            }
            b.set(i, init.at(global.clone()));
            for (int a = d() - 1; a >= 0 && ++local[a] == dims[a]; a--) {
                local[a] = 0;
            }
        }
        return b;
    }

    /** One block per rank, block r in partition r. Blocks are built on the executors. */
    public JavaRDD<GridBlock> parallelize(JavaSparkContext jsc, GridFunction init) {
        List<Integer> ranks = IntStream.range(0, ranks()).boxed().collect(Collectors.toList());
        DistributedGrid grid = this;
        return jsc.parallelize(ranks, ranks()).map(r -> grid.newBlock(r, init));
    }

    /** The global array in C order assembled from the blocks' interiors (any order, one per rank). */
    public double[] assemble(List<GridBlock> blocks) {
        if (elements() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("assemble: " + elements() + " elements (expected: < 2^31)");
        }
        double[] out = new double[(int) elements()];
        boolean[] seen = new boolean[ranks()];
        for (GridBlock b : blocks) {
            checkRank(b.rank());
            if (seen[b.rank()]) {
                throw new IllegalArgumentException("assemble: block of rank " + b.rank() + " twice");
            }
            seen[b.rank()] = true;
            int[] n = b.interior();
            int[] start = b.start();
            int[] c = new int[d()];
            int[] local = new int[d()];
            long total = 1;
            for (int x : n) {
                total *= x;
            }
            for (long k = 0; k < total; k++) {
                int gi = 0;
                for (int a = 0; a < d(); a++) {
                    local[a] = c[a] + ghost;
                    gi = gi * globalSize[a] + start[a] + c[a];
                }
                out[gi] = b.get(b.index(local));
                for (int a = d() - 1; a >= 0 && ++c[a] == n[a]; a--) {
                    c[a] = 0;
                }
            }
        }
        for (int r = 0; r < seen.length; r++) {
            if (!seen[r]) {
                throw new IllegalArgumentException("assemble: no block of rank " + r + " (expected: one per rank)");
            }
        }
        return out;
    }

    /** The process-neighbour list of {@code rank} for {@code stencil}: see {@link HaloPlan}. */
    List<int[]> checkStencil(Stencil stencil) {
        if (stencil.d() != d()) {
            throw new IllegalArgumentException(
                    "halo: stencil of " + stencil.d() + " dimensions on a " + d() + "-dimensional grid");
        }
        if (stencil.depth() > ghost) {
            throw new IllegalArgumentException(
                    "halo: stencil depth " + stencil.depth() + " (expected: <= ghost width " + ghost + ")");
        }
        return new ArrayList<>(stencil.blockOffsets());
    }

    private void checkRank(int rank) {
        if (rank < 0 || rank >= ranks()) {
            throw new IllegalArgumentException(
                    "distributedGrid: rank " + rank + " (expected: 0.." + (ranks() - 1) + ")");
        }
    }

    @Override
    public String toString() {
        return "distributedGrid(" + Arrays.toString(globalSize) + " over " + Arrays.toString(processGrid) + ", ghost "
                + ghost + ", periodic " + Arrays.toString(periodic) + ")";
    }
}
