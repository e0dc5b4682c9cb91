package dev.layout.jobs;

import dev.layout.naming.Dims;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/** What the Spark jobs share: the session, the process grid, the output directory, exit codes. */
public final class SparkJobs {
  private SparkJobs() {}

  /**
   * The session spark-submit configured (local[*] when nothing is set). Unless the user set it,
   * {@code spark.scheduler.minRegisteredResourcesRatio} is 1: on a cluster the session is ready
   * only once the requested executors ({@code --total-executor-cores}, {@code --num-executors})
   * have registered, or after {@code spark.scheduler.maxRegisteredResourcesWaitingTime} (30 s by
   * default). A barrier stage needs all its slots at launch, and the default process grid is
   * taken from the registered cores, so neither may be decided on the first executors alone.
   */
  public static SparkSession session(String appName) {
    SparkSession.Builder b = SparkSession.builder().appName(appName);
    if (System.getProperty("spark.master") == null) {
      b.master("local[*]");
    }
    if (System.getProperty(MIN_REGISTERED_RATIO) == null) {
      b.config(MIN_REGISTERED_RATIO, "1.0");
    }
    return b.getOrCreate();
  }

  private static final String MIN_REGISTERED_RATIO = "spark.scheduler.minRegisteredResourcesRatio";

  /**
   * The process grid: {@code --procs 2x2} as given, otherwise the balanced factorization
   * (MPI_Dims_create) of the cluster's default parallelism over the grid's dimensions.
   */
  public static int[] processGrid(JobOptions o, JavaSparkContext jsc, int dims) {
    String procs = o.get("procs");
    if (!procs.isEmpty()) {
      int[] p = o.getDims("procs", dims, dims);
      return p;
    }
    int slots = Math.max(1, jsc.defaultParallelism());
    return Dims.create(slots, dims);
  }

  /** {@code --mode barrier|shuffle}. */
  public static dev.layout.spark.grid.ExchangeMode exchangeMode(JobOptions o) {
    return dev.layout.spark.grid.ExchangeMode.valueOf(o.getChoice("mode", "barrier", "shuffle").toUpperCase(java.util.Locale.ROOT));
  }

  /** Applies {@code --checkpoint-interval K [--checkpoint-dir DIR]} (0: no checkpoints) to an exchange. */
  public static dev.layout.spark.grid.HaloExchange withCheckpoints(JobOptions o, dev.layout.spark.grid.HaloExchange ex) {
    int interval = (int) o.getLong("checkpoint-interval", 0, Integer.MAX_VALUE);
    String dir = o.get("checkpoint-dir");
    if (interval == 0) {
      return ex;
    }
    return ex.checkpoint(dir.isEmpty()
        ? dev.layout.spark.grid.CheckpointPolicy.every(interval)
        : dev.layout.spark.grid.CheckpointPolicy.every(interval, dir));
  }

  public static Path outDir(JobOptions o) throws IOException {
    Path out = Path.of(o.get("out"));
    Files.createDirectories(out);
    return out;
  }

  /** Runs a job body with the CLI's error conventions: 2 for bad options, 1 for I/O, 3 otherwise. */
  public static int run(String job, JobBody body) {
    try {
      return body.run();
    } catch (IllegalArgumentException e) {
      System.err.println(job + ": error: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      System.err.println(job + ": I/O error: " + e.getMessage());
      return 1;
    } catch (Exception e) {
      System.err.println(job + ": failed: " + e);
      e.printStackTrace();
      return 3;
    }
  }

  /** A job's body. */
  public interface JobBody {
    int run() throws Exception;
  }
}
