package dev.layout.jobs;

import dev.layout.jobs.output.OutputDirectory;
import dev.layout.naming.Dims;
import dev.layout.spark.grid.CheckpointPolicy;
import dev.layout.spark.grid.ExchangeMode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

    /** {@code --procs}, which {@link #processGrid} reads. */
    public static final JobOptions.Option PROCS =
            new JobOptions.Option("procs", "", "process grid like 2x2 (default: balanced over the available slots)");

    /** {@code --aggregators N}: see {@link #aggregators}. */
    public static final JobOptions.Option AGGREGATORS = new JobOptions.Option(
            "aggregators",
            "0",
            "ranks that read the --init file and write the output field in two-phase collective I/O, a file domain"
                    + " each (ROMIO's cb_nodes; at most one per rank; also barrier-mode checkpoints and their resume);"
                    + " 0: one per host, every rank when all are on one host");

    /**
     * {@code --aggregators N}: the aggregator count of the job's collective reads and writes of its
     * field ({@link dev.layout.spark.io.CollectiveFile#withAggregators}); 0 for the default.
     *
     * @throws IllegalArgumentException for a count that is not an integer >= 0
     */
    public static int aggregators(String job, JobOptions o) {
        String v = o.get("aggregators").trim();
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    job + ": --aggregators " + v + " (expected: an integer >= 0, 0 for one per host)");
        }
        if (n < 0) {
            throw new IllegalArgumentException(job + ": --aggregators " + n + " (expected: >= 0, 0 for one per host)");
        }
        return n;
    }

    /**
     * A grid job's own options followed by those {@link #checkpoints} and {@link #openOutput} read:
     * {@code --checkpoint-interval} (counted in {@code steps}), {@code --checkpoint-dir}, {@code
     * --out} (default {@code JOB-out}) and {@code --overwrite}.
     */
    public static List<JobOptions.Option> withOutputOptions(String job, String steps, JobOptions.Option... own) {
        List<JobOptions.Option> all = new ArrayList<>(List.of(own));
        all.add(new JobOptions.Option(
                "checkpoint-interval",
                "0",
                "checkpoint every k " + steps + " (0: never; barrier mode needs --checkpoint-dir)"));
        all.add(new JobOptions.Option("checkpoint-dir", "", "checkpoint directory: a path, file:/... or hdfs://..."));
        all.add(new JobOptions.Option(
                "out", job + "-out", "output directory: a path, file:/... or hdfs://... (new or empty)"));
        all.add(new JobOptions.Option("overwrite", "false", "true: replace the outputs of an earlier run in --out"));
        return all;
    }

    /** {@code --mode barrier|shuffle}. */
    public static ExchangeMode exchangeMode(JobOptions o) {
        return ExchangeMode.valueOf(o.getChoice("mode", "barrier", "shuffle").toUpperCase(java.util.Locale.ROOT));
    }

    /**
     * {@code --checkpoint-interval K [--checkpoint-dir DIR]}: none for K = 0; in barrier mode K needs
     * a directory (any Hadoop path, a bare path is local); in shuffle mode without a directory the
     * block RDD is checkpointed locally (lineage truncation only, nothing to resume from). Barrier-mode
     * checkpoints are written and read with the job's {@code --aggregators}.
     *
     * @throws IllegalArgumentException for a directory without an interval, or an interval without a
     *     directory in barrier mode
     */
    public static CheckpointPolicy checkpoints(String job, JobOptions o, ExchangeMode mode) {
        int interval = (int) o.getLong("checkpoint-interval", 0, Integer.MAX_VALUE);
        String dir = o.get("checkpoint-dir").trim();
        if (interval == 0) {
            if (!dir.isEmpty()) {
                throw new IllegalArgumentException(job + ": --checkpoint-dir " + dir
                        + " with --checkpoint-interval 0 (expected: an interval >= 1," + " or no --checkpoint-dir)");
            }
            return CheckpointPolicy.NONE;
        }
        if (dir.isEmpty()) {
            if (mode == ExchangeMode.BARRIER) {
                throw new IllegalArgumentException(
                        job + ": --checkpoint-interval " + interval + " without --checkpoint-dir (expected: a directory"
                                + " to write barrier-mode checkpoints to and resume from, e.g. --checkpoint-dir hdfs:///tmp/"
                                + job + "-ckpt)");
            }
            return CheckpointPolicy.every(interval);
        }
        return CheckpointPolicy.every(
                        interval, OutputDirectory.resolve("checkpoint-dir", dir).toString())
                .withAggregators(aggregators(job, o));
    }

    /** The bench job's local {@code --out} directory, created (the bench job writes only reports, no grid). */
    public static java.nio.file.Path outDir(JobOptions o) throws IOException {
        java.nio.file.Path out = java.nio.file.Path.of(o.get("out"));
        java.nio.file.Files.createDirectories(out);
        return out;
    }

    /**
     * Opens {@code --out} (any Hadoop path; see {@link OutputDirectory}) with {@code --overwrite}, on
     * the session's Hadoop configuration. Call it once every option is validated, so that a bad
     * option creates nothing; the directory is released (and its unfinished files deleted) if the
     * run is interrupted.
     */
    public static OutputDirectory openOutput(String job, JobOptions o, SparkSession spark) throws IOException {
        OutputDirectory out = OutputDirectory.open(
                job,
                o.get("out"),
                o.getBoolean("overwrite"),
                spark.sparkContext().hadoopConfiguration());
        onInterrupt(out::abort);
        return out;
    }

    /**
     * The Hadoop configuration the job's session will have, before the session exists: Hadoop's
     * defaults plus every {@code spark.hadoop.*} setting spark-submit passed (the driver's input
     * checks run before the session starts, so that a bad option starts nothing).
     */
    public static org.apache.hadoop.conf.Configuration hadoopConf() {
        org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
        for (scala.Tuple2<String, String> kv : new org.apache.spark.SparkConf().getAllWithPrefix("spark.hadoop.")) {
            conf.set(kv._1(), kv._2());
        }
        return conf;
    }

    /** Bound of every wait of the jobs' barrier stages (mesh set-up, each collective). */
    public static final Duration TIMEOUT = Duration.ofMinutes(2);

    /** The largest side of a job's picture, in tiles. */
    public static final int THUMBNAIL = 1024;

    /** An input file found on its file system. */
    private record Found(
            org.apache.hadoop.fs.FileSystem fs,
            org.apache.hadoop.fs.Path path,
            org.apache.hadoop.fs.FileStatus status) {}

    /**
     * The input file {@code --OPTION PATH} names (any Hadoop path; a bare path is local), looked up
     * with the job's Hadoop configuration.
     *
     * @throws IllegalArgumentException if it is missing ({@code expected} says what was expected)
     */
    private static Found find(String job, String option, String location, String expected) throws IOException {
        org.apache.hadoop.fs.Path p = OutputDirectory.resolve(option, location);
        org.apache.hadoop.fs.FileSystem fs = p.getFileSystem(hadoopConf());
        try {
            return new Found(fs, fs.makeQualified(p), fs.getFileStatus(p));
        } catch (java.io.FileNotFoundException e) {
            throw new IllegalArgumentException(job + ": --" + option + " " + location + ": no such file"
                    + (expected == null ? "" : " (expected: " + expected + ")"));
        }
    }

    /**
     * The input file {@code --OPTION PATH} names (any Hadoop path; a bare path is local), checked on
     * the driver before anything runs: it exists and holds {@code expectedBytes} bytes.
     *
     * @throws IllegalArgumentException naming the option, the path and what was expected
     */
    public static org.apache.hadoop.fs.Path inputFile(String job, String option, String location, long expectedBytes)
            throws IOException {
        Found f = find(job, option, location, expectedBytes + " bytes");
        if (f.status().isDirectory() || f.status().getLen() != expectedBytes) {
            throw new IllegalArgumentException(job + ": --" + option + " " + location + ": "
                    + (f.status().isDirectory() ? "a directory" : f.status().getLen() + " bytes") + " (expected: "
                    + expectedBytes + " bytes, the grid's size)");
        }
        return f.path();
    }

    /** The most bytes {@link #readSmallFile} reads (patterns and small boards, parsed on the driver). */
    public static final long SMALL_FILE = 256L << 20;

    /**
     * The bytes of a small input file (any Hadoop path; a bare path is local), read on the driver.
     *
     * @throws IllegalArgumentException if it is missing or larger than {@link #SMALL_FILE}
     */
    public static byte[] readSmallFile(String job, String option, String location) throws IOException {
        Found f = find(job, option, location, null);
        long len = f.status().getLen();
        if (len > SMALL_FILE) {
            throw new IllegalArgumentException(job + ": --" + option + " " + location + ": " + len
                    + " bytes (expected: at most " + SMALL_FILE + ")");
        }
        try (org.apache.hadoop.fs.FSDataInputStream in = f.fs().open(f.path())) {
            return in.readNBytes((int) len);
        }
    }

    /** An input file: its qualified path, its length and its first bytes. */
    public record InputHead(org.apache.hadoop.fs.Path path, long length, byte[] head) {}

    /**
     * The first {@code max} bytes (fewer if the file is shorter) and the length of the input file
     * {@code --OPTION PATH} names (any Hadoop path; a bare path is local), read on the driver: for a
     * header that says where the ranks read the rest.
     *
     * @throws IllegalArgumentException if it is missing or a directory
     */
    public static InputHead inputHead(String job, String option, String location, int max) throws IOException {
        Found f = find(job, option, location, null);
        if (f.status().isDirectory()) {
            throw new IllegalArgumentException(
                    job + ": --" + option + " " + location + ": a directory (expected: a file)");
        }
        try (org.apache.hadoop.fs.FSDataInputStream in = f.fs().open(f.path())) {
            return new InputHead(f.path(), f.status().getLen(), in.readNBytes((int)
                    Math.min(max, f.status().getLen())));
        }
    }

    /** An action whose failure is not worth reporting (clean-up of a run that is failing already). */
    public interface Cleanup {
        void run() throws Exception;
    }

    /** Runs {@code c}, ignoring what it throws. */
    public static void quietly(Cleanup c) {
        try {
            c.run();
        } catch (Exception e) {
            // the run is ending anyway
        }
    }

    private static final List<Runnable> ON_INTERRUPT = new CopyOnWriteArrayList<>();
    private static volatile boolean interrupted;

    /** Runs {@code cleanup} if the user interrupts the job (Ctrl-C), before the JVM exits. */
    public static void onInterrupt(Runnable cleanup) {
        ON_INTERRUPT.add(cleanup);
    }

    /**
     * Parses {@code args} against the job's {@code options} ({@code --help} prints the usage and
     * returns 0) and runs {@code body} with them, with the CLI's error conventions: 2 for bad options, 1 for I/O, 3 otherwise,
     * each a one-line message {@code JOB: error: ...} (a stack trace only for the unexpected). On
     * Ctrl-C (SIGINT) it prints {@code JOB: interrupted}, runs the {@link #onInterrupt} clean-ups and
     * exits with 130; what the dying run throws afterwards is not printed.
     */
    public static int run(String job, JobOptions options, String[] args, JobBody body) {
        installInterruptHandler(job);
        try {
            JobOptions o = options.parse(args);
            if (o.helpRequested()) {
                System.out.print(o.usage());
                return 0;
            }
            return body.run(o);
        } catch (IllegalArgumentException e) {
            return interrupted ? 130 : fail(job, "error", e.getMessage(), 2);
        } catch (IOException e) {
            return interrupted ? 130 : fail(job, "I/O error", e.getMessage(), 1);
        } catch (Exception e) {
            if (interrupted) {
                return 130;
            }
            // a bad input found on an executor comes back wrapped in Spark's exceptions: say it in one line
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            if (root instanceof IllegalArgumentException) {
                return fail(job, "error", root.getMessage(), 2);
            }
            if (root instanceof IOException) {
                return fail(job, "I/O error", root.getMessage(), 1);
            }
            System.err.println(job + ": failed: " + e);
            e.printStackTrace();
            return 3;
        }
    }

    private static int fail(String job, String kind, String message, int code) {
        String m = message == null ? "" : message;
        // messages made for the API start with the operation's name; the job's prefix says it already
        if (m.startsWith(job + ": ")) {
            m = m.substring(job.length() + 2);
        }
        System.err.println(job + ": " + kind + ": " + m);
        return code;
    }

    private static void installInterruptHandler(String job) {
        // A job started with SIGINT ignored (nohup, or '&' in a script) keeps ignoring it: the JVM
        // honours an inherited SIG_IGN and this handler never runs, as POSIX expects of such jobs.
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sig -> {
                interrupted = true;
                System.err.println(job + ": interrupted");
                for (Runnable r : ON_INTERRUPT) {
                    try {
                        r.run();
                    } catch (RuntimeException e) {
                        // best effort: the JVM is exiting
                    }
                }
                System.exit(130); // Spark's own shutdown hooks stop the context and its executors
            });
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // no SIGINT on this platform or the JVM reserves it: the default handling stays
        }
    }

    /** A job's body, given its parsed options. */
    public interface JobBody {
        int run(JobOptions options) throws Exception;
    }
}
