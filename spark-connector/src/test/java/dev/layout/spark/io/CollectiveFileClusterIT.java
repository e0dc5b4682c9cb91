package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import dev.layout.spark.comm.SparkCommunicator;
import dev.layout.spark.comm.TransportFactory;
import dev.layout.spark.shim.SparkShim;
import dev.layout.spark.testing.StandaloneClusterExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Collective writes from the tasks of a barrier stage on a standalone cluster (executors in their
 * own JVMs, ranks connected over TCP), with an executor JVM killed in the middle of the write: the
 * parts are written by the ranks, the driver commits once after the stage, and whatever the dead
 * executor left is gone after the job. When the stage's retry succeeds, the file is there once
 * with every rank's data; when the job fails, there is no file and no part.
 */
@Tag("cluster")
@ExtendWith(StandaloneClusterExtension.class)
class CollectiveFileClusterIT {
    /** 2896 x 2896 doubles (64 MiB) over 2 x 2 ranks; 64 KiB cycles make the write last long enough to be interrupted. */
    private static final FieldSplit SPLIT = new FieldSplit(new long[] {2896, 2896}, new int[] {2, 2});

    /** Counts barrier stage attempts after the first. */
    static final class Reattempts extends SparkListener {
        final AtomicInteger count = new AtomicInteger();

        @Override
        public void onStageSubmitted(SparkListenerStageSubmitted e) {
            if (e.stageInfo().attemptNumber() > 0) {
                count.incrementAndGet();
            }
        }
    }

    private static CompletableFuture<List<IoResult>> write(
            JavaSparkContext jsc, CollectiveFile file, boolean failRetries) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        JavaRDD<Integer> ranks = jsc.parallelize(List.of(0, 1, 2, 3), 4);
        return CompletableFuture.supplyAsync(() -> SparkShim.barrierMapPartitions(
                        ranks,
                        it -> {
                            int rank = it.next();
                            if (failRetries && BarrierTaskContext.get().stageAttemptNumber() > 0) {
                                throw new IllegalStateException("test: the retried stage gives up");
                            }
                            try (SparkCommunicator sc =
                                    SparkCommunicator.connect(TransportFactory.tcp(), secret, Duration.ofSeconds(30))) {
                                byte[] block = SPLIT.block(rank);
                                FileView view = new FileView(0, Primitive.FLOAT64, SPLIT.filetype(rank));
                                return List.of(file.writeAll(
                                                sc.world(),
                                                view,
                                                0,
                                                Memory.ofArray(block),
                                                0,
                                                Primitive.BYTE,
                                                block.length))
                                        .iterator();
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        },
                        IoResult.class)
                .repartition(1)
                .collect()); // a shuffle after it: Spark retries a barrier ShuffleMapStage, not a ResultStage
    }

    /** Waits until the aggregators are writing, then kills an executor JVM. */
    private static void killAnExecutorMidWrite(
            StandaloneClusterExtension.Cluster cluster, Path dir, CompletableFuture<?> run) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (!run.isDone() && System.nanoTime() < deadline && !hasPartTemp(dir)) {
            Thread.sleep(10); // bounded polling of files other processes write
        }
        assertThat(run.isDone()).as("write ended before the kill").isFalse();
        assertThat(hasPartTemp(dir)).as("a part being written").isTrue();
        List<ProcessHandle> executors = cluster.executors();
        assertThat(executors).as("executor JVMs").isNotEmpty();
        executors.get(0).destroyForcibly();
    }

    /** True once an aggregator has written bytes: the local file system's one hidden file (a part's temporary file elsewhere) is not empty. */
    private static boolean hasPartTemp(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(
                    p -> p.getFileName().toString().matches("\\.field\\.f64\\.\\w+\\.(whole|part-\\d+\\.[-\\w]+\\.tmp)")
                            && size(p) > 0);
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0; // renamed or deleted since the listing
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    @Test
    void aRetriedStageAfterAKilledExecutorWritesTheFileOnce(
            JavaSparkContext jsc, StandaloneClusterExtension.Cluster cluster, @TempDir Path dir) throws Exception {
        CollectiveFile file = CollectiveFile.of(
                        jsc.hadoopConfiguration(),
                        dir.resolve("field.f64").toUri().toString())
                .withBlockSize(4L << 20)
                .withCycleBytes(64 << 10)
                .deferCommit();
        Reattempts reattempts = new Reattempts();
        jsc.sc().addSparkListener(reattempts);
        try {
            CompletableFuture<List<IoResult>> run = write(jsc, file, false);
            killAnExecutorMidWrite(cluster, dir, run);
            List<IoResult> results = run.get(5, TimeUnit.MINUTES);
            assertThat(names(dir)).as("before the commit: parts only").noneMatch(n -> n.equals("field.f64"));
            file.commit(results.get(0));
        } finally {
            file.abort(); // the driver's cleanup, whatever happened
            jsc.sc().removeSparkListener(reattempts);
        }
        jsc.sc().listenerBus().waitUntilEmpty(30_000);
        assertThat(reattempts.count.get())
                .as("barrier stage attempts after the first")
                .isPositive();
        assertThat(names(dir).stream().filter(n -> !n.equals(".field.f64.crc"))).containsExactly("field.f64");
        ByteBuffer b = ByteBuffer.allocate((int) (SPLIT.cells() * 8)).order(ByteOrder.nativeOrder());
        try (FileChannel ch = FileChannel.open(dir.resolve("field.f64"), StandardOpenOption.READ)) {
            assertThat(ch.size()).isEqualTo(SPLIT.cells() * 8);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // reads the whole file
            }
        }
        for (int i = 0; i < SPLIT.cells(); i++) {
            if (b.getDouble(i * 8) != i) {
                throw new AssertionError("cell " + i + " = " + b.getDouble(i * 8));
            }
        }
    }

    @Test
    void aFailedJobAfterAKilledExecutorLeavesNoFileAndNoPart(
            JavaSparkContext jsc, StandaloneClusterExtension.Cluster cluster, @TempDir Path dir) throws Exception {
        CollectiveFile file = CollectiveFile.of(
                        jsc.hadoopConfiguration(),
                        dir.resolve("field.f64").toUri().toString())
                .withBlockSize(4L << 20)
                .withCycleBytes(64 << 10)
                .deferCommit();
        try {
            CompletableFuture<List<IoResult>> run = write(jsc, file, true);
            killAnExecutorMidWrite(cluster, dir, run);
            assertThatThrownBy(() -> run.get(5, TimeUnit.MINUTES))
                    .isInstanceOf(ExecutionException.class)
                    .hasStackTraceContaining("the retried stage gives up");
        } finally {
            file.abort();
        }
        assertThat(names(dir)).isEmpty();
    }
}
