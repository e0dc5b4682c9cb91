package dev.layout.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.bench.cli.BenchCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench pack --forks}: rows to and from a fork, their combination, and a real run in two child JVMs. */
class PackForksTest {
    private static PackSuite.Row row(
            String test, String target, double manual, double engine, double ratio, double ceiling, long alloc) {
        return new PackSuite.Row(test, "pack", target, 4096, manual, engine, ratio, ceiling, alloc);
    }

    @Test
    void rowsReadBackExactly(@TempDir Path dir) throws Exception {
        List<PackSuite.Row> rows = List.of(
                row("3D XZ face(float32)", "offheap", 41451.0123456789, 40984.7, 1.0 / 3, 53033.6, 0),
                row("Struct Array", "heap", 1e-9, 7.25e12, 0.9499999999, 1, -1));
        Path f = dir.resolve("rows.tsv");
        PackForks.write(f, rows);
        assertThat(PackForks.read(f)).isEqualTo(rows);
    }

    @Test
    void aBrokenRowFileIsNamed(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("rows.tsv");
        Files.writeString(f, "Contig(float32)\tpack\theap\t4\n");
        assertThatThrownBy(() -> PackForks.read(f))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("4 fields (expected 9)")
                .hasMessageContaining(f.toString());
        assertThatThrownBy(() -> PackForks.read(dir.resolve("missing.tsv")))
                .hasMessageContaining("no rows from the child JVM");
    }

    @Test
    void combinedRowsAreMediansWithTheirRange() {
        List<PackSuite.Row> a =
                List.of(row("A", "heap", 100, 90, 0.90, 500, 0), row("B", "offheap", 10, 20, 2.0, 50, 0));
        List<PackSuite.Row> b =
                List.of(row("A", "heap", 300, 330, 1.10, 700, 16), row("B", "offheap", 30, 60, 2.2, 40, 0));
        List<PackSuite.Row> c =
                List.of(row("A", "heap", 200, 190, 0.97, 600, 0), row("B", "offheap", 20, 30, 1.5, 45, 0));
        List<PackSuite.Row> rows = PackForks.combine(List.of(a, b, c));
        assertThat(rows).hasSize(2);
        PackSuite.Row r = rows.get(0);
        assertThat(r.label()).isEqualTo("A pack heap");
        assertThat(r.manual()).isEqualTo(200);
        assertThat(r.engine()).isEqualTo(190);
        assertThat(r.ratio()).isEqualTo(0.97);
        assertThat(r.ratioLow()).isEqualTo(0.90);
        assertThat(r.ratioHigh()).isEqualTo(1.10);
        assertThat(r.ceiling()).isEqualTo(700);
        assertThat(r.engineAllocPerOp()).isEqualTo(16);
        assertThat(r.forks()).isEqualTo(3);
        assertThat(rows.get(1).ratio()).isEqualTo(2.0);
        assertThat(rows.get(1).ceiling()).isEqualTo(50);
        assertThat(PackSuite.format(r)).endsWith("0.90-1.10 over 3 JVMs");
        // An allocation the JVM could not measure (-1) stays -1 when no JVM measured it.
        assertThat(PackForks.combine(List.of(
                                List.of(row("A", "heap", 1, 1, 1, 1, -1)), List.of(row("A", "heap", 1, 1, 1, 1, -1))))
                        .get(0)
                        .engineAllocPerOp())
                .isEqualTo(-1);
    }

    @Test
    void runsWithDifferentRowsDoNotCombine() {
        List<PackSuite.Row> a = List.of(row("A", "heap", 1, 1, 1, 1, 0), row("B", "heap", 1, 1, 1, 1, 0));
        List<PackSuite.Row> b = List.of(row("A", "heap", 1, 1, 1, 1, 0), row("C", "heap", 1, 1, 1, 1, 0));
        assertThatThrownBy(() -> PackForks.combine(List.of(a, b)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("row 2 of JVM 2 is C pack heap, of JVM 1 B pack heap");
        assertThatThrownBy(() -> PackForks.combine(List.of(a, a.subList(0, 1))))
                .hasMessageContaining("row 2 of JVM 2 is nothing");
        assertThatThrownBy(() -> PackForks.combine(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void forksOptionIsLeftOutOfTheChildArguments() {
        assertThat(PackForks.without(new String[] {"--case", "X", "--forks", "3", "--quick"}, "forks"))
                .containsExactly("--case", "X", "--quick");
        assertThat(PackForks.without(new String[] {"--forks=3", "--out", "d"}, "forks"))
                .containsExactly("--out", "d");
        assertThat(PackForks.without(new String[] {"--forksy", "1"}, "forks")).containsExactly("--forksy", "1");
    }

    @Test
    void forksWithRowsToIsRefused() {
        assertThatThrownBy(() -> new BenchCommand()
                        .run(new String[] {"pack", "--forks", "2", "--rows-to", "x.tsv"}, System.out, System.err))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--forks 2 with --rows-to");
    }

    @Test
    @Tag("integration")
    void aRunInTwoJvmsWritesCombinedResults(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int rc = new BenchCommand()
                .run(
                        new String[] {
                            "pack",
                            "--quick",
                            "--case",
                            "CONTIG_F32",
                            "--target",
                            "offheap",
                            "--trials",
                            "1",
                            "--slice-ms",
                            "5",
                            "--forks",
                            "2",
                            "--out",
                            dir.toString()
                        },
                        new PrintStream(buf, true, StandardCharsets.UTF_8),
                        System.err);
        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(rc).isZero();
        assertThat(out).contains("[JVM 1/2] ", "[JVM 2/2] ", "combined over 2 JVMs", "over 2 JVMs");
        String[] lines = out.strip().split("\n");
        assertThat(lines[lines.length - 1])
                .matches("min engine/manual: [0-9]+\\.[0-9]{2} \\(Contig\\(float32\\) (pack|unpack) offheap\\)");
        assertThat(lines[lines.length - 2]).startsWith("lowest single-JVM engine/manual: ");
        String md = Files.readString(dir.resolve(Results.MARKDOWN));
        assertThat(md)
                .contains(
                        "--forks 2",
                        "median over 2 JVMs",
                        "| lowest-highest |",
                        "| Contig(float32) | unpack | offheap |");
        assertThat(Files.size(dir.resolve(Results.CHART))).isPositive();
        // The children wrote their rows to the parent's temporary files, not results of their own.
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder(Results.MARKDOWN, Results.CHART);
        }
    }
}
