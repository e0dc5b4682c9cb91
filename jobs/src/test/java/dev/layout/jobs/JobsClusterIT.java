package dev.layout.jobs;

import static dev.layout.jobs.JobsIT.assertLifeOutputs;
import static dev.layout.jobs.JobsIT.assertProgressEndsAtTotal;
import static dev.layout.jobs.JobsIT.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.jobs.JobsIT.Run;
import dev.layout.jobs.heat.SequentialHeat;
import dev.layout.jobs.life.Pbm;
import dev.layout.jobs.life.Rle;
import dev.layout.spark.testing.StandaloneClusterExtension;
import dev.layout.spark.testing.StandaloneClusterExtension.Cluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * End to end on a Spark standalone cluster (a Master and two Workers as separate JVMs, executors in
 * their own JVMs): every Spark job through {@code bin/layout-submit --master spark://...}, its
 * outputs checked against the sequential references value for value. Each run is one application
 * with two 2-core executors, so the four ranks of a 2x2 process grid span two executor JVMs.
 */
@Tag("cluster")
@Order(1)
@ResourceLock(JobsClusterIT.CLUSTER_LOCK)
class JobsClusterIT {
    /**
     * Held by every class of this module that submits to the shared cluster: each application asks for
     * all four cores, so two at once would leave one waiting for executors.
     */
    static final String CLUSTER_LOCK = "dev.layout.spark.testing.StandaloneClusterExtension";

    @RegisterExtension
    static final StandaloneClusterExtension CLUSTER = StandaloneClusterExtension.withoutSession();

    /**
     * {@code JOB} on the cluster: the master, two executors of 2 cores each (the job waits for both
     * before it starts; executors can take minutes to start on a loaded machine), then the job's
     * options.
     */
    static Run onCluster(Cluster c, Path log, String job, String... jobOptions) throws Exception {
        List<String> args = new ArrayList<>(List.of(job));
        args.addAll(c.submitOptions(LaunchedJvms.classPath(), LaunchedJvms.javaOptions()));
        args.addAll(List.of(
                "--executor-cores",
                "2",
                "--executor-memory",
                "512m",
                "--total-executor-cores",
                "4",
                "--conf",
                "spark.scheduler.maxRegisteredResourcesWaitingTime=240s"));
        args.addAll(List.of(jobOptions));
        return submit(log, args.toArray(String[]::new));
    }

    @Test
    void heatInBothModesEqualsTheSequentialField(Cluster c, @TempDir Path dir) throws Exception {
        Path barrier = dir.resolve("barrier");
        Run b = onCluster(
                c,
                dir.resolve("barrier.log"),
                "heat",
                "--grid",
                "26x22",
                "--stencil",
                "9",
                "--steps",
                "20",
                "--mode",
                "barrier",
                "--procs",
                "2x2",
                "--out",
                barrier.toString());
        assertThat(b.code()).as(b.output()).isZero();
        assertThat(RawField.read(barrier.resolve("field.f64"), 26 * 22))
                .isEqualTo(SequentialHeat.run(new int[] {26, 22}, 9, false, null, 20));
        assertThat(Files.readString(barrier.resolve("summary.json")))
                .contains("\"mode\": \"barrier\"", "\"procs\": \"2x2\"");
        assertProgressEndsAtTotal(b.output(), "heat", 20);

        double[] init = new double[18 * 20];
        for (int i = 0; i < init.length; i++) {
            init[i] = (i * 29 % 13) / 12.0;
        }
        Path raw = dir.resolve("init.f64");
        RawField.write(init, raw);
        Path shuffle = dir.resolve("shuffle");
        Run s = onCluster(
                c,
                dir.resolve("shuffle.log"),
                "heat",
                "--grid",
                "18x20",
                "--stencil",
                "5",
                "--steps",
                "6",
                "--mode",
                "shuffle",
                "--procs",
                "2x2",
                "--periodic",
                "true",
                "--init",
                "raw:" + raw,
                "--out",
                shuffle.toString());
        assertThat(s.code()).as(s.output()).isZero();
        assertThat(RawField.read(shuffle.resolve("field.f64"), init.length))
                .isEqualTo(SequentialHeat.run(new int[] {18, 20}, 5, true, init, 6));
        assertProgressEndsAtTotal(s.output(), "heat", 6);
    }

    @Test
    void lifeFromAnRlePatternMatchesTheSequentialBoardAndCounts(Cluster c, @TempDir Path dir) throws Exception {
        String gun = "#N Gosper glider gun\nx = 36, y = 9, rule = B3/S23\n"
                + "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\nobo$10bo5bo7bo$11bo3bo$12b2o!\n";
        Path rle = dir.resolve("gun.rle");
        Files.writeString(rle, gun);
        Path out = dir.resolve("out");
        int rows = 24;
        int cols = 40;
        int steps = 40;
        Run r = onCluster(
                c,
                dir.resolve("life.log"),
                "life",
                "--grid",
                rows + "x" + cols,
                "--steps",
                String.valueOf(steps),
                "--mode",
                "barrier",
                "--procs",
                "2x2",
                "--periodic",
                "false",
                "--init",
                "rle:" + rle,
                "--out",
                out.toString());
        assertThat(r.code()).as(r.output()).isZero();
        Pbm.Board pattern = Rle.parse(gun, "gun.rle");
        boolean[] b = new boolean[rows * cols];
        for (int i = 0; i < pattern.rows(); i++) {
            System.arraycopy(pattern.cells(), i * pattern.cols(), b, i * cols, pattern.cols());
        }
        assertLifeOutputs(out, b, rows, cols, false, steps);
        assertProgressEndsAtTotal(r.output(), "life", steps);
    }

    @Test
    void fileviewReadSplitsTheFileAcrossExecutorsAndGetsTheSubarrayStatistics(Cluster c, @TempDir Path dir)
            throws Exception {
        double[] a = new double[64 * 40];
        for (int k = 0; k < a.length; k++) {
            a[k] = k * 0.5;
        }
        Path raw = dir.resolve("a.f64");
        RawField.write(a, raw);
        Run r = onCluster(
                c,
                dir.resolve("fileview.log"),
                "fileview-read",
                "--file",
                raw.toString(),
                "--etype",
                "float64",
                "--shape",
                "64x40",
                "--view",
                "subarray:8:56,4:36",
                "--split-bytes",
                "4096");
        assertThat(r.code()).as(r.output()).isZero();
        // rows 8..55, columns 4..35: 48 x 32 values 0.5*(40*i+j); mean 0.5*(40*31.5+19.5)
        assertThat(r.output())
                .contains(
                        "fileview-read: count 1536",
                        "fileview-read: i0 range [8, 55]",
                        "fileview-read: i1 range [4, 35]",
                        "fileview-read: value min 162.0 max 1117.5 mean 639.7500000");
        assertThat(r.output()).containsPattern("[2-9] partition\\(s\\)|[1-9][0-9]+ partition\\(s\\)");
    }
}
