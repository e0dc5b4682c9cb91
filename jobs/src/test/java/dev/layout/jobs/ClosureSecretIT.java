package dev.layout.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code spark.authenticate=true}, the barrier stages of the halo exchange and of the
 * sparse-allreduce Life carry a salt, never Spark's secret: the secret is in none of the task
 * binaries (broadcast pieces) of a run, while the transport and progress channel, keyed from the
 * secret on each side, still connect. Runs {@link ClosureSecretProbe} in its own JVM, since the
 * shared test session has no authentication.
 */
@Tag("spark")
class ClosureSecretIT {
    @Test
    void theSparkSecretIsInNoTaskBinary(@TempDir Path dir) throws Exception {
        String secret = "probe-secret-" + Long.toHexString(System.nanoTime()) + "-never-shipped";
        Path log = dir.resolve("probe.log");
        Process p = new ProcessBuilder(LaunchedJvms.javaCommand(ClosureSecretProbe.class, secret))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            assertThat(p.waitFor(4, TimeUnit.MINUTES))
                    .as("probe finished in 4 minutes")
                    .isTrue();
        } finally {
            p.destroyForcibly();
        }
        String out = Files.readString(log);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).as(out).contains("DERIVED true", "HEAT_OK", "LIFE_OK", "SECRET_FOUND 0\n");
        assertThat(out)
                .as("the search saw the barrier closures' task binaries")
                .containsPattern("CLOSURE_PIECES [1-9]");
    }
}
