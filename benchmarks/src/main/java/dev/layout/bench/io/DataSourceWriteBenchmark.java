package dev.layout.bench.io;

import dev.layout.cli.Options;
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
 * and into a MiniDFSCluster of 2 datanodes in the same JVM; file system blocks of 8 MiB, so the
 * write runs one task per 8 MiB domain. MB/s = 10^6 bytes of the field per second of {@code
 * save()} (the range partitioning's sampling, the shuffle and sort, the tasks' writes and the
 * driver's commit); median of the reps, each into a new file.
 */
public final class DataSourceWriteBenchmark {
    private static final long BLOCK = 8L << 20;
    private static final String USAGE = "usage: layout bench dswrite [--quick] [--reps N] [--mb M]\n"
            + "  the fileview DataSource's write of a 2D float64 field on local[4], local file system and MiniDFS;\n"
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
                .master("local[4]")
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
                    .repartition(4)
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
            out.println("fs      MB/s (median)   min .. max");
            String[] roots = {
                new File(base, "local").toURI().toString(), dfs.getFileSystem().getUri() + "/bench"
            };
            String[] names = {"local", "hdfs"};
            for (int f = 0; f < 2; f++) {
                write(spark, field, roots[f] + "/warm-up.f64", rows, cols); // JIT, the sampling job's classes
                double[] mbs = new double[reps];
                for (int r = 0; r < reps; r++) {
                    String path = roots[f] + "/field-" + r + ".f64";
                    long t0 = System.nanoTime();
                    write(spark, field, path, rows, cols);
                    mbs[r] = rows * cols * 8 / ((System.nanoTime() - t0) / 1e3);
                    Path p = new Path(path);
                    FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
                    if (fs.getFileStatus(p).getLen() != rows * cols * 8) {
                        throw new IllegalStateException("bench dswrite: " + path + " has the wrong length");
                    }
                    fs.delete(p, false);
                }
                Arrays.sort(mbs);
                out.printf(
                        Locale.ROOT, "%-6s  %13.1f   %.1f .. %.1f%n", names[f], mbs[reps / 2], mbs[0], mbs[reps - 1]);
            }
            out.printf(Locale.ROOT, "load %.1f at the end%n", load());
        } finally {
            spark.stop();
            dfs.shutdown();
            FileUtil.fullyDelete(base);
        }
        return 0;
    }

    private static void write(SparkSession spark, Dataset<Row> field, String path, long rows, long cols) {
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
