package dev.layout.bench.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code bench io} parses its options and, on a tiny field, prints every row of its table. */
class CollectiveIoBenchmarkTest {
    @Test
    void helpAndBadSizes() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        assertThat(CollectiveIoBenchmark.run(new String[] {"--help"}, new PrintStream(b, true, StandardCharsets.UTF_8)))
                .isZero();
        assertThat(b.toString(StandardCharsets.UTF_8)).startsWith("usage: layout bench io");
        assertThatThrownBy(() -> CollectiveIoBenchmark.run(new String[] {"--mb", "4096"}, System.out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bench io: --mb 4096 (expected: 1 .. 1024 MiB)");
        assertThatThrownBy(() -> CollectiveIoBenchmark.run(new String[] {"--reps", "0"}, System.out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--reps");
    }

    @Test
    void aOneMegabyteRunPrintsEveryRowWithItsRatios() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        assertThat(CollectiveIoBenchmark.run(
                        new String[] {"--reps", "1", "--mb", "1"}, new PrintStream(b, true, StandardCharsets.UTF_8)))
                .isZero();
        String[] lines = b.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines)
                .filteredOn(
                        l -> l.matches(
                                "(hdfs|local) +\\[.*\\] +[49] .*\\(\\d+\\.\\d\\d\\).*\\(\\d+\\.\\d\\d\\).*\\(\\d+\\.\\d\\d\\)\\s*"))
                .hasSize(8);
    }
}
