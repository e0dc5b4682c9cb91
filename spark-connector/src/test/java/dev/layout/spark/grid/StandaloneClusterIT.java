package dev.layout.spark.grid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.spark.testing.GridReference;
import dev.layout.spark.testing.StandaloneClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Halo exchange across executor JVMs of a standalone cluster (2 workers x 2 cores). */
@Tag("cluster")
@ExtendWith(StandaloneClusterExtension.class)
class StandaloneClusterIT {

  @Test
  void bothModesEqualTheSequentialReferenceAcrossExecutors(JavaSparkContext jsc) {
    DistributedGrid grid = DistributedGrid.create(new int[] {30, 26}, 4, 1, new boolean[] {false, true});
    GridFunction init = GridCases.hot();
    StencilKernel heat = Kernels.heat(Stencil.NINE_POINT, 0.5);
    double[] expected = GridReference.run(grid, init, heat, 20);
    for (ExchangeMode mode : ExchangeMode.values()) {
      HaloExchange.Result r = HaloExchange.of(grid, Stencil.NINE_POINT).mode(mode).checkpoint(CheckpointPolicy.every(10))
          .run(grid.parallelize(jsc, init), heat, 20);
      assertThat(grid.assemble(r.blocks().collect())).as("%s", mode).containsExactly(expected);
    }
  }

  /** An executor JVM killed in the middle of a barrier run: Spark retries the stage, which resumes. */
  @Test
  void killedExecutorRunFinishesWithTheUninterruptedResult(
      JavaSparkContext jsc, StandaloneClusterExtension.Cluster cluster, @TempDir Path dir) throws Exception {
    DistributedGrid grid = DistributedGrid.create(new int[] {160, 160}, 4, 1, new boolean[] {false, false});
    GridFunction init = GridCases.hot();
    StencilKernel heat = Kernels.heat(Stencil.NINE_POINT, 0.5);
    int iterations = 4000;
    HaloExchange ex = HaloExchange.of(grid, Stencil.NINE_POINT).mode(ExchangeMode.BARRIER)
        .checkpoint(CheckpointPolicy.every(50, dir.toUri().toString()));
    CompletableFuture<double[]> run =
        CompletableFuture.supplyAsync(() -> grid.assemble(ex.run(grid.parallelize(jsc, init), heat, iterations).blocks().collect()));
    Path marker = dir.resolve("iter-100").resolve("_COMPLETE");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (!Files.exists(marker) && !run.isDone() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      Thread.sleep(20); // bounded polling of a file another process writes
    }
    assertThat(run.isDone()).as("run ended before the kill").isFalse();
    // a Worker's only children are its executor JVMs
    ProcessHandle executor = cluster.workers().stream().flatMap(ProcessHandle::children).findFirst()
        .orElseThrow(() -> new AssertionError("no executor JVM under the workers " + cluster.workers()));
    executor.destroyForcibly();
    double[] result = run.get(5, TimeUnit.MINUTES);
    assertThat(result).containsExactly(GridReference.run(grid, init, heat, iterations));
  }
}
