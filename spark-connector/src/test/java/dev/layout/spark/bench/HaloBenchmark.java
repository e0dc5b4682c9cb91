package dev.layout.spark.bench;

import dev.layout.comm.Communicator;
import dev.layout.normalize.Normalizer;
import dev.layout.spark.comm.TransportFactory;
import dev.layout.spark.grid.CheckpointPolicy;
import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.ExchangeMode;
import dev.layout.spark.grid.GridBlock;
import dev.layout.spark.grid.HaloExchange;
import dev.layout.spark.grid.HaloMetrics;
import dev.layout.spark.grid.HaloPlan;
import dev.layout.spark.grid.Kernels;
import dev.layout.spark.grid.Stencil;
import dev.layout.spark.grid.StencilKernel;
import dev.layout.transport.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Per-iteration time of the 2D 9-point heat stencil, 4 ranks of 512x512 float64 (global
 * 1024x1024): barrier vs shuffle on local[4], and the same barrier loop over plain threads
 * connected by the socket transport (no Spark). Prints ratios; not a test.
 *
 * <p>Args: [barrierIterations=200] [shuffleIterations=20] [block=512].
 */
public final class HaloBenchmark {
  public static void main(String[] args) throws Exception {
    int bi = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int si = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int n = args.length > 2 ? Integer.parseInt(args[2]) : 512;
    DistributedGrid grid = DistributedGrid.of(new int[] {2 * n, 2 * n}, new int[] {2, 2}, 1, new boolean[] {false, false});
    StencilKernel heat = Kernels.heat(Stencil.NINE_POINT, 0.5);
    System.out.printf("machine: %d cores, %s %s, %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.name"), System.getProperty("java.version"), grid);

    double plain = plainThreads(grid, heat, bi);
    SparkSession spark = SparkSession.builder().master("local[4]").appName("halo-bench")
        .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    try {
      // warm-up of both paths
      run(jsc, grid, heat, ExchangeMode.BARRIER, 20);
      run(jsc, grid, heat, ExchangeMode.SHUFFLE, 3);
      HaloMetrics b = run(jsc, grid, heat, ExchangeMode.BARRIER, bi);
      HaloMetrics s = run(jsc, grid, heat, ExchangeMode.SHUFFLE, si);
      double bLoop = (b.exchangeNanos() + b.computeNanos()) / 4.0 / 1e6 / b.iterations();
      double bWall = b.millisPerIteration();
      double sWall = s.millisPerIteration();
      System.out.printf("barrier: %s%n", b);
      System.out.printf("shuffle: %s%n", s);
      System.out.printf("per iteration: barrier loop %.3f ms (wall incl. ~1 s rendezvous: %.3f ms), shuffle %.3f ms,"
          + " plain threads over sockets %.3f ms%n", bLoop, bWall, sWall, plain);
      System.out.printf("ratios: shuffle/barrier-loop %.1fx, shuffle/barrier-wall %.1fx, barrier-loop/plain %.2fx%n",
          sWall / bLoop, sWall / bWall, bLoop / plain);
    } finally {
      spark.stop();
    }
  }

  static HaloMetrics run(JavaSparkContext jsc, DistributedGrid grid, StencilKernel k, ExchangeMode mode, int it) {
    JavaRDD<GridBlock> blocks = grid.parallelize(jsc, x -> (x[0] + x[1]) % 7);
    blocks.cache().count();
    HaloExchange.Result r = HaloExchange.of(grid, Stencil.NINE_POINT).mode(mode)
        .checkpoint(mode == ExchangeMode.SHUFFLE ? CheckpointPolicy.every(10) : CheckpointPolicy.NONE).run(blocks, k, it);
    r.blocks().unpersist(false);
    blocks.unpersist(false);
    return r.metrics();
  }

  /** The barrier loop on 4 threads connected by the socket transport: ms per iteration (max over ranks). */
  static double plainThreads(DistributedGrid grid, StencilKernel heat, int iterations) throws Exception {
    int p = grid.ranks();
    byte[] secret = new byte[32];
    List<TransportFactory.Binding> bindings = new ArrayList<>();
    for (int r = 0; r < p; r++) {
      bindings.add(TransportFactory.sockets().bind(r, p, "127.0.0.1", secret));
    }
    List<String> endpoints = bindings.stream().map(TransportFactory.Binding::endpoint).toList();
    HaloPlan plan = HaloPlan.of(grid, Stencil.NINE_POINT, Normalizer.defaults());
    ExecutorService pool = Executors.newFixedThreadPool(p);
    try {
      List<Future<Long>> fs = new ArrayList<>();
      for (int r = 0; r < p; r++) {
        int rank = r;
        fs.add(pool.submit(() -> {
          try (Transport t = bindings.get(rank).connect(endpoints, Duration.ofSeconds(60));
              Communicator world = Communicator.world(t)) {
            GridBlock b = grid.newBlock(rank, x -> (x[0] + x[1]) % 7);
            HaloExchange.iterate(world, plan, b, heat, 20, CheckpointPolicy.NONE, null); // warm-up
            long t0 = System.nanoTime();
            HaloExchange.iterate(world, plan, b, heat, iterations, CheckpointPolicy.NONE, null);
            return System.nanoTime() - t0;
          }
        }));
      }
      long max = 0;
      for (Future<Long> f : fs) {
        max = Math.max(max, f.get());
      }
      return max / 1e6 / iterations;
    } finally {
      pool.shutdownNow();
    }
  }

  static String fmt(double[] x) {
    return Arrays.toString(x);
  }
}
