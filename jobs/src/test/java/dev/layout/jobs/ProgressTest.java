package dev.layout.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    final AtomicLong now = new AtomicLong(1_000_000_000L);

    String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void lineShowsCountRateAndEtaMeasuredFromTheFirstCount() {
        Progress p = new Progress(out, "heat", 100, Progress.Style.LINES, now::get);
        now.addAndGet(3_000_000_000L); // set-up before the first iteration: not part of the rate
        p.update(1);
        now.addAndGet(4_900_000_000L);
        assertThat(p.line(50, now.get()))
                .isEqualTo("heat [###############...............] 50/100  10.0 it/s  ETA 5.0s");
    }

    @Test
    void plainLinesForTheFirstCountEachTenthAndTheFinalLine() {
        Progress p = new Progress(out, "life", 100, Progress.Style.LINES, now::get);
        for (int i = 1; i <= 100; i++) {
            now.addAndGet(100_000_000L);
            p.update(i);
            p.update(i); // repeated counts print nothing
        }
        now.addAndGet(100_000_000L);
        p.finish();
        List<String> lines = text().lines().toList();
        assertThat(lines).hasSize(11);
        assertThat(lines.get(0)).startsWith("life [..............................] 1/100  -- it/s  ETA ?");
        for (int k = 1; k <= 9; k++) {
            assertThat(lines.get(k))
                    .startsWith("life [" + "#".repeat(3 * k) + ".".repeat(30 - 3 * k) + "] " + (10 * k)
                            + "/100  10.0 it/s  ETA ");
        }
        assertThat(lines.get(10)).isEqualTo("life [##############################] 100/100  9.9 it/s  done in 10.1s");
        assertThat(text()).doesNotContain("\r");
    }

    @Test
    void aReportJumpingOverSeveralTenthsPrintsEachAndTheFinalRateIsTheWallRate() {
        Progress p = new Progress(out, "heat", 100, Progress.Style.LINES, now::get);
        now.addAndGet(200_000_000L);
        p.update(1);
        now.addAndGet(1_000_000_000L);
        p.update(73);
        now.addAndGet(600_000_000L);
        long wall = p.finish();
        List<String> lines = text().lines().toList();
        assertThat(lines)
                .extracting(l -> l.replaceAll("^heat \\[[#.]+\\] (\\d+)/100.*", "$1"))
                .containsExactly("1", "10", "20", "30", "40", "50", "60", "73", "100");
        assertThat(wall).isEqualTo(1_800_000_000L);
        // 100 iterations in the 1.8 s the summary reports as wall_ms, not 72 in the 1.6 s after the first report
        assertThat(lines.get(lines.size() - 1))
                .isEqualTo("heat [##############################] 100/100  55.6 it/s  done in 1.8s");
    }

    @Test
    void terminalRedrawsOneLineInPlaceAndEndsItWithANewline() {
        Progress p = new Progress(out, "heat", 4, Progress.Style.TERMINAL, now::get);
        for (int i = 1; i <= 4; i++) {
            now.addAndGet(500_000_000L);
            p.update(i);
        }
        assertThat(text())
                .doesNotContain("\n")
                .startsWith("\rheat [")
                .contains("\rheat [######################........] 3/4  2.0 it/s  ETA 0.5s");
        p.finish();
        p.update(4); // after finish: nothing
        assertThat(text()).endsWith("\rheat [##############################] 4/4  2.0 it/s  done in 2.0s\n");
        assertThat(text().chars().filter(c -> c == '\n').count()).isEqualTo(1);
    }

    @Test
    void updatesWithinATenthOfASecondDrawOnceOnATerminal() {
        Progress p = new Progress(out, "heat", 1000, Progress.Style.TERMINAL, now::get);
        for (int i = 1; i <= 50; i++) {
            now.addAndGet(1_000_000L);
            p.update(i);
        }
        assertThat(text().chars().filter(c -> c == '\r').count()).isEqualTo(1);
    }

    @Test
    void offPrintsNothingAndZeroStepsStillEndWithAFinalLine() {
        Progress off = new Progress(out, "heat", 10, Progress.Style.OFF, now::get);
        off.update(5);
        off.finish();
        assertThat(text()).isEmpty();
        Progress none = new Progress(out, "heat", 0, Progress.Style.LINES, now::get);
        none.finish();
        assertThat(text()).startsWith("heat [##############################] 0/0  -- it/s  done in 0.0s");
    }

    @Test
    void styleComesFromTheEnvironmentValueOrTheConsole() {
        assertThat(Progress.Style.of(null, true)).isEqualTo(Progress.Style.TERMINAL);
        assertThat(Progress.Style.of("", false)).isEqualTo(Progress.Style.LINES);
        assertThat(Progress.Style.of("Lines", true)).isEqualTo(Progress.Style.LINES);
        assertThat(Progress.Style.of("off", true)).isEqualTo(Progress.Style.OFF);
        assertThatThrownBy(() -> Progress.Style.of("fancy", true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("LAYOUT_PROGRESS=fancy (expected: terminal, lines or off)");
    }

    @Test
    void longEtasReadAsMinutesAndHours() {
        assertThat(Progress.formatSeconds(59.94)).isEqualTo("59.9s");
        assertThat(Progress.formatSeconds(125)).isEqualTo("2m05s");
        assertThat(Progress.formatSeconds(7325)).isEqualTo("2h02m");
    }
}
