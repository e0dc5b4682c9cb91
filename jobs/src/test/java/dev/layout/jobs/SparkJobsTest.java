package dev.layout.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.spark.grid.CheckpointPolicy;
import dev.layout.spark.grid.ExchangeMode;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkJobsTest {
    private static JobOptions options(String... args) throws IOException {
        return new JobOptions("heat", SparkJobs.withOutputOptions("heat", "iterations", SparkJobs.AGGREGATORS))
                .parse(args);
    }

    @Test
    void barrierCheckpointsTakeTheJobsAggregators(@TempDir java.nio.file.Path dir) throws IOException {
        String ckpt = dir.resolve("ckpt").toString();
        CheckpointPolicy three = SparkJobs.checkpoints(
                "heat",
                options("--checkpoint-interval", "5", "--checkpoint-dir", ckpt, "--aggregators", "3"),
                ExchangeMode.BARRIER);
        assertThat(three.interval()).isEqualTo(5);
        assertThat(three.aggregators()).isEqualTo(3);
        CheckpointPolicy byDefault = SparkJobs.checkpoints(
                "heat", options("--checkpoint-interval", "5", "--checkpoint-dir", ckpt), ExchangeMode.BARRIER);
        assertThat(byDefault.aggregators()).isZero();
    }
}
