package dev.layout.spark.grid;

import dev.layout.spark.io.HadoopConf;
import java.io.Serializable;
import java.util.Optional;

/**
 * When an iterative run saves its state, and where.
 *
 * <ul>
 *   <li>{@link ExchangeMode#SHUFFLE}: every {@code interval} iterations the block RDD is
 *       checkpointed, which truncates the lineage: reliably into the SparkContext's checkpoint
 *       directory (set from {@link #directory()} if the context has none), else locally.
 *   <li>{@link ExchangeMode#BARRIER}: with a directory (HDFS or local, any Hadoop file system),
 *       every {@code interval} iterations the ranks write the field collectively into one file,
 *       {@code <dir>/iter-<n>.f64}, which appears only once complete. A (re)started run with the
 *       same directory resumes from the last complete iteration, so a retried barrier stage ends
 *       with the same result as an uninterrupted run; the directory's {@code _RUN} file names the
 *       run (job, grid, stencil, process grid, boundary), and another run is refused. The writes
 *       and the read of a resume are two-phase with {@code aggregators} aggregators where the
 *       cost model picks two-phase (0: the default, one per host; see {@link
 *       dev.layout.spark.io.CollectiveFile#withAggregators}).
 * </ul>
 *
 * <p>In both modes a directory is claimed for the run ({@code _RUN}) before any work, so another
 * run's directory is refused in one line. The executors open the directory with {@code conf}, the
 * job's Hadoop configuration ({@link HaloExchange} sets it from the SparkContext: {@code
 * spark.hadoop.*} settings such as {@code fs.defaultFS} or HDFS client options reach them); null
 * means Hadoop's defaults (runs outside Spark).
 */
public record CheckpointPolicy(int interval, String directory, HadoopConf conf, int aggregators)
        implements Serializable {

    /** No checkpoints (shuffle mode then keeps the whole lineage; fine for short runs). */
    public static final CheckpointPolicy NONE = new CheckpointPolicy(0, null, null, 0);

    public CheckpointPolicy {
        if (interval < 0) {
            throw new IllegalArgumentException(
                    "checkpointPolicy: interval " + interval + " (expected: >= 0, 0 = never)");
        }
        if (aggregators < 0) {
            throw new IllegalArgumentException(
                    "checkpointPolicy: aggregators " + aggregators + " (expected: >= 0, 0 for one per host)");
        }
    }

    /** Every {@code interval} iterations, without a directory of its own. */
    public static CheckpointPolicy every(int interval) {
        return new CheckpointPolicy(interval, null, null, 0);
    }

    /** Every {@code interval} iterations into {@code directory} (a Hadoop path or URI). */
    public static CheckpointPolicy every(int interval, String directory) {
        if (directory == null || directory.isEmpty()) {
            throw new IllegalArgumentException("checkpointPolicy: directory empty (expected: a path or URI)");
        }
        return new CheckpointPolicy(interval, directory, null, 0);
    }

    /** This policy with its directory opened through {@code hadoopConf} on the executors. */
    public CheckpointPolicy on(HadoopConf hadoopConf) {
        return new CheckpointPolicy(interval, directory, hadoopConf, aggregators);
    }

    /** This policy with {@code count} aggregators for its collective writes and reads (0: the default). */
    public CheckpointPolicy withAggregators(int count) {
        return new CheckpointPolicy(interval, directory, conf, count);
    }

    /** Whether the state after {@code iteration} iterations (1-based) is saved. */
    public boolean isDue(int iteration) {
        return interval > 0 && iteration % interval == 0;
    }

    public Optional<String> dir() {
        return Optional.ofNullable(directory);
    }
}
