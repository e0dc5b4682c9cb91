package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.fileview.FileDomains;
import dev.layout.spark.io.DomainOutput;
import dev.layout.spark.io.HadoopConf;
import dev.layout.spark.testing.LocalSparkExtension;
import dev.layout.spark.testing.MiniDfsExtension;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fileview source's write on HDFS: each task writes its rows as parts of its domains (the
 * fast-closing {@link dev.layout.fileview.DomainPart}), the driver joins them with {@code
 * concat}; a failure or a late task attempt leaves nothing beside the target.
 */
@Tag("spark")
@Tag("hdfs")
@ExtendWith({LocalSparkExtension.class, MiniDfsExtension.class})
class FileViewWriteHdfsIT {
    private static Dataset<Row> field(SparkSession spark, int rows, int cols, boolean holes) {
        return spark.range(0, (long) rows * cols)
                .filter(holes ? "(id DIV " + cols + ") % 3 <> 1" : "true")
                .selectExpr(
                        "CAST(id DIV " + cols + " AS INT) AS i0",
                        "CAST(id % " + cols + " AS INT) AS i1",
                        "CAST(id AS DOUBLE) AS value")
                .repartition(4);
    }

    private static byte[] read(FileSystem fs, Path p) throws IOException {
        byte[] b = new byte[(int) fs.getFileStatus(p).getLen()];
        try (FSDataInputStream in = fs.open(p)) {
            in.readFully(0, b);
        }
        return b;
    }

    private static List<String> names(FileSystem fs, Path dir) throws IOException {
        return Arrays.stream(fs.listStatus(dir))
                .map(FileStatus::getPath)
                .map(Path::getName)
                .sorted()
                .toList();
    }

    @Test
    void tasksWritePartsTheDriverConcatenates(SparkSession spark, FileSystem hdfs) throws Exception {
        // 256 x 1024 doubles = 2 MiB, blocks of 512 KiB: four domains, four tasks
        org.apache.hadoop.conf.Configuration hc = spark.sparkContext().hadoopConfiguration();
        hc.setLong("dfs.blocksize", 512 << 10);
        hc.setBoolean("fs.hdfs.impl.disable.cache", true); // a client of this configuration, not the cluster's
        try {
            for (boolean holes : new boolean[] {false, true}) {
                Path out = new Path(hdfs.getUri() + "/w1/field-" + holes + ".f64");
                field(spark, 256, 1024, holes)
                        .write()
                        .format("fileview")
                        .option("path", out.toString())
                        .option("etype", "float64")
                        .option("shape", "256x1024")
                        .mode("append")
                        .save();
                ByteBuffer b = ByteBuffer.wrap(read(hdfs, out)).order(ByteOrder.LITTLE_ENDIAN);
                assertThat(b.capacity()).isEqualTo(256 * 1024 * 8);
                for (int i = 0; i < 256 * 1024; i++) {
                    double want = holes && (i / 1024) % 3 == 1 ? 0 : i;
                    if (b.getDouble(i * 8) != want) {
                        throw new AssertionError(
                                "element " + i + " = " + b.getDouble(i * 8) + " (expected " + want + ")");
                    }
                }
                assertThat(hdfs.getFileBlockLocations(out, 0, b.capacity()).length)
                        .as("the parts' blocks became the file's")
                        .isGreaterThanOrEqualTo(4);
            }
            assertThat(names(hdfs, new Path("/w1"))).containsExactly("field-false.f64", "field-true.f64");
        } finally {
            hc.unset("dfs.blocksize");
            hc.unset("fs.hdfs.impl.disable.cache");
        }
    }

    @Test
    void aDuplicatedCoordinateFailsTheJobNamingItAndLeavesNothing(SparkSession spark, FileSystem hdfs)
            throws Exception {
        Path out = new Path(hdfs.getUri() + "/w2/dup.f64");
        hdfs.mkdirs(out.getParent());
        Dataset<Row> rows = field(spark, 8, 8, false).union(spark.sql("SELECT 5 AS i0, 6 AS i1, 1.0D AS value"));
        assertThatThrownBy(() -> rows.write()
                        .format("fileview")
                        .option("path", out.toString())
                        .option("etype", "float64")
                        .option("shape", "8x8")
                        .mode("append")
                        .save())
                .hasStackTraceContaining("coordinate (i0 = 5, i1 = 6) is given twice");
        assertThat(names(hdfs, out.getParent())).isEmpty();
    }

    /**
     * Task attempts that start after their write was committed or aborted (as a speculative or
     * re-attempted task that outlived its job would), run as real Spark tasks: each is refused
     * before it writes a row, and neither a part nor a temporary file is left.
     */
    @Test
    void aTaskStartingAfterTheWriteEndedLeavesNoPart(SparkSession spark, FileSystem hdfs) throws Exception {
        for (boolean commit : new boolean[] {true, false}) {
            Path out = new Path(hdfs.getUri() + "/w3-" + commit + "/late.f64");
            hdfs.mkdirs(out.getParent());
            FileViewSpec spec = FileViewSpec.parse(Map.of("path", out.toString(), "etype", "float64", "shape", "8x8"));
            FileDomains domains = FileDomains.of(0, 256, 512);
            DomainOutput.begin(hdfs, out, "late1", 512);
            if (commit) {
                for (int d = 0; d < 2; d++) {
                    try (DomainOutput o = DomainOutput.open(hdfs, out, domains, d, "late1", 1 << 20)) {
                        o.write(domains.start(d), new byte[256], 0, 256);
                        o.commit();
                    }
                }
                DomainOutput.commit(hdfs, out, "late1", domains);
            } else {
                DomainOutput.abort(hdfs, out, "late1");
            }
            FileViewPartWriter.Factory factory = partWriters(spark, spec, "late1", domains);
            List<String> outcomes = new JavaSparkContext(spark.sparkContext())
                    .parallelize(List.of(0, 1), 2)
                    .map(task -> {
                        DataWriter<org.apache.spark.sql.catalyst.InternalRow> w =
                                factory.createWriter(task, 100 + task);
                        try {
                            w.write(new GenericInternalRow(new Object[] {task * 4, 1, 1.0}));
                            w.commit();
                            return "wrote";
                        } catch (IOException | RuntimeException e) {
                            w.abort();
                            return e.getMessage();
                        } finally {
                            w.close();
                        }
                    })
                    .collect();
            assertThat(outcomes)
                    .allSatisfy(
                            m -> assertThat(m).contains("the write late1 of").contains("is over"));
            assertThat(names(hdfs, out.getParent()))
                    .containsExactlyElementsOf(commit ? List.of("late.f64") : List.of());
            if (commit) {
                assertThat(read(hdfs, out)).containsOnly(0);
            }
        }
    }

    /**
     * A task attempt that is still writing while the driver commits (it opened its part while the
     * write was open, then stalls: held by a latch, released once the commit returned): the commit
     * makes the file from the committed parts, the stray's part is removed, and when the stray goes
     * on, its commit fails and it leaves nothing; the file keeps the committed bytes.
     */
    @Test
    void anAttemptStillWritingDuringTheCommitLeavesNothing(SparkSession spark, FileSystem hdfs) throws Exception {
        Path out = new Path(hdfs.getUri() + "/w5/stray.f64");
        hdfs.mkdirs(out.getParent());
        FileDomains domains = FileDomains.of(0, 256, 512);
        DomainOutput.begin(hdfs, out, "stray1", 512);
        java.util.concurrent.CountDownLatch opened = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch committed = new java.util.concurrent.CountDownLatch(1);
        byte[] nines = new byte[64];
        Arrays.fill(nines, (byte) 9);
        // a task's output as its writer drives it when it commits (see FileViewPartWriter)
        java.util.concurrent.CompletableFuture<String> stray =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    FileOrderOutput w =
                            new FileOrderOutput(hdfs, out, "stray1", "task-00001.domain-", domains, 1 << 20, 64);
                    try {
                        try {
                            w.write(256, nines, 0, 64); // opens the task's part of domain 1
                            opened.countDown();
                            if (!committed.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
                                return "the commit did not come within 60 s";
                            }
                            w.write(320, nines, 0, 64);
                            w.commit();
                            return "wrote";
                        } catch (IOException | RuntimeException e) {
                            return "failed: " + e.getMessage();
                        } finally {
                            w.close();
                        }
                    } catch (IOException e) {
                        return "close failed: " + e;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return "interrupted";
                    }
                });
        assertThat(opened.await(60, java.util.concurrent.TimeUnit.SECONDS))
                .as("the stray opened its part")
                .isTrue();
        assertThat(names(hdfs, out.getParent())).anyMatch(n -> n.startsWith(".stray.f64.stray1.task-00001"));
        for (int d = 0; d < 2; d++) {
            try (DomainOutput o = DomainOutput.open(hdfs, out, domains, d, "stray1", 1 << 20)) {
                byte[] b = new byte[256];
                Arrays.fill(b, (byte) (d + 1));
                o.write(domains.start(d), b, 0, 256);
                o.commit();
            }
        }
        DomainOutput.commit(hdfs, out, "stray1", domains);
        committed.countDown();
        assertThat(stray.get(120, java.util.concurrent.TimeUnit.SECONDS)).startsWith("failed: ");
        assertThat(names(hdfs, out.getParent())).containsExactly("stray.f64");
        byte[] file = read(hdfs, out);
        assertThat(Arrays.copyOfRange(file, 0, 256)).containsOnly(1);
        assertThat(Arrays.copyOfRange(file, 256, 512)).containsOnly(2);
    }

    /**
     * Overwrite replaces the file in one namenode rename: the namenode's edit log (read through
     * inotify) shows a rename onto the target and no unlink of it, so a reader never finds it missing.
     */
    @Test
    void overwriteReplacesTheFileInOneRename(SparkSession spark, FileSystem hdfs) throws Exception {
        Path out = new Path(hdfs.getUri() + "/w4/over.f64");
        try (org.apache.hadoop.fs.FSDataOutputStream o = hdfs.create(out)) {
            o.write(new byte[] {1, 2, 3});
        }
        org.apache.hadoop.hdfs.DFSInotifyEventInputStream events =
                new org.apache.hadoop.hdfs.client.HdfsAdmin(hdfs.getUri(), hdfs.getConf()).getInotifyEventStream();
        field(spark, 16, 16, false)
                .write()
                .format("fileview")
                .option("path", out.toString())
                .option("etype", "float64")
                .option("shape", "16x16")
                .mode("overwrite")
                .save();
        Path sentinel = new Path("/w4/sentinel");
        hdfs.create(sentinel).close(); // the last event to wait for: every event of the write comes before it
        List<String> seen = new java.util.ArrayList<>();
        boolean done = false;
        while (!done) {
            org.apache.hadoop.hdfs.inotify.EventBatch batch = events.poll(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(batch).as("inotify events within 30 s, after " + seen).isNotNull();
            for (org.apache.hadoop.hdfs.inotify.Event e : batch.getEvents()) {
                if (e instanceof org.apache.hadoop.hdfs.inotify.Event.UnlinkEvent u) {
                    seen.add("unlink " + u.getPath());
                } else if (e instanceof org.apache.hadoop.hdfs.inotify.Event.RenameEvent r) {
                    seen.add("rename " + r.getDstPath());
                } else if (e instanceof org.apache.hadoop.hdfs.inotify.Event.CreateEvent c) {
                    done |= c.getPath().equals(sentinel.toString());
                }
            }
        }
        assertThat(seen).contains("rename /w4/over.f64").doesNotContain("unlink /w4/over.f64");
        ByteBuffer b = ByteBuffer.wrap(read(hdfs, out)).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.capacity()).isEqualTo(16 * 16 * 8);
        assertThat(b.getDouble(255 * 8)).isEqualTo(255.0);
        assertThat(names(hdfs, out.getParent())).containsExactly("over.f64", "sentinel");
    }

    /** The part writers of a write of {@code spec}'s float64 rows (coordinates in columns 0 and 1, the value in 2). */
    private static FileViewPartWriter.Factory partWriters(
            SparkSession spark, FileViewSpec spec, String writeId, FileDomains domains) {
        return new FileViewPartWriter.Factory(
                spec,
                spec.schema(),
                new int[] {0, 1},
                new int[] {2},
                HadoopConf.of(spark.sparkContext().hadoopConfiguration()),
                writeId,
                domains,
                1 << 20,
                8,
                1 << 10);
    }
}
