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

  /** The session spark-submit configured (local[*] when nothing is set). */
  public static SparkSession session(String appName) {
    SparkSession.Builder b = SparkSession.builder().appName(appName);
    if (System.getProperty("spark.master") == null) {
      b.master("local[*]");
    }
    return b.getOrCreate();
  }

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
