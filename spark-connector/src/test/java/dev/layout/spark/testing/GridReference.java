package dev.layout.spark.testing;

import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.GridBlock;
import dev.layout.spark.grid.GridFunction;
import dev.layout.spark.grid.StencilKernel;
import java.util.List;

/**
 * The sequential reference of a distributed stencil run: the whole domain as one block whose
 * ghost cells are refreshed by copying (periodic axes) or kept at their initial value (fixed
 * borders), then the same kernel. Distributed results must equal it exactly.
 */
public final class GridReference {
    private GridReference() {}

    public static double[] run(DistributedGrid grid, GridFunction init, StencilKernel kernel, int iterations) {
        int d = grid.d();
        int[] ones = new int[d];
        java.util.Arrays.fill(ones, 1);
        DistributedGrid whole = DistributedGrid.of(grid.globalSize(), ones, grid.ghost(), grid.periodic());
        GridBlock cur = whole.newBlock(0, init);
        GridBlock next = cur.copy();
        for (int i = 0; i < iterations; i++) {
            refreshGhosts(whole, cur);
            kernel.apply(cur, next);
            GridBlock s = cur;
            cur = next;
            next = s;
        }
        return whole.assemble(List.of(cur));
    }

    private static void refreshGhosts(DistributedGrid whole, GridBlock b) {
        int d = b.d();
        int g = b.ghost();
        int[] dims = b.dims();
        int[] n = b.interior();
        boolean[] periodic = whole.periodic();
        int[] c = new int[d];
        int[] src = new int[d];
        for (int i = 0, len = b.length(); i < len; i++) {
            boolean ghost = false;
            boolean fixed = false;
            for (int a = 0; a < d; a++) {
                int x = c[a] - g;
                if (x < 0 || x >= n[a]) {
                    ghost = true;
                    fixed |= !periodic[a];
                }
                src[a] = Math.floorMod(x, n[a]) + g;
            }
            if (ghost && !fixed) {
                b.set(i, b.get(b.index(src)));
            }
            for (int a = d - 1; a >= 0 && ++c[a] == dims[a]; a--) {
                c[a] = 0;
            }
        }
    }
}
