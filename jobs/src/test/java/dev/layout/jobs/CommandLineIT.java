package dev.layout.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/layout} as a user runs it (the launcher script, this module's class path with Spark's
 * logging and Hadoop on it): a file-view read prints no Hadoop start-up warning and leaves no
 * {@code .crc} beside its output; {@code topo --help} prints the usage.
 */
@Tag("spark")
class CommandLineIT {
    record Run(int code, String out, String err) {}

    static Run layout(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(
                List.of("bash", JobsIT.ROOT.resolve("bin/layout").toString()));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().put("LAYOUT_CLASSPATH", LaunchedJvms.classPath());
        pb.environment().put("LAYOUT_JAVA_OPTS", LaunchedJvms.javaOptions());
        Process p = pb.start();
        try {
            assertThat(p.waitFor(2, TimeUnit.MINUTES))
                    .as("bin/layout finished in 2 minutes")
                    .isTrue();
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            p.destroyForcibly();
            Files.delete(out);
            Files.delete(err);
        }
    }

    @Test
    void aFileViewReadPrintsNoHadoopWarningAndLeavesNoChecksumFile(@TempDir Path dir) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(64 * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64; i++) {
            b.putDouble(i);
        }
        Files.write(dir.resolve("a.f64"), b.array());
        Run r = layout(
                dir,
                "fileview",
                "read",
                "--file",
                "a.f64",
                "--etype",
                "float64",
                "--view",
                "vector(4, 1, 2, float64)",
                "--out",
                "col.bin");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("read 32 bytes in ");
        assertThat(r.err()).doesNotContain("NativeCodeLoader").doesNotContain("WARN");
        ByteBuffer got =
                ByteBuffer.wrap(Files.readAllBytes(dir.resolve("col.bin"))).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new double[] {got.getDouble(0), got.getDouble(8), got.getDouble(16), got.getDouble(24)})
                .containsExactly(0, 2, 4, 6);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("a.f64", "col.bin");
        }
    }

    @Test
    void topoHelpPrintsTheUsage(@TempDir Path dir) throws Exception {
        Run r = layout(dir, "topo", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("usage: layout topo neighbors");
    }
}
