package dev.layout.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobOptionsTest {
    static JobOptions heat() {
        return new JobOptions(
                "heat",
                List.of(
                        new JobOptions.Option("grid", "64x64", "grid size"),
                        new JobOptions.Option("steps", "10", "steps"),
                        new JobOptions.Option("mode", "barrier", "barrier or shuffle")));
    }

    @Test
    void commandLineBeatsConfFileBeatsDefaults(@TempDir Path dir) throws IOException {
        Path conf = dir.resolve("heat.properties");
        Files.writeString(conf, "steps = 50\nmode = shuffle\n");
        JobOptions o = heat().parse(new String[] {"--conf-file", conf.toString(), "--mode=barrier"});
        assertThat(o.getLong("steps", 0, 1000)).isEqualTo(50);
        assertThat(o.getChoice("mode", "barrier", "shuffle")).isEqualTo("barrier");
        assertThat(o.getDims("grid", 2, 3)).containsExactly(64, 64);
    }

    @Test
    void badOptionsAreNamed() throws IOException {
        assertThatThrownBy(() -> heat().parse(new String[] {"--gird", "4x4"}))
                .hasMessageStartingWith("heat: unknown option --gird");
        assertThatThrownBy(() -> heat().parse(new String[] {"--grid", "4x0"}).getDims("grid", 2, 3))
                .hasMessage("heat: --grid 4x0 (expected: every size >= 1)");
        assertThatThrownBy(() -> heat().parse(new String[] {"--mode", "mpi"}).getChoice("mode", "barrier", "shuffle"))
                .hasMessage("heat: --mode mpi (expected one of: barrier, shuffle)");
        assertThat(heat().usage()).contains("--grid", "default: 64x64", "--conf-file");
    }
}
