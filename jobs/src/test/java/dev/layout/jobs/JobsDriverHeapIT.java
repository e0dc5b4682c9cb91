package dev.layout.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.jobs.JobsIT.Run;
import dev.layout.jobs.heat.SequentialHeat;
import dev.layout.spark.testing.MiniDfsExtension;
import dev.layout.spark.testing.StandaloneClusterExtension;
import dev.layout.spark.testing.StandaloneClusterExtension.Cluster;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The data never passes through the driver: heat on the standalone cluster (workers and executors
 * on 127.0.0.2 and 127.0.0.3) with its input and output on MiniDFS, from a driver JVM whose heap
 * is smaller than the field. A small grid checks the values against the sequential reference
 * through the same path (raw init read by the ranks, field written collectively); the large one
 * checks that the driver's peak heap stayed below the field's size and spot-checks windows of the
 * field.
 */
@Tag("cluster")
@Order(1)
@ResourceLock(JobsClusterIT.CLUSTER_LOCK)
class JobsDriverHeapIT {
    @RegisterExtension
    static final StandaloneClusterExtension CLUSTER = StandaloneClusterExtension.withoutSession();

    /** A datanode on each worker's address. */
    @RegisterExtension
    static final MiniDfsExtension DFS = MiniDfsExtension.onHosts(
            StandaloneClusterExtension.workerHost(1), StandaloneClusterExtension.workerHost(2));

    static Run heat(Cluster c, Path log, String driverHeap, String... jobOptions) throws Exception {
        List<String> args = new ArrayList<>(List.of("heat"));
        args.addAll(c.submitOptions(LaunchedJvms.classPath(), LaunchedJvms.javaOptions()));
        args.addAll(List.of(
                "--executor-cores",
                "2",
                "--executor-memory",
                "1g",
                "--total-executor-cores",
                "4",
                "--conf",
                "spark.scheduler.maxRegisteredResourcesWaitingTime=240s",
                // Spark refuses a JVM under 450 MB for its memory manager unless the reserve is lowered
                "--conf",
                "spark.testing.reservedMemory=0"));
        // the HDFS client settings reach the driver and every executor only as the job's Hadoop configuration
        MiniDfsExtension.CLIENT_SETTINGS.forEach(
                (k, v) -> args.addAll(List.of("--conf", "spark.hadoop." + k + "=" + v)));
        args.addAll(List.of(jobOptions));
        return JobsIT.submitWith(driverHeap, log, args.toArray(String[]::new));
    }

    @Test
    void aFieldLargerThanTheDriverHeapGoesFromMiniDfsThroughTheExecutorsBackToMiniDfs(
            Cluster c, FileSystem hdfs, @TempDir Path dir) throws Exception {
        String root = hdfs.getUri() + "/heap-it";
        // same code path, small grid: raw init from HDFS read by the ranks, field written to HDFS by them
        int[] small = {40, 36};
        double[] init = new double[small[0] * small[1]];
        for (int i = 0; i < init.length; i++) {
            init[i] = (i * 31 % 17) / 16.0;
        }
        ByteBuffer b = ByteBuffer.allocate(init.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(init);
        try (FSDataOutputStream o = hdfs.create(new org.apache.hadoop.fs.Path(root + "/init.f64"))) {
            o.write(b.array());
        }
        // paths without a namenode (hdfs:///...) resolve through spark.hadoop.fs.defaultFS, on the driver and on
        // the executors, which open the checkpoints with the job's configuration as well
        Run s = heat(
                c,
                dir.resolve("small.log"),
                "-Xmx128m",
                "--conf",
                "spark.hadoop.fs.defaultFS=" + hdfs.getUri(),
                "--grid",
                "40x36",
                "--stencil",
                "9",
                "--steps",
                "7",
                "--procs",
                "2x2",
                "--init",
                "raw:hdfs:///heap-it/init.f64",
                "--out",
                "hdfs:///heap-it/small",
                "--checkpoint-interval",
                "3",
                "--checkpoint-dir",
                "hdfs:///heap-it/ckpt");
        assertThat(s.code()).as(s.output()).isZero();
        assertThat(read(hdfs, root + "/small/field.f64", 0, init.length))
                .isEqualTo(SequentialHeat.run(small, 9, false, init, 7));
        assertThat(read(hdfs, root + "/ckpt/iter-6.f64", 0, init.length))
                .isEqualTo(SequentialHeat.run(small, 9, false, init, 6));

        // 4096 x 5120 float64 = 167.8 MB, driver heap 128 MB
        int rows = 4096;
        int cols = 5120;
        long fieldBytes = 8L * rows * cols;
        Run big = heat(
                c,
                dir.resolve("big.log"),
                "-Xmx128m",
                "--grid",
                rows + "x" + cols,
                "--stencil",
                "9",
                "--steps",
                "2",
                "--procs",
                "2x2",
                "--out",
                root + "/big");
        assertThat(big.code()).as(big.output()).isZero();
        assertThat(hdfs.getFileStatus(new org.apache.hadoop.fs.Path(root + "/big/field.f64"))
                        .getLen())
                .isEqualTo(fieldBytes);
        String summary = readText(hdfs, root + "/big/summary.json");
        long peak = number(summary, "driver_heap_peak_bytes");
        long max = number(summary, "driver_heap_max_bytes");
        assertThat(max).as("driver heap limit").isLessThan(fieldBytes);
        assertThat(peak)
                .as("driver peak heap (sampled) vs field bytes %d:%n%s", fieldBytes, summary)
                .isLessThan(fieldBytes);
        // after 2 steps the heat has moved 2 rows from the plate: rows 0..7 are those of a 16-row grid of the
        // same width (whose bottom boundary cannot reach them in 2 steps), and the last rows are still 0
        double[] strip = SequentialHeat.run(new int[] {16, cols}, 9, false, null, 2);
        double[] top = read(hdfs, root + "/big/field.f64", 0, 8 * cols);
        assertThat(top).isEqualTo(java.util.Arrays.copyOf(strip, 8 * cols));
        double[] bottom = read(hdfs, root + "/big/field.f64", (long) (rows - 4) * cols, 4 * cols);
        assertThat(bottom).containsOnly(0.0);
        assertThat(summary).contains("\"field_write\"");
    }

    static double[] read(FileSystem fs, String path, long firstValue, int count) throws IOException {
        byte[] bytes = new byte[count * 8];
        try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
            in.readFully(firstValue * 8, bytes);
        }
        double[] out = new double[count];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
        return out;
    }

    static String readText(FileSystem fs, String path) throws IOException {
        try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (\\d+)").matcher(json);
        assertThat(m.find()).as("%s in %s", key, json).isTrue();
        return Long.parseLong(m.group(1));
    }
}
