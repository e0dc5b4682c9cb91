package dev.layout.jobs.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two runs into one {@code --out} at once: the second is refused while the first holds the lock, not mixed in. */
class OutputDirectoryTest {
    private final Configuration conf = new Configuration();

    @Test
    void aSecondRunIsRefusedWhileTheFirstHoldsTheLock(@TempDir Path dir) throws Exception {
        String out = dir.resolve("run").toString();
        try (OutputDirectory first = OutputDirectory.open("heat", out, false, conf)) {
            assertThat(dir.resolve("run").resolve(OutputDirectory.LOCK)).exists();
            assertThatThrownBy(() -> OutputDirectory.open("life", out, true, conf))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--out " + out + " is in use by another run (")
                    .hasMessageContaining(
                            "_LOCK: heat pid " + ProcessHandle.current().pid())
                    .hasMessageEndingWith("; expected: one run per directory, delete the lock if that run is gone)");
            first.write("summary.json", o -> o.write("{}".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(dir.resolve("run").resolve(OutputDirectory.LOCK))
                .as("released when the run ends")
                .doesNotExist();
        assertThat(Files.readString(dir.resolve("run").resolve("summary.json"))).isEqualTo("{}");
        // the first run's outputs stay unless the next run says to overwrite them
        assertThatThrownBy(() -> OutputDirectory.open("heat", out, false, conf))
                .hasMessage("--out " + out
                        + " already holds summary.json (expected: a new or empty directory, or --overwrite true)");
        try (OutputDirectory again = OutputDirectory.open("heat", out, true, conf)) {
            assertThat(dir.resolve("run").resolve("summary.json")).doesNotExist();
        }
    }
}
