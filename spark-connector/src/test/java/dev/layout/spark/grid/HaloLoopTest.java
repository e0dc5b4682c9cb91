package dev.layout.spark.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.InProcessLauncher;
import dev.layout.spark.testing.GridReference;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The barrier-mode loop without Spark: ranks are threads over the in-process transport. */
class HaloLoopTest {

    static Stream<Arguments> cases() {
        return Stream.concat(GridCases.cases(4), GridCases.cases(6));
    }

    @ParameterizedTest(name = "{0} over {1}")
    @MethodSource("cases")
    void barrierLoopEqualsTheSequentialReference(
            String name,
            DistributedGrid grid,
            Stencil stencil,
            StencilKernel kernel,
            GridFunction init,
            int iterations) {
        HaloPlan plan = HaloPlan.of(grid, stencil, dev.layout.normalize.Normalizer.defaults());
        List<GridBlock> out = InProcessLauncher.run(
                grid.ranks(),
                Duration.ofSeconds(20),
                world -> HaloExchange.iterate(
                        world,
                        plan,
                        grid.newBlock(world.rank(), init),
                        kernel,
                        iterations,
                        CheckpointPolicy.NONE,
                        null));
        assertThat(grid.assemble(out)).containsExactly(GridReference.run(grid, init, kernel, iterations));
    }

    @Test
    void unevenBlocksCoverTheGlobalArray() {
        DistributedGrid g = DistributedGrid.of(new int[] {10, 7}, new int[] {3, 2}, 1, new boolean[] {false, false});
        assertThat(g.blockSize(0)).containsExactly(4, 4);
        assertThat(g.blockSize(5)).containsExactly(3, 3);
        assertThat(g.blockStart(5)).containsExactly(7, 4);
        assertThat(g.localSize(2)).containsExactly(5, 6);
    }

    @Test
    void haloTypesAreSubarraysOfTheLocalArray() {
        DistributedGrid g = DistributedGrid.of(new int[] {8, 8}, new int[] {2, 2}, 1, new boolean[] {false, false});
        assertThat(g.haloSendType(0, new int[] {1, 0}).byteSize()).isEqualTo(4 * 8);
        assertThat(g.haloRecvType(0, new int[] {1, 1}).byteSize()).isEqualTo(8);
        HaloPlan plan = HaloPlan.of(g, Stencil.NINE_POINT, dev.layout.normalize.Normalizer.defaults());
        // normalization minimizes the cost model, not the notation's length: both are reported
        assertThat(plan.descriptorBytes()[0]).isPositive();
        assertThat(plan.descriptorBytes()[1]).isPositive();
        assertThat(plan.descriptorCost()[1]).isLessThanOrEqualTo(plan.descriptorCost()[0]);
        // generation order, dimension 0 fastest: (1,0) -> rank 2, (0,1) -> rank 1, (1,1) -> rank 3
        assertThat(plan.local(0).destinations()).containsExactly(2, 1, 3);
    }

    @Test
    void blocksNarrowerThanTheGhostAreRefused() {
        assertThatThrownBy(
                        () -> DistributedGrid.of(new int[] {5, 8}, new int[] {3, 2}, 2, new boolean[] {false, false}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("narrower than ghost width 2");
    }

    @Test
    void lifeBlinkerOscillates() {
        DistributedGrid g = DistributedGrid.of(new int[] {5, 5}, new int[] {1, 1}, 1, new boolean[] {false, false});
        GridFunction blinker = x -> x[0] == 2 && x[1] >= 1 && x[1] <= 3 ? 1 : 0;
        double[] one = GridReference.run(g, blinker, Kernels.life(), 1);
        double[] two = GridReference.run(g, blinker, Kernels.life(), 2);
        assertThat(one[1 * 5 + 2] + one[2 * 5 + 2] + one[3 * 5 + 2]).isEqualTo(3.0);
        assertThat(one[2 * 5 + 1]).isZero();
        assertThat(two).containsExactly(GridReference.run(g, blinker, Kernels.life(), 0));
    }
}
