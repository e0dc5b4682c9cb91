package dev.layout.bench.io;

import dev.layout.cli.Options;
import dev.layout.fileview.FileDomains;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * {@code bench dswrite}: the {@code fileview} DataSource's write of a 2D float64 field (rows of
 * coordinates and a value, cached in memory) on Spark {@code local[4]}, into the local file system
 * and into a MiniDFSCluster of 2 datanodes in the same JVM; file system blocks of 8 MiB. Beside it,
 * in the same run and alternating with it, the same rows written by Spark's {@code noop} format
 * after the same distribution the fileview write asks for (Spark's floor for that shuffle: what no
 * writer can go below; the write asks for no ordering) and by a plain {@code df.write.parquet} (what
 * users compare with). MB/s = 10^6 bytes of the field per second of {@code save()}; median of the
 * reps, each into a new file.
 */
public final class DataSourceWriteBenchmark {
    private static final long BLOCK = 8L << 20;
    private static final int CORES = 4;
    private static final String USAGE = "usage: layout bench dswrite [--quick] [--reps N] [--mb M]\n"
            + "  the fileview DataSource's write of a 2D float64 field on local[4], local file system and MiniDFS,\n"
            + "  beside Spark's noop format after the same shuffle and a plain parquet write;\n"
            + "  defaults 5 reps, 32 MiB; --quick 3 reps, 16 MiB";

    private DataSourceWriteBenchmark() {}

    public static int run(String[] args, PrintStream out) throws IOException {
        Options o = Options.parse("bench dswrite", args, Set.of("reps", "mb"), Set.of("quick", "help"));
        if (o.has("help")) {
            out.println(USAGE);
            return 0;
        }
        boolean quick = o.has("quick");
        int reps = (int) o.getLong("reps", quick ? 3 : 5, 1);
        int mb = (int) o.getLong("mb", quick ? 16 : 32, 1);
        if (mb > 512) {
            throw new IllegalArgumentException("bench dswrite: --mb " + mb + " (expected: 1 .. 512 MiB)");
        }
        long cells = mb * (1L << 20) / 8;
        long cols = 1024;
        long rows = cells / cols;
        File base = Files.createTempDirectory("bench-dswrite").toFile();
        Configuration dconf = new Configuration();
        dconf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(base, "dfs").getAbsolutePath());
        dconf.setLong("dfs.blocksize", BLOCK);
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(dconf).numDataNodes(2).build();
        SparkSession spark = SparkSession.builder()
                .master("local[" + CORES + "]")
                .appName("dswrite-bench")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .getOrCreate();
        try {
            dfs.waitActive();
            spark.sparkContext().setLogLevel("WARN");
            spark.sparkContext().hadoopConfiguration().setLong("fs.local.block.size", BLOCK);
            Dataset<Row> field = spark.range(0, rows * cols)
                    .selectExpr(
                            "CAST(id DIV " + cols + " AS INT) AS i0",
                            "CAST(id % " + cols + " AS INT) AS i1",
                            "CAST(id AS DOUBLE) AS value")
                    .repartition(CORES)
                    .persist(StorageLevel.MEMORY_ONLY());
            field.count();
            out.printf(
                    Locale.ROOT,
                    "java %s, %d cores, load %.1f at the start, field %d x %d float64 (%d MiB), block %d MiB, median of %d%n",
                    System.getProperty("java.version"),
                    Runtime.getRuntime().availableProcessors(),
                    load(),
                    rows,
                    cols,
                    mb,
                    BLOCK >> 20,
                    reps);
            out.println(
                    "fs      noop MB/s   parquet MB/s   fileview MB/s (min .. max)   fileview/noop   fileview/parquet");
            String[] roots = {
                new File(base, "local").toURI().toString(), dfs.getFileSystem().getUri() + "/bench"
            };
            String[] names = {"local", "hdfs"};
            boolean[] hdfs = {false, true};
            long bytes = rows * cols * 8;
            for (int f = 0; f < 2; f++) {
                String root = roots[f];
                boolean onHdfs = hdfs[f];
                Runnable[] writers = {
                    () -> noop(field, onHdfs, bytes),
                    () -> field.write().mode("overwrite").parquet(root + "/field.parquet"),
                    () -> fileview(field, root + "/field.f64", rows, cols)
                };
                double[][] mbs = new double[writers.length][reps];
                for (int r = -1; r < reps; r++) { // r = -1: a warm-up of each (JIT, classes)
                    for (int w = 0; w < writers.length; w++) {
                        long t0 = System.nanoTime();
                        writers[w].run();
                        double s = (System.nanoTime() - t0) / 1e9;
                        if (r >= 0) {
                            mbs[w][r] = bytes / 1e6 / s;
                        }
                    }
                    Path p = new Path(root + "/field.f64");
                    FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
                    if (fs.getFileStatus(p).getLen() != bytes) {
                        throw new IllegalStateException("bench dswrite: " + p + " has the wrong length");
                    }
                    fs.delete(p, false);
                }
                double[] med = new double[writers.length];
                for (int w = 0; w < writers.length; w++) {
                    Arrays.sort(mbs[w]);
                    med[w] = mbs[w][reps / 2];
                }
                out.printf(
                        Locale.ROOT,
                        "%-6s  %9.1f   %12.1f   %13.1f (%.1f .. %.1f)   %13.2f   %16.2f%n",
                        names[f],
                        med[0],
                        med[1],
                        med[2],
                        mbs[2][0],
                        mbs[2][reps - 1],
                        med[2] / med[0],
                        med[2] / med[1]);
            }
            out.printf(Locale.ROOT, "load %.1f at the end%n", load());
        } finally {
            spark.stop();
            dfs.shutdown();
            FileUtil.fullyDelete(base);
        }
        return 0;
    }

    /**
     * Spark's floor: the rows after the distribution a fileview write of this field asks for, written
     * nowhere: hashed on i0 into one task per core on the local file system, ranged on i0 into one
     * task per file domain on HDFS (no sort within a task: the write's tasks order their rows
     * themselves).
     */
    private static void noop(Dataset<Row> field, boolean hdfs, long bytes) {
        Dataset<Row> shuffled = hdfs
                ? field.repartitionByRange(
                        FileDomains.aligned(bytes, CORES, BLOCK, 1L << 20).count(), field.col("i0"))
                : field.repartition(CORES, field.col("i0"));
        shuffled.write().format("noop").mode("overwrite").save();
    }

    private static void fileview(Dataset<Row> field, String path, long rows, long cols) {
        field.write()
                .format("fileview")
                .option("path", path)
                .option("etype", "float64")
                .option("shape", rows + "x" + cols)
                .mode("append")
                .save();
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
