package dev.layout.spark.grid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.spark.testing.GridReference;
import dev.layout.spark.testing.StandaloneClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Halo exchange across the executor JVMs of a standalone cluster (2 workers x 2 cores, one
 * cluster for the class): every grid case of {@link GridCases} in both modes, and an executor JVM
 * killed in the middle of a barrier-mode and of a shuffle-mode run.
 */
@Tag("cluster")
@ExtendWith(StandaloneClusterExtension.class)
class StandaloneClusterIT {
    /** Bound of a replacement executor's registration after a kill (JVM start on a loaded machine). */
    private static final Duration EXECUTOR_RESTART = Duration.ofMinutes(3);

    static Stream<Arguments> cases() {
        return GridCases.casesInBothModes(4);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void bothModesEqualTheSequentialReferenceAcrossExecutors(
            String name,
            ExchangeMode mode,
            DistributedGrid grid,
            Stencil stencil,
            StencilKernel kernel,
            GridFunction init,
            int iterations,
            JavaSparkContext jsc) {
        RecordingKernel recorded = RecordingKernel.of(jsc, kernel);
        HaloExchange.Result r = HaloExchange.of(grid, stencil)
                .mode(mode)
                .checkpoint(CheckpointPolicy.every(5))
                .run(grid.parallelize(jsc, init), recorded, iterations);
        assertThat(grid.assemble(r.blocks().collect()))
                .containsExactly(GridReference.run(grid, init, kernel, iterations));
        assertThat(r.metrics().iterations()).isEqualTo(iterations);
        assertThat(r.metrics().bytes()).isPositive();
        // the blocks were computed in more than one executor JVM, so halos crossed process boundaries
        assertThat(recorded.calls().stream().map(RecordingKernel.Call::pid).distinct())
                .doesNotContain(ProcessHandle.current().pid())
                .hasSizeGreaterThanOrEqualTo(2);
        r.blocks().unpersist(false);
    }

    /**
     * An executor JVM killed in the middle of a barrier run: Spark retries the barrier stage, whose
     * ranks resume from the last complete checkpoint in {@code dir}.
     */
    @Test
    void killedExecutorBarrierRunResumesFromItsCheckpoint(
            JavaSparkContext jsc, StandaloneClusterExtension.Cluster cluster, @TempDir Path dir) throws Exception {
        DistributedGrid grid = DistributedGrid.create(new int[] {160, 160}, 4, 1, new boolean[] {false, false});
        GridFunction init = GridCases.hot();
        StencilKernel heat = Kernels.heat(Stencil.NINE_POINT, 0.5);
        int iterations = 4000;
        int interval = 50;
        HaloExchange ex = HaloExchange.of(grid, Stencil.NINE_POINT)
                .mode(ExchangeMode.BARRIER)
                .checkpoint(CheckpointPolicy.every(interval, dir.toUri().toString()));
        SchedulerEvents events = new SchedulerEvents();
        jsc.sc().addSparkListener(events);
        try {
            CompletableFuture<HaloExchange.Result> run =
                    CompletableFuture.supplyAsync(() -> ex.run(grid.parallelize(jsc, init), heat, iterations));
            // the barrier loop is one task per rank: progress is only visible in the checkpoint directory
            Path marker = dir.resolve("iter-100.f64"); // appears only once complete (collective write, atomic commit)
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!Files.exists(marker) && !run.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(20); // bounded polling of a file another process writes
            }
            assertThat(marker).as("checkpoint 100 complete").exists();
            assertThat(run.isDone()).as("run ended before the kill").isFalse();
            List<ProcessHandle> executors = cluster.executors();
            assertThat(executors).as("executor JVMs").isNotEmpty();
            killExecutor(cluster, executors.get(0).pid());
            HaloExchange.Result r = run.get(5, TimeUnit.MINUTES);
            assertThat(grid.assemble(r.blocks().collect()))
                    .containsExactly(GridReference.run(grid, init, heat, iterations));
            assertThat(events.executorsRemoved()).as("executors lost").isPositive();
            assertThat(events.stageReattempts())
                    .as("barrier stage attempts after the first")
                    .isPositive();
            // the attempt that finished started from a checkpoint at or after 100, not from iteration 0
            long resumedAt = iterations - r.metrics().iterations();
            assertThat(resumedAt).as("iteration the retried stage resumed from").isGreaterThanOrEqualTo(100);
            assertThat(resumedAt % interval).isZero();
            System.out.printf(
                    "barrier kill: executors removed %d, failed task attempts %d, stage re-attempts %d,"
                            + " resumed at iteration %d of %d%n",
                    events.executorsRemoved(),
                    events.failedTasks().size(),
                    events.stageReattempts(),
                    resumedAt,
                    iterations);
            assertThat(events.awaitExecutorAdded(EXECUTOR_RESTART))
                    .as("a replacement executor registered")
                    .isTrue();
            r.blocks().unpersist(false);
        } finally {
            jsc.sc().removeSparkListener(events);
        }
    }

    /**
     * An executor JVM killed in the middle of a shuffle run (one Spark job per iteration, the block
     * RDD checkpointed every 10): Spark rebuilds the lost blocks and halos from lineage, which starts
     * at the last checkpoint, and the run ends with the uninterrupted result.
     */
    @Test
    void killedExecutorShuffleRunRecomputesFromTheLastCheckpoint(
            JavaSparkContext jsc, StandaloneClusterExtension.Cluster cluster) throws Exception {
        DistributedGrid grid = DistributedGrid.create(new int[] {40, 40}, 4, 1, new boolean[] {false, false});
        GridFunction init = GridCases.hot();
        StencilKernel heat = Kernels.heat(Stencil.NINE_POINT, 0.5);
        int iterations = 30;
        int interval = 10;
        int killAfter = 13; // iterations done on every rank: checkpoint 10 is written, checkpoint 20 not yet
        RecordingKernel recorded = RecordingKernel.of(jsc, heat);
        HaloExchange ex = HaloExchange.of(grid, Stencil.NINE_POINT)
                .mode(ExchangeMode.SHUFFLE)
                .checkpoint(CheckpointPolicy.every(interval));
        // before any failure every application is counted once, so 4 x 13 calls = iterations 0..12 done
        SchedulerEvents events = new SchedulerEvents(() -> recorded.calls().size() >= grid.ranks() * killAfter);
        jsc.sc().addSparkListener(events);
        try {
            CompletableFuture<HaloExchange.Result> run =
                    CompletableFuture.supplyAsync(() -> ex.run(grid.parallelize(jsc, init), recorded, iterations));
            assertThat(events.awaitPoint(Duration.ofMinutes(3)))
                    .as("iteration %d reached", killAfter)
                    .isTrue();
            assertThat(run.isDone()).as("run ended before the kill").isFalse();
            // the JVM that computed (and caches) rank 0's latest block, so blocks are certainly lost
            long pid = recorded.calls().stream()
                    .filter(c -> c.rank() == 0 && c.iteration() == killAfter - 1)
                    .findFirst()
                    .orElseThrow()
                    .pid();
            killExecutor(cluster, pid);
            HaloExchange.Result r = run.get(5, TimeUnit.MINUTES);
            assertThat(grid.assemble(r.blocks().collect()))
                    .containsExactly(GridReference.run(grid, init, heat, iterations));

            assertThat(events.executorsRemoved()).as("executors lost").isPositive();
            Map<RecordingKernel.Call, Long> runs = recorded.calls().stream()
                    .map(c -> new RecordingKernel.Call(0, c.rank(), c.iteration()))
                    .collect(Collectors.groupingBy(c -> c, Collectors.counting()));
            assertThat(runs).as("every rank ran every iteration").hasSize(grid.ranks() * iterations);
            List<Integer> rerun = runs.entrySet().stream()
                    .filter(e -> e.getValue() > 1)
                    .map(e -> e.getKey().iteration())
                    .sorted()
                    .toList();
            // lost blocks were rebuilt by running iterations again, never from before the checkpoint
            assertThat(rerun)
                    .as("iterations run again (failed tasks: %s)", events.failedTasks())
                    .isNotEmpty();
            assertThat(rerun.get(0)).as("first iteration run again").isGreaterThanOrEqualTo(interval);
            System.out.printf(
                    "shuffle kill: executors removed %d, failed task attempts %d, stage re-attempts %d,"
                            + " (rank, iteration) pairs run again %d, iterations %d-%d%n",
                    events.executorsRemoved(),
                    events.failedTasks().size(),
                    events.stageReattempts(),
                    rerun.size(),
                    rerun.get(0),
                    rerun.get(rerun.size() - 1));
            assertThat(events.awaitExecutorAdded(EXECUTOR_RESTART))
                    .as("a replacement executor registered")
                    .isTrue();
            r.blocks().unpersist(false);
        } finally {
            jsc.sc().removeSparkListener(events);
        }
    }

    private static void killExecutor(StandaloneClusterExtension.Cluster cluster, long pid) {
        ProcessHandle executor = cluster.executors().stream()
                .filter(p -> p.pid() == pid)
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError("pid " + pid + " is not an executor JVM of " + cluster.executors()));
        executor.destroyForcibly();
    }
}
