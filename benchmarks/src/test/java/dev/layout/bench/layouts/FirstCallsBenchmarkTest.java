package dev.layout.bench.layouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.bench.memory.Target;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The buckets cover the calls asked for; the summary's ratios are the sums' quotients; a small run reports and writes. */
class FirstCallsBenchmarkTest {
    @Test
    void bucketsStartAtTheFixedEdgesAndEndAtTheCallsAskedFor() {
        assertThat(FirstCallsBenchmark.buckets(1)).containsExactly(0, 1);
        assertThat(FirstCallsBenchmark.buckets(10)).containsExactly(0, 1, 10);
        assertThat(FirstCallsBenchmark.buckets(12)).containsExactly(0, 1, 10, 12);
        assertThat(FirstCallsBenchmark.buckets(3000)).containsExactly(0, 1, 10, 100, 1000, 3000);
    }

    @Test
    void theSummaryDividesTheHandLoopsTimeByTheEnginesAndCountsTheMakingWithPack() {
        long[] edges = {0, 1, 10};
        long[][] engine = {{100, 900}, {50, 450}};
        long[][] hand = {{10, 900}, {100, 900}};
        String s = FirstCallsBenchmark.summary(edges, engine, hand, 100, 3);
        assertThat(s)
                .contains("pack, layouts 3+, hand/engine per bucket of calls: 1 0.10 2-10 1.00")
                .contains("pack, layouts 3+, hand/engine over the first N calls: 1: 0.05 10: 0.83")
                .contains("unpack, layouts 3+, hand/engine per bucket of calls: 1 2.00 2-10 2.00")
                .contains("unpack, layouts 3+, hand/engine over the first N calls: 1: 2.00 10: 2.00");
    }

    @Test
    void eachCallOfALayoutIsTimedInItsBucket() {
        long[] edges = FirstCallsBenchmark.buckets(12);
        FirstCallsBenchmark.Times t =
                FirstCallsBenchmark.measure(0, LayoutDraws.draw(5, 1).get(0), 4096, 12, edges, Target.HEAP);
        for (int op = 0; op < 2; op++) {
            for (int b = 0; b + 1 < edges.length; b++) {
                assertThat(t.engine()[op][b]).as("op %d bucket %d", op, b).isPositive();
                assertThat(t.hand()[op][b]).as("op %d bucket %d", op, b).isPositive();
            }
        }
        assertThat(t.makeNanos()).isPositive();
    }

    @Test
    void aSmallRunEndsWithItsSummaryAndWritesItsTable(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = FirstCallsBenchmark.run(
                new String[] {
                    "--layouts", "2", "--bytes", "4096", "--calls", "12", "--skip", "1", "--out", dir.toString()
                },
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(code).isZero();
        assertThat(out).containsPattern("pack, layouts 1\\+, hand/engine per bucket of calls: 1 \\d+\\.\\d\\d 2-10");
        assertThat(out.strip().lines().reduce((x, y) -> y).orElseThrow())
                .startsWith("unpack, layouts 1+, hand/engine over the first N calls: 1: ")
                .containsPattern(" 12: \\d+\\.\\d\\d$");
        assertThat(Files.readString(dir.resolve("FIRST-CALLS.md")))
                .contains("| # | op | make us |")
                .contains("| 1 | unpack |")
                .contains("1. `");
    }

    @Test
    void badArgumentsAreRefusedByName() {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> FirstCallsBenchmark.run(new String[] {"--calls", "0"}, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("calls");
    }
}
