package dev.layout.spark.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.spark.comm.BarrierLauncher;
import dev.layout.spark.testing.GridReference;
import dev.layout.spark.testing.LocalSparkExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Tag("spark")
@ExtendWith(LocalSparkExtension.class)
class HaloExchangeIT {

    static Stream<Arguments> cases() {
        return GridCases.casesInBothModes(4);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void bothModesEqualTheSequentialReference(
            String name,
            ExchangeMode mode,
            DistributedGrid grid,
            Stencil stencil,
            StencilKernel kernel,
            GridFunction init,
            int iterations,
            JavaSparkContext jsc) {
        HaloExchange.Result r = HaloExchange.of(grid, stencil)
                .mode(mode)
                .checkpoint(CheckpointPolicy.every(5))
                .run(grid.parallelize(jsc, init), kernel, iterations);
        assertThat(grid.assemble(r.blocks().collect()))
                .containsExactly(GridReference.run(grid, init, kernel, iterations));
        assertThat(r.metrics().iterations()).isEqualTo(iterations);
        assertThat(r.metrics().bytes()).isPositive();
        // where the time went is reported in both modes: pack/unpack, moving the halos, the kernel
        assertThat(r.metrics().packNanos()).isPositive();
        assertThat(r.metrics().wireNanos()).isPositive();
        assertThat(r.metrics().computeNanos()).isPositive();
        r.blocks().unpersist(false);
    }

    static int failAt = -1;

    /** A barrier run that fails after its checkpoint at 10 resumes there and ends as an uninterrupted run. */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES) // fails, instead of hanging, if cancelled ranks are not woken
    void barrierRunResumesFromTheLastCompleteCheckpoint(JavaSparkContext jsc, @TempDir Path dir) {
        DistributedGrid grid = DistributedGrid.create(new int[] {20, 20}, 4, 1, new boolean[] {false, false});
        GridFunction init = GridCases.hot();
        StencilKernel heat = Kernels.heat(Stencil.NINE_POINT, 0.5);
        StencilKernel failing = (src, dst) -> {
            heat.apply(src, dst);
            if (src.rank() == 2 && ++FailOnce.calls == 13 && FailOnce.armed) {
                FailOnce.armed = false;
                throw new IllegalStateException("injected failure at iteration 13");
            }
        };
        HaloExchange ex = HaloExchange.of(grid, Stencil.NINE_POINT)
                .mode(ExchangeMode.BARRIER)
                .timeout(Duration.ofHours(1)) // the failed rank's peers must wake when Spark cancels them, not time out
                .checkpoint(CheckpointPolicy.every(5, dir.toUri().toString()));
        FailOnce.armed = true;
        FailOnce.calls = 0;
        HaloExchange.Result r;
        try {
            r = ex.run(grid.parallelize(jsc, init), failing, 20);
        } catch (RuntimeException e) {
            // local mode gives up on a failed barrier stage: rerun the job as Spark's stage retry would
            assertThat(e).hasMessageContaining("barrier");
            r = ex.run(grid.parallelize(jsc, init), failing, 20);
        }
        assertThat(FailOnce.armed).isFalse();
        assertThat(r.metrics().iterations()).isLessThan(20);
        assertThat(grid.assemble(r.blocks().collect())).containsExactly(GridReference.run(grid, init, heat, 20));
        assertThat(dir.resolve("iter-10.f64")).exists();
    }

    static final class FailOnce {
        static volatile boolean armed;
        static volatile int calls;
    }

    /**
     * Rank 0's kernel stops at iteration 6 until the driver has heard "6 done": the count crossed
     * from the running barrier stage to the driver, not at the stage's end.
     */
    @Test
    void barrierRunReportsIterationsToTheDriverWhileTheStageRuns(JavaSparkContext jsc) {
        DistributedGrid grid = DistributedGrid.create(new int[] {16, 16}, 4, 1, new boolean[] {false, false});
        List<Long> seen = new CopyOnWriteArrayList<>();
        MidRun.heard = new CountDownLatch(1);
        HaloExchange.Result r = HaloExchange.of(grid, Stencil.NINE_POINT)
                .mode(ExchangeMode.BARRIER)
                .progress(n -> {
                    seen.add(n);
                    if (n >= MidRun.AT) {
                        MidRun.heard.countDown();
                    }
                })
                .run(grid.parallelize(jsc, GridCases.hot()), new MidRun(), 12);
        assertThat(grid.assemble(r.blocks().collect()))
                .containsExactly(GridReference.run(grid, GridCases.hot(), Kernels.heat(Stencil.NINE_POINT, 0.5), 12));
        assertThat(seen).contains((long) MidRun.AT).isSorted().endsWith(12L);
        r.blocks().unpersist(false);
    }

    @Test
    void shuffleRunReportsEveryIteration(JavaSparkContext jsc) {
        DistributedGrid grid = DistributedGrid.create(new int[] {12, 12}, 4, 1, new boolean[] {false, false});
        List<Long> seen = new CopyOnWriteArrayList<>();
        HaloExchange.Result r = HaloExchange.of(grid, Stencil.FIVE_POINT)
                .mode(ExchangeMode.SHUFFLE)
                .progress(seen::add)
                .run(grid.parallelize(jsc, GridCases.hot()), Kernels.heat(Stencil.FIVE_POINT, 0.5), 5);
        assertThat(seen).containsExactly(1L, 2L, 3L, 4L, 5L);
        r.blocks().unpersist(false);
    }

    /** The heat kernel; on rank 0, iteration {@link #AT} first waits (bounded) for the driver's latch. */
    static final class MidRun implements StencilKernel {
        static final int AT = 6;
        static volatile CountDownLatch heard;
        private final StencilKernel heat = Kernels.heat(Stencil.NINE_POINT, 0.5);

        @Override
        public void apply(GridBlock src, GridBlock dst) {
            heat.apply(src, dst);
        }

        @Override
        public void apply(int iteration, GridBlock src, GridBlock dst) {
            if (src.rank() == 0 && iteration == AT) {
                try {
                    if (!heard.await(60, TimeUnit.SECONDS)) {
                        throw new IllegalStateException(
                                "the driver heard nothing of iterations 1.." + AT + " within 60 s");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
            heat.apply(src, dst);
        }
    }

    @Test
    void barrierLaunchIsRefusedWhenRanksExceedSlots(JavaSparkContext jsc) {
        assertThatThrownBy(() -> BarrierLauncher.check(jsc.sc(), 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("5 ranks but the cluster runs only 4 tasks at once");
        DistributedGrid grid = DistributedGrid.create(new int[] {10, 10}, 6, 1, new boolean[] {false, false});
        JavaRDD<GridBlock> blocks = grid.parallelize(jsc, x -> 0);
        assertThatThrownBy(() ->
                        HaloExchange.of(grid, Stencil.FIVE_POINT).run(blocks, Kernels.heat(Stencil.FIVE_POINT, 0.5), 1))
                .hasMessageContaining("6 ranks but the cluster runs only 4");
    }
}
