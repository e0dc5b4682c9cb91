package dev.layout.jobs.heat;

import dev.layout.jobs.Images;
import dev.layout.jobs.JobOptions;
import dev.layout.jobs.Progress;
import dev.layout.jobs.RawField;
import dev.layout.jobs.SparkJobs;
import dev.layout.jobs.Summary;
import dev.layout.jobs.grid.JacobiKernel;
import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.ExchangeMode;
import dev.layout.spark.grid.GridBlock;
import dev.layout.spark.grid.GridFunction;
import dev.layout.spark.grid.HaloExchange;
import dev.layout.spark.grid.Stencil;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * {@code layout-submit heat}: Jacobi heat diffusion on a distributed 2D or 3D grid, halos exchanged
 * with datatypes over the stencil's graph communicator (barrier mode) or as Spark stages (shuffle).
 * Writes {@code field.f64} (raw little-endian float64, C order), {@code field.png} and {@code
 * summary.json}. The arithmetic is exactly {@link SequentialHeat}'s.
 */
public final class HeatJob {
  private HeatJob() {}

  static JobOptions options() {
    return new JobOptions("heat", List.of(
        new JobOptions.Option("grid", "512x512", "global grid, first number slowest (rows), e.g. 512x512 or 128x128x128"),
        new JobOptions.Option("stencil", "", "5 or 9 in 2D (default 9), 7 or 27 in 3D (default 7)"),
        new JobOptions.Option("steps", "100", "Jacobi iterations"),
        new JobOptions.Option("mode", "barrier", "barrier (one barrier stage, network halo exchange) or shuffle (a Spark stage per iteration)"),
        new JobOptions.Option("procs", "", "process grid like 2x2 (default: balanced over the available slots)"),
        new JobOptions.Option("periodic", "false", "true: periodic in every dimension; false: fixed (Dirichlet) boundary"),
        new JobOptions.Option("init", "plate", "plate (hot boundary before row/plane 0) or raw:PATH (little-endian float64, C order)"),
        new JobOptions.Option("checkpoint-interval", "0", "checkpoint every k iterations (0: never)"),
        new JobOptions.Option("checkpoint-dir", "", "checkpoint directory (local path or hdfs://...)"),
        new JobOptions.Option("out", "heat-out", "output directory")));
  }

  public static void main(String[] args) {
    System.exit(SparkJobs.run("heat", () -> run(args)));
  }

  static int run(String[] args) throws Exception {
    JobOptions o = options().parse(args);
    if (o.helpRequested()) {
      System.out.print(o.usage());
      return 0;
    }
    int[] grid = o.getDims("grid", 2, 3);
    int d = grid.length;
    int points = o.get("stencil").isEmpty() ? (d == 2 ? 9 : 7) : (int) o.getLong("stencil", 5, 27);
    JacobiKernel kernel = new JacobiKernel(points);
    Stencil stencil = points == 5 ? Stencil.FIVE_POINT : points == 9 ? Stencil.NINE_POINT : points == 7 ? Stencil.SEVEN_POINT : Stencil.TWENTY_SEVEN_POINT;
    if (stencil.d() != d) {
      throw new IllegalArgumentException("heat: --stencil " + points + " on a " + d + "D --grid (expected: 5 or 9 in 2D, 7 or 27 in 3D)");
    }
    int steps = (int) o.getLong("steps", 0, Integer.MAX_VALUE);
    ExchangeMode mode = SparkJobs.exchangeMode(o);
    boolean periodic = o.getBoolean("periodic");
    String init = o.get("init");
    long cells = 1;
    for (int n : grid) {
      cells *= n;
    }
    double[] initial;
    if (init.equals("plate")) {
      initial = null;
    } else if (init.startsWith("raw:")) {
      initial = RawField.read(Path.of(init.substring(4)), cells);
    } else {
      throw new IllegalArgumentException("heat: --init " + init + " (expected: plate or raw:PATH)");
    }
    Progress.Style progressStyle = Progress.Style.fromEnvironment();
    Path out = SparkJobs.outDir(o);

    SparkSession spark = SparkJobs.session("layout heat");
    try {
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      int[] procs = SparkJobs.processGrid(o, jsc, d);
      boolean[] per = new boolean[d];
      java.util.Arrays.fill(per, periodic);
      DistributedGrid dg = DistributedGrid.of(grid, procs, 1, per);
      int[] g = grid.clone();
      GridFunction f = at -> value(at, g, initial);
      System.out.printf(Locale.ROOT, "heat: %s grid, %d-point stencil, %d steps, %s mode, process grid %s, %s%n", String.join("x",
          java.util.Arrays.stream(grid).mapToObj(Integer::toString).toList()), points, steps, mode.name().toLowerCase(Locale.ROOT),
          String.join("x", java.util.Arrays.stream(procs).mapToObj(Integer::toString).toList()), periodic ? "periodic" : "fixed boundary");
      JavaRDD<GridBlock> blocks = dg.parallelize(jsc, f);
      Progress bar = Progress.console("heat", steps, progressStyle);
      HaloExchange ex = SparkJobs.withCheckpoints(o, HaloExchange.of(dg, stencil).mode(mode)).progress(bar::update);
      long t0 = System.nanoTime();
      HaloExchange.Result r = ex.run(blocks, kernel, steps);
      bar.finish();
      double[] field = dg.assemble(r.blocks().collect());
      long wall = System.nanoTime() - t0;

      RawField.write(field, out.resolve("field.f64"));
      writePicture(field, grid, out.resolve("field.png"));
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      double sum = 0;
      double sq = 0;
      for (double v : field) {
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum += v;
        sq += v * v;
      }
      Summary s = new Summary()
          .put("grid", grid.length == 2 ? grid[0] + "x" + grid[1] : grid[0] + "x" + grid[1] + "x" + grid[2])
          .put("stencil", points).put("steps", steps).put("mode", mode.name().toLowerCase(Locale.ROOT))
          .put("procs", String.join("x", java.util.Arrays.stream(procs).mapToObj(Integer::toString).toList()))
          .put("min", min).put("max", max).put("mean", sum / field.length).put("l2", Math.sqrt(sq))
          .put("per_iteration_ms", steps == 0 ? 0.0 : r.metrics().millisPerIteration())
          .put("bytes_exchanged", r.metrics().bytes()).put("messages", r.metrics().messages())
          .put("pack_ms", r.metrics().packNanos() / 1e6).put("wire_ms", r.metrics().wireNanos() / 1e6)
          .put("compute_ms", r.metrics().computeNanos() / 1e6)
          .put("wall_ms", wall / 1e6)
          .put("descriptor_bytes_before", r.metrics().descriptorBytesBefore())
          .put("descriptor_bytes_after", r.metrics().descriptorBytesAfter());
      s.write(out.resolve("summary.json"));
      System.out.println("heat: " + r.metrics());
      System.out.printf(Locale.ROOT, "heat: min %.6g max %.6g mean %.6g l2 %.6g%n", min, max, sum / field.length, Math.sqrt(sq));
      System.out.println("heat: wrote " + out.resolve("field.f64") + ", " + out.resolve("field.png") + ", " + out.resolve("summary.json"));
      return 0;
    } finally {
      spark.stop();
    }
  }

  /** Initial value at global coordinates (outside the grid: the plate boundary). */
  static double value(int[] at, int[] grid, double[] initial) {
    boolean inside = true;
    for (int a = 0; a < grid.length; a++) {
      inside &= at[a] >= 0 && at[a] < grid[a];
    }
    if (!inside) {
      return SequentialHeat.plateBoundary(at);
    }
    if (initial == null) {
      return 0.0;
    }
    long idx = 0;
    for (int a = 0; a < grid.length; a++) {
      idx = idx * grid[a] + at[a];
    }
    return initial[(int) idx];
  }

  /** 2D: the field; 3D: its middle plane along the first dimension. */
  static void writePicture(double[] field, int[] grid, Path png) throws java.io.IOException {
    if (grid.length == 2) {
      Images.heatMap(field, grid[0], grid[1], png);
    } else {
      int plane = grid[1] * grid[2];
      double[] mid = java.util.Arrays.copyOfRange(field, (grid[0] / 2) * plane, (grid[0] / 2 + 1) * plane);
      Images.heatMap(mid, grid[1], grid[2], png);
    }
  }
}
