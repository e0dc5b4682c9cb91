package dev.layout.jobs;

import static dev.layout.jobs.JobsIT.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.jobs.JobsIT.Run;
import dev.layout.jobs.heat.SequentialHeat;
import java.io.File;
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
 * The edges a new user (or someone with a shell on the same machine) meets: where {@code --out}
 * goes, what it refuses, checkpoints of another run, bad inputs, Ctrl-C. Each through {@code
 * bin/layout-submit} on local[2]; every failure is one line and exit 2.
 */
@Tag("spark")
class JobsSafetyIT {

    /** The lines of a run's output that are the job's own (Spark's warnings aside). */
    static List<String> jobLines(Run r, String job) {
        return r.output().lines().filter(l -> l.startsWith(job + ":")).toList();
    }

    @Test
    void outTakesAFileUriAndRefusesASecondRunUnlessToldToOverwrite(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run1");
        String uri = "file://" + out; // file:///tmp/.../run1
        Run r = submit(
                dir.resolve("log1"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "16x12",
                "--stencil",
                "5",
                "--steps",
                "5",
                "--procs",
                "2x1",
                "--out",
                uri);
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(RawField.read(out.resolve("field.f64"), 16 * 12))
                .isEqualTo(SequentialHeat.run(new int[] {16, 12}, 5, false, null, 5));
        assertThat(out.resolve("field.png")).exists();
        assertThat(out.resolve(OutputDirectoryNames.LOCK)).doesNotExist();
        assertThat(Path.of("file:"))
                .as("no directory named file: in the working directory")
                .doesNotExist();

        Run again = submit(
                dir.resolve("log2"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "8x8",
                "--steps",
                "1",
                "--procs",
                "2x1",
                "--out",
                out.toString());
        assertThat(again.code()).as(again.output()).isEqualTo(2);
        assertThat(jobLines(again, "heat"))
                .containsExactly("heat: error: --out " + out + " already holds field.f64, field.png, summary.json"
                        + " (expected: a new or empty directory, or --overwrite true)");
        assertThat(RawField.read(out.resolve("field.f64"), 16 * 12))
                .as("the first run's field, untouched")
                .hasSize(16 * 12);

        // a symbolic link planted where a naive job puts its temporary file, and one in place of an output
        Path outside = dir.resolve("outside.txt");
        Files.createSymbolicLink(out.resolve("summary.json.tmp"), outside);
        Files.delete(out.resolve("field.png"));
        Files.createSymbolicLink(out.resolve("field.png"), outside);
        Run over = submit(
                dir.resolve("log3"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "8x8",
                "--stencil",
                "9",
                "--steps",
                "3",
                "--procs",
                "2x1",
                "--out",
                out.toString(),
                "--overwrite",
                "true");
        assertThat(over.code()).as(over.output()).isZero();
        assertThat(RawField.read(out.resolve("field.f64"), 64))
                .isEqualTo(SequentialHeat.run(new int[] {8, 8}, 9, false, null, 3));
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"grid\": \"8x8\"");
        assertThat(outside).as("nothing written through a planted link").doesNotExist();
        assertThat(Files.isSymbolicLink(out.resolve("field.png"))).isFalse();
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")))
                    .containsExactlyInAnyOrder("field.f64", "field.png", "summary.json", "summary.json.tmp");
        }
    }

    @Test
    void badOptionsAndInputsAreOneLineBeforeAnythingIsCreated(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("never");
        List<List<String>> cases = List.of(
                List.of("heat", "--grid", "4x4", "--procs", "3x3", "--out", out.toString()),
                List.of("heat", "--grid", "1x8", "--procs", "2x1", "--out", out.toString()),
                List.of("heat", "--grid", "16x16", "--checkpoint-interval", "5", "--out", out.toString()),
                List.of("heat", "--grid", "16x16", "--aggregators", "-1", "--out", out.toString()),
                List.of("life", "--grid", "16x16", "--aggregators", "two", "--out", out.toString()),
                List.of(
                        "heat",
                        "--grid",
                        "16x16",
                        "--init",
                        "raw:" + dir.resolve("missing.f64"),
                        "--out",
                        out.toString()),
                List.of(
                        "life",
                        "--grid",
                        "64x64",
                        "--init",
                        "rle:" + write(dir.resolve("big.rle"), "x = 46340, y = 46340\n!"),
                        "--out",
                        out.toString()),
                List.of(
                        "life",
                        "--init",
                        "pbm:" + write(dir.resolve("big.pbm"), "P4 46340 46340\n"),
                        "--out",
                        out.toString()),
                List.of(
                        "life",
                        "--init",
                        "pbm:" + write(dir.resolve("huge.pbm"), "P1 65536 65536\n0 1\n"),
                        "--out",
                        out.toString()),
                List.of("fileview-read", "--file", dir.resolve("missing.f64").toString()),
                List.of(
                        "fileview-read",
                        "--file",
                        write(dir.resolve("short.f64"), "12345678").toString(),
                        "--shape",
                        "4x4"));
        List<String> expected = List.of(
                "heat: error: barrier: 9 ranks but the cluster runs only 2 tasks at once (master local[2], spark.task.cpus 1; expected: ranks <="
                        + " slots, use fewer partitions or more executor cores)",
                "heat: error: distributedGrid: dimension 0 has blocks of 0 elements (1 over 2 processes), narrower than ghost width 1"
                        + " (expected: fewer processes or a wider grid)",
                "heat: error: --checkpoint-interval 5 without --checkpoint-dir (expected: a directory to write barrier-mode checkpoints to and"
                        + " resume from, e.g. --checkpoint-dir hdfs:///tmp/heat-ckpt)",
                "heat: error: --aggregators -1 (expected: >= 0, 0 for one per host)",
                "life: error: --aggregators two (expected: an integer >= 0, 0 for one per host)",
                "heat: error: --init " + dir.resolve("missing.f64") + ": no such file (expected: 2048 bytes)",
                "life: error: --init rle:" + dir.resolve("big.rle")
                        + ": pattern of x = 46340, y = 46340 does not fit the 64x64 board (expected: a"
                        + " board of at least 46340x46340)",
                "life: error: --init pbm:" + dir.resolve("big.pbm")
                        + ": P4 46340 x 46340 needs 268447620 data bytes, the file has 0 after the header",
                "life: error: --init pbm:" + dir.resolve("huge.pbm")
                        + ": P1 65536 x 65536 = 4294967296 cells (expected: at most 2147483639)",
                "fileview-read: error: --file " + dir.resolve("missing.f64") + ": no such file",
                "fileview-read: error: --file " + dir.resolve("short.f64")
                        + ": 8 bytes (expected: at least 128 bytes, --disp plus the --shape array" + " of --etype)");
        for (int i = 0; i < cases.size(); i++) {
            List<String> args = new ArrayList<>(cases.get(i));
            args.addAll(1, List.of("--master", "local[2]"));
            Run r = submit(dir.resolve("log" + i), args.toArray(String[]::new));
            String job = cases.get(i).get(0);
            assertThat(r.code()).as(r.output()).isEqualTo(2);
            assertThat(jobLines(r, job)).as(r.output()).containsExactly(expected.get(i));
            assertThat(r.output()).as("no stack trace").doesNotContain("\tat ");
            assertThat(out).as("nothing created for a bad option").doesNotExist();
        }
    }

    @Test
    void checkpointsOfAnotherRunAreRefusedInOneLine(@TempDir Path dir) throws Exception {
        Path ckpt = dir.resolve("ckpt");
        Run first = submit(
                dir.resolve("log1"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "16x16",
                "--stencil",
                "9",
                "--steps",
                "4",
                "--procs",
                "2x1",
                "--checkpoint-interval",
                "2",
                "--checkpoint-dir",
                ckpt.toString(),
                "--out",
                dir.resolve("o1").toString());
        assertThat(first.code()).as(first.output()).isZero();
        Run other = submit(
                dir.resolve("log2"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "16x16",
                "--stencil",
                "5",
                "--steps",
                "4",
                "--procs",
                "2x1",
                "--checkpoint-interval",
                "2",
                "--checkpoint-dir",
                ckpt.toString(),
                "--out",
                dir.resolve("o2").toString());
        assertThat(other.code()).as(other.output()).isEqualTo(2);
        assertThat(jobLines(other, "heat"))
                .as(other.output())
                .last()
                .asString()
                .startsWith("heat: error: checkpoint directory file:" + ckpt
                        + " belongs to another run: stencil 2D chebyshev depth 1 there,"
                        + " 2D manhattan depth 1 here");
        assertThat(other.output()).doesNotContain("\tat ");
        assertThat(dir.resolve("o2").resolve("field.f64")).doesNotExist();

        // shuffle mode checks the directory the same way, before any work
        Run shuffle = submit(
                dir.resolve("log3"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "16x12",
                "--stencil",
                "9",
                "--steps",
                "4",
                "--procs",
                "2x1",
                "--mode",
                "shuffle",
                "--checkpoint-interval",
                "2",
                "--checkpoint-dir",
                ckpt.toString(),
                "--out",
                dir.resolve("o3").toString());
        assertThat(shuffle.code()).as(shuffle.output()).isEqualTo(2);
        assertThat(jobLines(shuffle, "heat"))
                .as(shuffle.output())
                .last()
                .asString()
                .startsWith("heat: error: checkpoint directory file:" + ckpt
                        + " belongs to another run: grid 16x16 there, 16x12 here");
        assertThat(shuffle.output()).doesNotContain("\tat ");
        assertThat(dir.resolve("o3").resolve("field.f64")).doesNotExist();
    }

    @Test
    void ctrlCPrintsOneLineAndLeavesNothingHalfWritten(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Path log = dir.resolve("log");
        // A process started in the background of a non-interactive shell (as CI may start this build)
        // inherits SIGINT ignored, and the JVM then honours that and installs no handler: the job
        // starts with SIGINT's default disposition, as it has under a terminal (GNU env >= 8.31).
        List<String> cmd = new ArrayList<>(List.of(
                "env",
                "--default-signal=INT",
                "bash",
                JobsIT.ROOT.resolve("bin/layout-submit").toString(),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "64x64",
                "--steps",
                "100000000",
                "--procs",
                "2x1",
                "--out",
                out.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("LAYOUT_CLASSPATH", LaunchedJvms.classPath());
        pb.environment().put("LAYOUT_JAVA_OPTS", "-Xmx1g " + LaunchedJvms.javaOptions());
        pb.environment().put("LAYOUT_PROGRESS", "lines");
        pb.environment().remove("SPARK_HOME");
        Process p = pb.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!Files.readString(log).contains("heat [") && p.isAlive()) {
                assertThat(System.nanoTime())
                        .as("the run started iterating within 3 minutes:%n%s", Files.readString(log))
                        .isLessThan(deadline);
                Thread.onSpinWait();
                p.waitFor(200, TimeUnit.MILLISECONDS);
            }
            assertThat(p.isAlive()).as(Files.readString(log)).isTrue();
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor(10, TimeUnit.SECONDS);
            boolean ended = p.waitFor(2, TimeUnit.MINUTES);
            assertThat(ended)
                    .as("ended after SIGINT; its output:%n%s", Files.readString(log))
                    .isTrue();
            String output = Files.readString(log);
            assertThat(p.exitValue()).as(output).isEqualTo(130);
            assertThat(jobLines(new Run(p.exitValue(), output), "heat"))
                    .as(output)
                    .last()
                    .isEqualTo("heat: interrupted");
            assertThat(output).doesNotContain("\tat ", "Exception");
            File[] left = out.toFile().listFiles();
            assertThat(left).as("no lock, no temporary file, no partial output").isEmpty();
        } finally {
            p.destroyForcibly();
        }
    }

    private static Path write(Path p, String text) throws java.io.IOException {
        Files.writeString(p, text);
        return p;
    }

    /** The lock's name, as the jobs' OutputDirectory spells it. */
    static final class OutputDirectoryNames {
        static final String LOCK = dev.layout.jobs.output.OutputDirectory.LOCK;
    }
}
