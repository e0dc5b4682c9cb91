package dev.layout.topology.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopoCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String line) {
        return TopoCommand.run(
                List.of(line.split(" ")),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void printsTheIssueExampleInGenerationOrder() {
        int code = run("neighbors --dims 4,4 --periods 1,0 --metric chebyshev --shadow 1 --depth 1 --rank 5");
        assertThat(code).isZero();
        // rank 5 = (1,1); dimension 1 is not periodic but (1,1) is interior, so every neighbour exists
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("-1,-1 0\n0,-1 4\n1,-1 8\n-1,0 1\n1,0 9\n-1,1 2\n0,1 6\n1,1 10\n");
    }

    @Test
    void printsNullOffANonPeriodicBorderAndHonoursOrderF() {
        int code = run("neighbors --dims 4,4 --periods 1,0 --metric manhattan --shadow 1 --depth 1 --rank 4 --order F");
        assertThat(code).isZero();
        // order F: rank 4 = (0,1); dimension 0 wraps
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("0,-1 0\n-1,0 7\n1,0 5\n0,1 8\n");
        run("neighbors --dims 2,2 --periods 0,0 --metric axis --rank 0");
        assertThat(out.toString(StandardCharsets.UTF_8)).endsWith("0,-1 null\n-1,0 null\n1,0 2\n0,1 1\n");
    }

    @Test
    void badArgumentsExitWithTwoAndOneLine() {
        assertThat(run("neighbors --dims 4,4 --metric euclid --rank 1")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("layout: error: topo neighbors: metric euclid (expected: chebyshev, manhattan or axis)\n");
    }

    @Test
    void helpPrintsTheUsageThroughTheLauncher() {
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(dev.layout.cli.LayoutCli.run(new String[] {"topo", "--help"}, o, e))
                .isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("usage: layout topo neighbors --dims")
                .contains("--metric");
        out.reset();
        assertThat(dev.layout.cli.LayoutCli.run(new String[] {"topo", "neighbors", "--help"}, o, e))
                .isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("usage: layout topo neighbors");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
