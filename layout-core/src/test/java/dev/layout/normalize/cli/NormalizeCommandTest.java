package dev.layout.normalize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NormalizeCommandTest {

    private record Result(int status, String out, String err) {
        String lastLine() {
            String[] lines = out.strip().split("\n");
            return lines[lines.length - 1];
        }
    }

    private static Result run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int status = new NormalizeCommand()
                .run(
                        args,
                        new PrintStream(o, true, StandardCharsets.UTF_8),
                        new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Result(status, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    @Test
    void printsPathAndCost() {
        Result r = run(
                "--model", "storage", "--kcon", "1", "--kvec", "4", "--kidx", "3", "--disps=5,6,8,9,10,12,13,14,16");
        assertThat(r.status()).isZero();
        assertThat(r.lastLine()).isEqualTo("vec(3,4,idx(3,<5,6,8>,con(1))) cost=11");
    }

    @Test
    void acceptsValuesStartingWithMinus() {
        assertThat(run("--disps=-3,5,7").lastLine()).isEqualTo("idx(3,<-3,5,7>,con(1)) cost=7");
        assertThat(run("--disps", "-3,5,7").lastLine()).isEqualTo("idx(3,<-3,5,7>,con(1)) cost=7");
    }

    @Test
    void processingModelWithAllConstants() {
        Result r = run(
                "--model=processing",
                "--kcon=1",
                "--kvec=2",
                "--kidx=3",
                "--ccon=1",
                "--cvec=1",
                "--cidx=2",
                "--disps=2,4,6,8,9,11,13,15,1,3,5,7");
        assertThat(r.lastLine()).endsWith(" cost=51");
    }

    @Test
    void batchModePrintsOneLinePerInputLine(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in.txt");
        Files.writeString(in, "0\n5,6,8,9,10,12,13,14,16\n-3,5,7\n");
        Result r = run("--kcon", "1", "--kvec", "4", "--kidx", "3", "--input", in.toString());
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .isEqualTo("con(1) cost=1\nvec(3,4,idx(3,<5,6,8>,con(1))) cost=11\nidx(3,<-3,5,7>,con(1)) cost=7\n");
    }

    @Test
    void badArgumentsExitWith2AndOneLine() {
        Result r = run("--disps=1,x");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("layout: error: displacements: element 1 'x' (expected: a 64-bit integer)\n");
        assertThat(run("--model=fast", "--disps=1").err()).contains("--model fast (expected: storage or processing)");
        assertThat(run("--kidx=-1", "--disps=1").err()).contains("--kidx -1 (expected: an integer >= 0)");
        assertThat(run("--bogus=1").err()).contains("unknown option --bogus");
        assertThat(run("--kcon=1").err()).contains("exactly one of --disps, --input, --type");
        assertThat(run("--ccon=1", "--disps=1").err()).contains("only with --model processing");
    }

    @Test
    void unreadableInputExitsWith1(@TempDir Path dir) {
        Result r = run("--input", dir.resolve("nope.txt").toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).startsWith("layout: error: ").contains("nope.txt");
    }

    @Test
    void batchErrorNamesTheLine(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("in.txt");
        Files.writeString(in, "1,2\n1,,2\n");
        Result r = run("--input", in.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("in.txt:2: displacements: element 1");
    }

    @Test
    void helpPrintsUsage() {
        assertThat(run("--help").out()).startsWith("usage: layout normalize");
    }

    @Test
    void typeOptionPrintsNormalizedTypeAndCostBeforeAndAfter() {
        Result r =
                run("--kcon=1", "--kvec=4", "--kidx=3", "--type", "indexed_block(1, [5,6,8,9,10,12,13,14,16], int32)");
        assertThat(r.status()).as(r.err()).isZero();
        String[] lines = r.out().strip().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).isEqualTo("vector(3, 1, 1, indexed_block(1, [5,6,8], int32))");
        assertThat(lines[1]).isEqualTo("cost before=13 after=11 model=storage");
    }

    @Test
    void typeOptionRejectsBadNotation() {
        Result r = run("--type", "vector(1,");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("layout: error: ");
    }

    @Test
    void constantsComeFromNormalizerPropertiesInTheConfFolder(@TempDir Path conf) throws java.io.IOException {
        Files.writeString(conf.resolve("normalizer.properties"), "normalizer.model=processing\n");
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        int status = new NormalizeCommand(conf)
                .run(
                        new String[] {"--type", "indexed([1,1,1,1], [0,2,4,6], float64)"},
                        new PrintStream(o, true, StandardCharsets.UTF_8),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThat(status).isZero();
        assertThat(o.toString(StandardCharsets.UTF_8)).contains("model=processing");
        // without the file, the code defaults (storage)
        o.reset();
        new NormalizeCommand(conf.resolve("none"))
                .run(
                        new String[] {"--type", "indexed([1,1,1,1], [0,2,4,6], float64)"},
                        new PrintStream(o, true, StandardCharsets.UTF_8),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThat(o.toString(StandardCharsets.UTF_8)).contains("model=storage");
    }
}
