package dev.layout.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayoutCliTest {
    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LayoutCli.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void describePrintsBoundsDataloopAndBlocks() {
        Result r = run("describe", "vector(4, 1, 4, float32)");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains(
                        "size:            16",
                        "extent:          52",
                        "true extent:     52",
                        "vector leaf(count=4, blockBytes=4, stride=16",
                        "contiguous blocks: 4",
                        "compiled from:   the type as given");
    }

    @Test
    void describeShowsTheNormalizedDescriptionTheDataloopIsCompiledFrom() {
        // 4 x 4 rows of 5 every-other float64 given as a list of row starts: three vector levels (a plane
        // of 20 runs, more than one record lists).
        Result r = run(
                "describe",
                "hindexed_block(1, [0,96,192,288,1024,1120,1216,1312,2048,2144,2240,2336,3072,3168,3264,3360], "
                        + "vector(5, 1, 2, float64))");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains(
                        "(normalized, same type map)",
                        "vector(count=4, blocklen=1, stride=1024",
                        "    vector(count=4, blocklen=1, stride=96",
                        "      vector leaf(count=5, blockBytes=8, stride=16",
                        "contiguous blocks: 80");
    }

    @Test
    void badTypeIsAOneLineErrorWithExitCode2() {
        Result r = run("describe", "vector(2, 1, float32)");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo("layout: error: line 1, column 14: expected int, found 'float32'" + System.lineSeparator());
        assertThat(run("nonsense").code()).isEqualTo(2);
    }

    @Test
    void packPrintsTheConformanceBytes() {
        Result r = run("pack", "vector(4, 1, 4, float32)", "--external32");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("64452607543516f7442506e73415f6d7");
    }

    @Test
    void conformReportsPassedOverTotalAndFailsOnAMismatch(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("v.jsonl.gz");
        try (InputStream in = getClass().getResourceAsStream("/conformance/mpich-types.jsonl.gz")) {
            Files.copy(in, good);
        }
        Result ok = run("conform", good.toString());
        assertThat(ok.code()).isZero();
        assertThat(ok.out().strip()).endsWith("conformance: 1562/1562 passed");

        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(
                bad,
                "{\"id\":\"x\",\"type\":\"vector(4, 1, 4, float32)\",\"count\":1,\"size\":16,\"lb\":0,\"extent\":50,\"true_lb\":0,"
                        + "\"true_extent\":52,\"buffer_bytes\":52,\"base_offset\":0,\"packed_hex\":\"07264564f7163554e7062544d7f61534\",\"pack_only\":true}\n");
        Result fail = run("conform", bad.toString());
        assertThat(fail.code()).isEqualTo(1);
        assertThat(fail.out())
                .contains("x extent: expected 50, got 52")
                .endsWith("conformance: 0/1 passed" + System.lineSeparator());
    }

    @Test
    void filesThatCannotBeReadSayWhy(@TempDir Path dir) {
        Result missing = run("pack", "int32", "--in", dir.resolve("nope.bin").toString());
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("pack: --in " + dir.resolve("nope.bin") + ": not found");
        Result folder = run("conform", dir.toString());
        assertThat(folder.code()).isEqualTo(1);
        assertThat(folder.err()).contains("conform: " + dir + ": is a directory");
    }

    @Test
    void conformOnAFileOfSomethingElseSaysItIsNotAVectorFile(@TempDir Path dir) throws IOException {
        Path text = Files.writeString(dir.resolve("notes.jsonl"), "these are notes\nnot vectors\n");
        Result r = run("conform", text.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .contains("conform: " + text + " is not a conformance-vector file (line 1: not a JSON object");
        Path json = Files.writeString(dir.resolve("other.jsonl"), "{\"name\":\"x\"}\n");
        assertThat(run("conform", json.toString()).err()).contains("line 1: a JSON object without a \"type\" field");
        Path gz = Files.writeString(dir.resolve("plain.jsonl.gz"), "{}\n");
        assertThat(run("conform", gz.toString()).err()).contains("is not gzip-compressed");
    }
}
