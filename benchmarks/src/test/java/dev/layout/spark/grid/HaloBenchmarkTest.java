package dev.layout.spark.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.bench.cli.BenchCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code layout bench halo}'s command line: usage, and bad arguments refused before anything starts. */
class HaloBenchmarkTest {
    @Test
    void helpPrintsTheUsageThroughTheBenchCommand() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(b, true, StandardCharsets.UTF_8);
        assertThat(new BenchCommand().run(new String[] {"halo", "--help"}, out, out))
                .isZero();
        assertThat(b.toString(StandardCharsets.UTF_8).strip()).isEqualTo("usage: " + HaloBenchmark.USAGE);
        b.reset();
        new BenchCommand().run(new String[] {"--help"}, out, out);
        assertThat(b.toString(StandardCharsets.UTF_8)).contains("layout bench halo [--quick]");
    }

    @Test
    void badArgumentsAreRefusedNamingTheOption() {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> HaloBenchmark.run(new String[] {"--block", "0"}, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("block")
                .hasMessageContaining("0");
        assertThatThrownBy(() -> HaloBenchmark.run(new String[] {"--block", "5000"}, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bench halo: --block 5000 (expected: <= 4096)");
        assertThatThrownBy(() -> HaloBenchmark.run(new String[] {"--rounds", "3"}, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bench halo: unknown option --rounds");
        assertThatThrownBy(() -> HaloBenchmark.run(new String[] {"200"}, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bench halo: argument '200'");
    }
}
