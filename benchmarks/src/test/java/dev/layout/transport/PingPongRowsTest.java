package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** bench pingpong's row selection ({@code --match}) and its argument errors. */
class PingPongRowsTest {
    @Test
    void matchKeepsTheRowsItFinds() {
        var rows = PingPongRow.rows(false, Pattern.compile("^vector 4194304 1$"));
        assertThat(rows).containsExactly(new PingPongRow("vector", 4 << 20, 1));
        assertThat(PingPongRow.rows(true, Pattern.compile(" 1$"))).isNotEmpty().allSatisfy(r -> assertThat(r.blocks())
                .isEqualTo(1));
        assertThat(PingPongRow.rows(true, null)).isEqualTo(PingPongRow.rows(true));
    }

    @Test
    void aMatchThatFindsNoRowOrDoesNotParseIsAnError() {
        assertThat(errorOf("--match", "nothing 1 2")).contains("--match nothing 1 2 finds no row");
        assertThat(errorOf("--match", "vector [")).contains("--match vector [").contains("regular expression");
        assertThat(errorOf("--quick", "--match", "index 65536 1")).contains("finds no row");
    }

    private static String errorOf(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = PingPongBenchmark.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
        assertThat(rc).isEqualTo(2);
        return err.toString(StandardCharsets.UTF_8);
    }
}
