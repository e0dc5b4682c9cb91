package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.spark.testing.LocalSparkExtension;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.distributions.ClusteredDistribution;
import org.apache.spark.sql.connector.distributions.OrderedDistribution;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes of the fileview source from the executors (several tasks, one part each, joined at
 * commit) and the source's one-line refusals of bad options and rows.
 */
@Tag("spark")
@ExtendWith(LocalSparkExtension.class)
class FileViewWriteIT {
    @TempDir
    java.nio.file.Path tmp;

    /** rows (i0, i1, value = i0 * cols + i1) of a rows x cols array, every third row left out when {@code holes}. */
    private static Dataset<Row> field(SparkSession spark, int rows, int cols, boolean holes) {
        return spark.range(0, (long) rows * cols)
                .filter(holes ? "(id DIV " + cols + ") % 3 <> 1" : "true")
                .selectExpr(
                        "CAST(id DIV " + cols + " AS INT) AS i0",
                        "CAST(id % " + cols + " AS INT) AS i1",
                        "CAST(id AS DOUBLE) AS value")
                .repartition(4);
    }

    @Test
    void tasksWriteThePartsAndTheDriverOnlyJoinsThem(SparkSession spark) throws Exception {
        // 512 x 1024 doubles = 4 MiB, local blocks of 1 MiB: four domains, four tasks writing.
        spark.sparkContext().hadoopConfiguration().setLong("fs.local.block.size", 1 << 20);
        List<Integer> stageTasks = new CopyOnWriteArrayList<>();
        List<Integer> stageIds = new CopyOnWriteArrayList<>();
        java.util.Map<Integer, List<Long>> rowsPerTask = new java.util.concurrent.ConcurrentHashMap<>();
        SparkListener l = new SparkListener() {
            @Override
            public void onStageCompleted(SparkListenerStageCompleted e) {
                stageTasks.add(e.stageInfo().numTasks());
                stageIds.add(e.stageInfo().stageId());
            }

            @Override
            public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd e) {
                rowsPerTask
                        .computeIfAbsent(e.stageId(), k -> new CopyOnWriteArrayList<>())
                        .add(e.taskMetrics().shuffleReadMetrics().recordsRead());
            }
        };
        spark.sparkContext().addSparkListener(l);
        try {
            for (boolean holes : new boolean[] {false, true}) {
                java.nio.file.Path out = tmp.resolve("field-" + holes + ".f64");
                field(spark, 512, 1024, holes)
                        .write()
                        .format("fileview")
                        .option("path", out.toString())
                        .option("etype", "float64")
                        .option("shape", "512x1024")
                        .mode("append")
                        .save();
                spark.sparkContext().listenerBus().waitUntilEmpty(30_000); // the stage events have reached the listener
                // The last stage is the write: one task per core (local[4]), every row given to one of them.
                assertThat(stageTasks.get(stageTasks.size() - 1)).isEqualTo(4);
                long given = holes ? (512 - 512 / 3 - (512 % 3 == 2 ? 1 : 0)) * 1024L : 512 * 1024L;
                assertThat(rowsPerTask.get(stageIds.get(stageIds.size() - 1)))
                        .as("rows per write task")
                        .hasSize(4)
                        .allSatisfy(n -> assertThat(n).isPositive())
                        .satisfies(ns -> assertThat(
                                        ns.stream().mapToLong(Long::longValue).sum())
                                .isEqualTo(given));

                ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
                assertThat(b.capacity()).isEqualTo(512 * 1024 * 8);
                for (int i = 0; i < 512 * 1024; i++) {
                    double want = holes && (i / 1024) % 3 == 1 ? 0 : i;
                    if (b.getDouble(i * 8) != want) {
                        throw new AssertionError(
                                "element " + i + " = " + b.getDouble(i * 8) + " (expected " + want + ")");
                    }
                }
            }
            try (var left = Files.list(tmp)) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .allSatisfy(n -> assertThat(n).matches("\\.?field-(true|false)\\.f64(\\.crc)?"));
            }
        } finally {
            spark.sparkContext().removeSparkListener(l);
            spark.sparkContext().hadoopConfiguration().unset("fs.local.block.size");
        }
    }

    /**
     * The in-place local write asks Spark only to cluster the rows (no sampling job, no global
     * sort), on the slowest coordinates, enough of them for 64 values a task; a write of parts
     * elsewhere needs ranges. Spark does not sort within a task: the task orders its rows itself.
     */
    @Test
    void theLocalWriteClustersTheRowsAndPartsAreRanged(SparkSession spark) {
        StructType schema = new StructType()
                .add("i0", DataTypes.IntegerType)
                .add("i1", DataTypes.IntegerType)
                .add("i2", DataTypes.IntegerType)
                .add("value", DataTypes.DoubleType);
        Map<String, String> local =
                Map.of("path", tmp.resolve("c.f64").toString(), "etype", "float64", "shape", "4x100x8");
        FileViewWrite w = new FileViewWrite(FileViewSpec.parse(local), schema, false);
        assertThat(w.requiredDistribution()).isInstanceOf(ClusteredDistribution.class);
        // 4 values of i0 are too few for 4 tasks: clustered by (i0, i1), 400 values
        assertThat(((ClusteredDistribution) w.requiredDistribution()).clustering())
                .extracting(Object::toString)
                .containsExactly("i0", "i1");
        assertThat(w.requiredOrdering()).isEmpty();
        Map<String, String> other = Map.of("path", "hdfs://127.0.0.1:1/c.f64", "etype", "float64", "shape", "4x100x8");
        assertThat(new FileViewWrite(FileViewSpec.parse(other), schema, false).requiredDistribution())
                .isInstanceOf(OrderedDistribution.class);
    }

    /**
     * On the local file system the tasks write in place into the one shared file and the commit
     * only renames it: not a byte of the field passes through Hadoop's output streams (the old
     * commit copied the parts through them), and nothing but the file is left.
     */
    @Test
    void theLocalCommitCopiesNothing(SparkSession spark) throws Exception {
        org.apache.hadoop.conf.Configuration hc = spark.sparkContext().hadoopConfiguration();
        hc.setLong("fs.local.block.size", 1 << 20);
        hc.set("fs.file.impl", CountingLocalFileSystem.class.getName());
        hc.setBoolean("fs.file.impl.disable.cache", true);
        try {
            java.nio.file.Path out = tmp.resolve("new-dir/counted.f64"); // a directory the write makes
            Dataset<Row> rows = field(spark, 256, 1024, true);
            long before = CountingLocalFileSystem.BYTES.get();
            rows.write()
                    .format("fileview")
                    .option("path", out.toString())
                    .option("etype", "float64")
                    .option("shape", "256x1024")
                    .mode("append")
                    .save();
            assertThat(CountingLocalFileSystem.BYTES.get() - before)
                    .as("bytes written through Hadoop output streams")
                    .isZero();
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(b.capacity()).isEqualTo(256 * 1024 * 8);
            for (int i = 0; i < 256 * 1024; i++) {
                double want = (i / 1024) % 3 == 1 ? 0 : i;
                if (b.getDouble(i * 8) != want) {
                    throw new AssertionError("element " + i + " = " + b.getDouble(i * 8) + " (expected " + want + ")");
                }
            }
            assertThat(out.getParent().toFile().list()).containsExactly("counted.f64");
        } finally {
            hc.unset("fs.local.block.size");
            hc.unset("fs.file.impl");
            hc.unset("fs.file.impl.disable.cache");
        }
    }

    /** A task that fails mid-write fails the job; the abort leaves neither the file nor the shared file. */
    @Test
    void aFailedTaskLeavesNothing(SparkSession spark) {
        java.nio.file.Path out = tmp.resolve("failed.f64");
        Dataset<Row> rows = field(spark, 64, 64, false).selectExpr("IF(i0 = 40, 64, i0) AS i0", "i1", "value");
        assertThatThrownBy(() -> rows.write()
                        .format("fileview")
                        .option("path", out.toString())
                        .option("etype", "float64")
                        .option("shape", "64x64")
                        .mode("append")
                        .save())
                .hasStackTraceContaining("fileview: coordinate i0 = 64 (expected: 0 <= i0 < 64)");
        assertThat(tmp.toFile().list()).isEmpty();
    }

    /**
     * Overwrite replaces an existing file with the new one in one {@code rename(2)}: the directory's
     * change events (inotify on Linux) show the target moved in and never deleted, so a reader never
     * finds it missing.
     */
    @Test
    void overwriteReplacesTheFileInOneRename(SparkSession spark) throws Exception {
        java.nio.file.Path out = tmp.resolve("over.f64");
        Files.write(out, new byte[] {1, 2, 3});
        List<String> seen = new java.util.ArrayList<>();
        try (java.nio.file.WatchService watch = tmp.getFileSystem().newWatchService()) {
            tmp.register(
                    watch,
                    java.nio.file.StandardWatchEventKinds.ENTRY_CREATE,
                    java.nio.file.StandardWatchEventKinds.ENTRY_DELETE);
            field(spark, 16, 16, false)
                    .write()
                    .format("fileview")
                    .option("path", out.toString())
                    .option("etype", "float64")
                    .option("shape", "16x16")
                    .mode("overwrite")
                    .save();
            Files.write(tmp.resolve("sentinel"), new byte[0]); // the last event: the write's all come before it
            while (!seen.contains("ENTRY_CREATE sentinel")) {
                java.nio.file.WatchKey key = watch.poll(30, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(key)
                        .as("directory events within 30 s, after " + seen)
                        .isNotNull();
                for (java.nio.file.WatchEvent<?> e : key.pollEvents()) {
                    seen.add(e.kind().name() + " " + e.context());
                }
                key.reset();
            }
            Files.delete(tmp.resolve("sentinel"));
        }
        assertThat(seen).contains("ENTRY_CREATE over.f64").doesNotContain("ENTRY_DELETE over.f64");
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.capacity()).isEqualTo(16 * 16 * 8);
        assertThat(b.getDouble(255 * 8)).isEqualTo(255.0);
        assertThat(tmp.toFile().list()).allSatisfy(n -> assertThat(n).matches("\\.?over\\.f64(\\.crc)?"));
    }

    @Test
    void aDuplicatedCoordinateFailsTheJobNamingItAndLeavesNothing(SparkSession spark) {
        java.nio.file.Path out = tmp.resolve("dup.f64");
        Dataset<Row> rows = field(spark, 8, 8, false).union(spark.sql("SELECT 5 AS i0, 6 AS i1, 1.0D AS value"));
        assertThatThrownBy(() -> rows.write()
                        .format("fileview")
                        .option("path", out.toString())
                        .option("etype", "float64")
                        .option("shape", "8x8")
                        .mode("append")
                        .save())
                .hasStackTraceContaining("coordinate (i0 = 5, i1 = 6) is given twice");
        assertThat(tmp.toFile().list()).isEmpty();
    }

    @Test
    void badOptionsAreRefusedInOneLine(SparkSession spark) {
        String p = tmp.resolve("x.f64").toString();
        Dataset<Row> rows = field(spark, 4, 4, false);
        assertThatThrownBy(() -> spark.read()
                        .format("fileview")
                        .option("path", p)
                        .option("etype", "float64")
                        .option("shap", "4x4")
                        .load())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "fileview: unknown option shap (did you mean shape?) (expected: one of path, etype, "
                                + "disp, filetype, shape, order, subarray, starts, subsizes, procs, rank, distribs, dargs, count, splitbytes, batchrows)");
        assertThatThrownBy(() -> spark.read()
                        .format("fileview")
                        .option("path", p)
                        .option("etype", "float64")
                        .option("shape", "4x4")
                        .option("subarry", "0:2,0:2")
                        .load())
                .hasMessageStartingWith("fileview: unknown option subarry (did you mean subarray?)");
        assertThatThrownBy(() -> spark.read()
                        .format("fileview")
                        .option("path", p)
                        .option("etype", "float64")
                        .option("shape", "16x")
                        .load())
                .hasMessage("fileview: option shape '16x' has an empty entry (expected: integers like 64x32 or 64,32)");
        assertThatThrownBy(() -> rows.write()
                        .format("fileview")
                        .option("path", p)
                        .option("etype", "float64")
                        .mode("append")
                        .save())
                .hasStackTraceContaining(
                        "fileview: write needs option shape (expected: the whole array's dimensions, e.g. shape=1024x1024)");
        assertThatThrownBy(() -> rows.write()
                        .format("fileview")
                        .option("path", p)
                        .option("etype", "float64")
                        .option("shape", "4x4")
                        .save())
                .hasMessageContaining(
                        "The data source \"fileview\" cannot be written in the \"ErrorIfExists\" mode. Please use either the \"Append\" or "
                                + "\"Overwrite\" mode instead.");
    }
}
