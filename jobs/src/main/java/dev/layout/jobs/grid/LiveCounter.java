package dev.layout.jobs.grid;

import dev.layout.spark.grid.GridBlock;
import dev.layout.spark.grid.Kernels;
import dev.layout.spark.grid.StencilKernel;
import org.apache.spark.util.CollectionAccumulator;

/**
 * Game of Life (B3/S23) that also reports, per generation, the live cells of its block into a
 * Spark accumulator as {@code {generation, count}}; the driver sums them into the live-cell count
 * after each generation. The computation is {@link Kernels#life()} unchanged.
 */
public final class LiveCounter implements StencilKernel {
    private static final long serialVersionUID = 1L;
    private final StencilKernel life = Kernels.life();
    private final CollectionAccumulator<long[]> counts;

    public LiveCounter(CollectionAccumulator<long[]> counts) {
        this.counts = counts;
    }

    @Override
    public void apply(GridBlock src, GridBlock dst) {
        life.apply(src, dst);
    }

    @Override
    public void apply(int generation, GridBlock src, GridBlock dst) {
        life.apply(src, dst);
        int g = dst.ghost();
        int[] n = dst.interior();
        long live = 0;
        for (int r = g; r < g + n[0]; r++) {
            int row = dst.index(r, g);
            for (int i = row; i < row + n[1]; i++) {
                if (dst.get(i) != 0) {
                    live++;
                }
            }
        }
        counts.add(new long[] {generation, live});
    }
}
