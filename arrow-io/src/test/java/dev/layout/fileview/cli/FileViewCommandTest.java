package dev.layout.fileview.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.dataloop.Packing;
import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileViewCommandTest {
    @TempDir
    Path temp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return new FileViewCommand()
                .run(
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** A row-major float64 array whose element i holds the value i. */
    private static byte[] bytes(int elements) {
        byte[] b = new byte[elements * 8];
        dev.layout.memory.Memory m = dev.layout.memory.Memory.ofArray(b);
        for (int i = 0; i < elements; i++) {
            m.putDouble(8L * i, i);
        }
        return b;
    }

    private String lastLine() {
        String[] lines = out.toString(StandardCharsets.UTF_8).trim().split("\n");
        return lines[lines.length - 1];
    }

    @Test
    void readsAFaceThroughTheView() throws IOException {
        byte[] data = bytes(4 * 5 * 6);
        Path file = temp.resolve("cube.bin");
        Files.write(file, data);
        String view = "subarray([4,5,6], [4,5,1], [0,0,2], C, float64)";
        Path dst = temp.resolve("face.bin");
        int rc = run(
                "read",
                "--file",
                file.toString(),
                "--etype",
                "float64",
                "--disp",
                "0",
                "--view",
                view,
                "--out",
                dst.toString());
        assertThat(rc).as(err.toString(StandardCharsets.UTF_8)).isZero();
        Datatype t = LayoutParser.parse(view);
        assertThat(Files.readAllBytes(dst)).isEqualTo(Packing.pack(t, 1, data, 0));
        assertThat(lastLine()).matches("read 160 bytes in 1 ranges \\(19 merged\\) in \\d+ ms");
    }

    @Test
    void offsetAndCountSelectEtypesAndPositionedModeAgrees() throws IOException {
        byte[] data = bytes(100);
        Path file = temp.resolve("v.bin");
        Files.write(file, data);
        Path dst = temp.resolve("o.bin");
        int rc = run(
                "fileview",
                "read",
                "--file",
                file.toString(),
                "--etype",
                "float64",
                "--disp",
                "16",
                "--view",
                "vector(2, 1, 3, float64)",
                "--offset",
                "3",
                "--count",
                "4",
                "--out",
                dst.toString(),
                "--mode",
                "positioned",
                "--hole-threshold",
                "-1");
        assertThat(rc).as(err.toString(StandardCharsets.UTF_8)).isZero();
        byte[] got = Files.readAllBytes(dst);
        // flatten merges 9 and 10 across the tile boundary, so 2 ranges.
        // tiles of 2 doubles (elements 0 and 3 of each 4-element extent) from element 2 on: 2,5,6,9,10,13,14,17
        dev.layout.memory.Memory m = dev.layout.memory.Memory.ofArray(got);
        assertThat(new double[] {m.getDouble(0), m.getDouble(8), m.getDouble(16), m.getDouble(24)})
                .containsExactly(9, 10, 13, 14);
        assertThat(lastLine()).matches("read 32 bytes in 2 ranges \\(0 merged\\) in \\d+ ms");
    }

    @Test
    void helpDocumentsModeAndHoleThreshold() {
        assertThat(run("fileview", "read", "--help")).isZero();
        String help = out.toString(StandardCharsets.UTF_8);
        assertThat(help)
                .startsWith(FileViewCommand.USAGE)
                .contains("--mode MODE")
                .contains("auto ")
                .contains("vectored ")
                .contains("positioned ")
                .contains("--hole-threshold BYTES")
                .contains("default 65536")
                .contains("-1 reads one range per piece")
                .contains("read B bytes in R ranges (M merged) in T ms");
        out.reset();
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(help);
        assertThat(run(
                        "read", "--file", "x", "--etype", "float64", "--view", "float64", "--out", "y", "--mode",
                        "fast"))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--mode fast (expected: auto, vectored or positioned)");
    }

    @Test
    void badArgumentsExitWithTwo() {
        assertThat(run("read", "--file", "x", "--etype", "float64", "--view", "vector(2,", "--out", "y"))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("layout: error: ");
        assertThat(run("write")).isEqualTo(2);
        assertThat(run("read", "--file", "x", "--etype", "float64", "--view", "int32", "--out", "y"))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("fileview: filetype byteSize 4 (expected: a multiple of etype float64");
    }

    @Test
    void ioErrorsExitWithOneAndNameThePath() {
        Path missing = temp.resolve("missing.bin");
        int rc = run(
                "read",
                "--file",
                missing.toString(),
                "--etype",
                "float64",
                "--disp",
                "0",
                "--view",
                "float64",
                "--out",
                temp.resolve("o").toString());
        assertThat(rc).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("layout: error: ")
                .contains("missing.bin");
    }

    @Test
    void ioErrorsSayWhy() {
        Path missing = temp.resolve("missing.bin");
        assertThat(run(
                        "read",
                        "--file",
                        missing.toString(),
                        "--etype",
                        "float64",
                        "--view",
                        "float64",
                        "--out",
                        temp.resolve("o").toString()))
                .isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--file " + missing + ": not found");
        err.reset();
        assertThat(run(
                        "read",
                        "--file",
                        temp.toString(),
                        "--etype",
                        "float64",
                        "--view",
                        "float64",
                        "--out",
                        temp.resolve("o").toString()))
                .isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(": is a directory");
    }

    @Test
    void aFailedReadLeavesTheExistingOutputAsItWasAndNothingBeside() throws IOException {
        Path file = Files.write(temp.resolve("small.bin"), bytes(4)); // 32 bytes
        Path dst = Files.write(temp.resolve("keep.bin"), new byte[] {1, 2, 3});
        // 8 float64 asked of a 4-element file: the read fails after the output was opened
        int rc = run(
                "read",
                "--file",
                file.toString(),
                "--etype",
                "float64",
                "--view",
                "float64",
                "--count",
                "8",
                "--out",
                dst.toString());
        assertThat(rc).isEqualTo(1);
        assertThat(Files.readAllBytes(dst)).containsExactly(1, 2, 3);
        try (var files = Files.list(temp)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("small.bin", "keep.bin");
        }
    }

    @Test
    void aSuccessfulReadReplacesTheOutputAndWritesNoChecksumFile() throws IOException {
        Path file = Files.write(temp.resolve("v.bin"), bytes(4));
        Path dst = Files.write(temp.resolve("out.bin"), new byte[100]);
        assertThat(run(
                        "read",
                        "--file",
                        file.toString(),
                        "--etype",
                        "float64",
                        "--view",
                        "float64",
                        "--count",
                        "4",
                        "--out",
                        dst.toString()))
                .as(err.toString(StandardCharsets.UTF_8))
                .isZero();
        assertThat(Files.readAllBytes(dst)).isEqualTo(bytes(4));
        try (var files = Files.list(temp)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("v.bin", "out.bin");
        }
    }
}
