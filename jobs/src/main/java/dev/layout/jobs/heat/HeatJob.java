package dev.layout.jobs.heat;

import dev.layout.jobs.HeapPeak;
import dev.layout.jobs.Images;
import dev.layout.jobs.JobOptions;
import dev.layout.jobs.Progress;
import dev.layout.jobs.SparkJobs;
import dev.layout.jobs.Summary;
import dev.layout.jobs.grid.JacobiKernel;
import dev.layout.jobs.output.OutputDirectory;
import dev.layout.spark.comm.BarrierLauncher;
import dev.layout.spark.grid.CheckpointPolicy;
import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.ExchangeMode;
import dev.layout.spark.grid.GridBlock;
import dev.layout.spark.grid.GridFiles;
import dev.layout.spark.grid.GridFunction;
import dev.layout.spark.grid.GridStats;
import dev.layout.spark.grid.HaloExchange;
import dev.layout.spark.grid.Stencil;
import dev.layout.spark.grid.Thumbnail;
import dev.layout.spark.io.CollectiveFile;
import java.util.Arrays;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * {@code layout-submit heat}: Jacobi heat diffusion on a distributed 2D or 3D grid, halos exchanged
 * with datatypes over the stencil's graph communicator (barrier mode) or as Spark stages (shuffle).
 * Writes {@code field.f64} (raw little-endian float64, C order; written collectively by the
 * executors), {@code field.png} (a thumbnail of at most 1024 x 1024 tile means) and {@code
 * summary.json} (statistics reduced over the ranks); nothing of the grid's size passes through
 * the driver. The arithmetic is exactly {@link SequentialHeat}'s.
 */
public final class HeatJob {
    private HeatJob() {}

    static JobOptions options() {
        return new JobOptions(
                "heat",
                SparkJobs.withOutputOptions(
                        "heat",
                        "iterations",
                        new JobOptions.Option(
                                "grid",
                                "512x512",
                                "global grid, first number slowest (rows), e.g. 512x512 or 128x128x128"),
                        new JobOptions.Option("stencil", "", "5 or 9 in 2D (default 9), 7 or 27 in 3D (default 7)"),
                        new JobOptions.Option("steps", "100", "Jacobi iterations"),
                        new JobOptions.Option(
                                "mode",
                                "barrier",
                                "barrier (one barrier stage, network halo exchange) or shuffle (a Spark stage per iteration)"),
                        SparkJobs.PROCS,
                        SparkJobs.AGGREGATORS,
                        new JobOptions.Option(
                                "periodic",
                                "false",
                                "true: periodic in every dimension; false: fixed (Dirichlet) boundary"),
                        new JobOptions.Option(
                                "init",
                                "plate",
                                "plate (hot boundary before row/plane 0) or raw:PATH (little-endian float64, C order; a path, file:/... or hdfs://...)")));
    }

    public static void main(String[] args) {
        System.exit(SparkJobs.run("heat", options(), args, HeatJob::run));
    }

    static int run(JobOptions o) throws Exception {
        int[] grid = o.getDims("grid", 2, 3);
        int d = grid.length;
        int points = o.get("stencil").isEmpty() ? (d == 2 ? 9 : 7) : (int) o.getLong("stencil", 5, 27);
        Stencil stencil = points == 5
                ? Stencil.FIVE_POINT
                : points == 9
                        ? Stencil.NINE_POINT
                        : points == 7 ? Stencil.SEVEN_POINT : points == 27 ? Stencil.TWENTY_SEVEN_POINT : null;
        if (stencil == null || stencil.d() != d) {
            throw new IllegalArgumentException(
                    "heat: --stencil " + points + " on a " + d + "D --grid (expected: 5 or 9 in 2D, 7 or 27 in 3D)");
        }
        JacobiKernel kernel = new JacobiKernel(points);
        int steps = (int) o.getLong("steps", 0, Integer.MAX_VALUE);
        ExchangeMode mode = SparkJobs.exchangeMode(o);
        boolean periodic = o.getBoolean("periodic");
        long cells = 1;
        for (int n : grid) {
            cells = Math.multiplyExact(cells, n);
        }
        String init = o.get("init");
        String initFile = null;
        if (init.startsWith("raw:")) {
            initFile = SparkJobs.inputFile("heat", "init", init.substring(4), cells * 8)
                    .toString();
        } else if (!init.equals("plate")) {
            throw new IllegalArgumentException("heat: --init " + init + " (expected: plate or raw:PATH)");
        }
        CheckpointPolicy checkpoints = SparkJobs.checkpoints("heat", o, mode);
        int aggregators = SparkJobs.aggregators("heat", o);
        o.getBoolean("overwrite");
        Progress.Style progressStyle = Progress.Style.fromEnvironment();

        HeapPeak heap = HeapPeak.start();
        SparkSession spark = SparkJobs.session("layout heat");
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            int[] procs = SparkJobs.processGrid(o, jsc, d);
            boolean[] per = new boolean[d];
            Arrays.fill(per, periodic);
            DistributedGrid dg = DistributedGrid.of(grid, procs, 1, per);
            BarrierLauncher.check(jsc.sc(), dg.ranks()); // every job ends with a barrier stage
            try (OutputDirectory out = SparkJobs.openOutput("heat", o, spark)) {
                System.out.printf(
                        Locale.ROOT,
                        "heat: %s grid, %d-point stencil, %d steps, %s mode, process grid %s, %s%n",
                        dims(grid),
                        points,
                        steps,
                        mode.name().toLowerCase(Locale.ROOT),
                        dims(procs),
                        periodic ? "periodic" : "fixed boundary");
                Progress bar = Progress.console("heat", steps, progressStyle);
                Configuration conf = spark.sparkContext().hadoopConfiguration();
                GridFunction boundary = HeatJob::plate;
                HaloExchange ex = HaloExchange.of(dg, stencil)
                        .mode(mode)
                        .checkpoint(checkpoints)
                        .progress(bar::update);
                ex.claimCheckpoints(
                        jsc.sc(), kernel); // another run's checkpoints are refused before the initial field is read
                JavaRDD<GridBlock> blocks = initFile == null
                        ? dg.parallelize(jsc, boundary)
                        : GridFiles.read(
                                jsc,
                                dg,
                                boundary,
                                CollectiveFile.of(conf, initFile).withAggregators(aggregators),
                                SparkJobs.TIMEOUT);
                HaloExchange.Result r = ex.run(blocks, kernel, steps);
                long wall = bar.finish();

                CollectiveFile field = CollectiveFile.of(
                                conf, out.path("field.f64").toString())
                        .withAggregators(aggregators)
                        .deferCommit();
                SparkJobs.onInterrupt(() -> SparkJobs.quietly(field::abort));
                GridFiles.Closing c = GridFiles.close(
                        r.blocks(), dg, field, GridFiles.Cells.FLOAT64, SparkJobs.THUMBNAIL, SparkJobs.TIMEOUT);
                GridStats st = c.stats();
                String title = String.format(
                        Locale.ROOT,
                        "heat %s, %d-point, %d steps%s",
                        dims(grid),
                        points,
                        steps,
                        d == 3 ? ", " + Thumbnail.caption(dg) : "");
                out.write(
                        "field.png",
                        png -> Images.heatMap(
                                c.thumbnail().means(),
                                c.thumbnail().rows(),
                                c.thumbnail().cols(),
                                title,
                                png));
                Summary s = new Summary()
                        .put("grid", dims(grid))
                        .put("stencil", points)
                        .put("steps", steps)
                        .put("mode", mode.name().toLowerCase(Locale.ROOT))
                        .put("procs", dims(procs))
                        .put("min", st.min())
                        .put("max", st.max())
                        .put("mean", st.mean())
                        .put("l2", st.l2())
                        .put("per_iteration_ms", steps == 0 ? 0.0 : r.metrics().millisPerIteration())
                        .put("bytes_exchanged", r.metrics().bytes())
                        .put("messages", r.metrics().messages())
                        .put("pack_ms", r.metrics().packNanos() / 1e6)
                        .put("wire_ms", r.metrics().wireNanos() / 1e6)
                        .put("compute_ms", r.metrics().computeNanos() / 1e6)
                        .put("wall_ms", wall / 1e6)
                        .put("exchange_loop_ms", r.metrics().wallNanos() / 1e6)
                        .put("descriptor_bytes_before", r.metrics().descriptorBytesBefore())
                        .put("descriptor_bytes_after", r.metrics().descriptorBytesAfter())
                        .put("field_write", c.write().summary())
                        .put("picture", d == 2 ? "the field" : Thumbnail.caption(dg))
                        .put("field_bytes", cells * 8)
                        .put("driver_heap_peak_bytes", heap.peakBytes())
                        .put("driver_heap_max_bytes", Runtime.getRuntime().maxMemory());
                out.write("summary.json", json -> json.write(s.toBytes()));
                System.out.println("heat: " + r.metrics());
                System.out.printf(
                        Locale.ROOT,
                        "heat: min %.6g max %.6g mean %.6g l2 %.6g%n",
                        st.min(),
                        st.max(),
                        st.mean(),
                        st.l2());
                System.out.println("heat: field.f64 written " + c.write().summary());
                System.out.println("heat: wrote " + out.path("field.f64") + ", " + out.path("field.png") + ", "
                        + out.path("summary.json"));
                return 0;
            }
        } finally {
            spark.stop();
            heap.close();
        }
    }

    /** The initial field: 0 inside, the plate boundary outside (hot before row / plane 0). */
    static double plate(int[] at) {
        for (int a = 0; a < at.length; a++) {
            if (at[a] < 0) {
                return SequentialHeat.plateBoundary(at);
            }
        }
        return 0.0;
    }

    static String dims(int[] a) {
        return String.join("x", Arrays.stream(a).mapToObj(Integer::toString).toList());
    }
}
