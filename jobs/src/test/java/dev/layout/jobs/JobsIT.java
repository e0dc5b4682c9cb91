package dev.layout.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.jobs.heat.SequentialHeat;
import dev.layout.jobs.life.Pbm;
import dev.layout.jobs.life.SequentialLife;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: every job through {@code bin/layout-submit} (embedded SparkSubmit on local[2]), its
 * outputs checked against the sequential references value for value.
 */
@Tag("spark")
class JobsIT {
    static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    record Run(int code, String output) {}

    static Run submit(Path log, String... args) throws Exception {
        return submitWith("-Xmx1g", log, args);
    }

    /** {@link #submit} with the driver JVM's options {@code javaOpts} (e.g. its heap). */
    static Run submitWith(String javaOpts, Path log, String... args) throws Exception {
        return LaunchedJvms.layoutSubmit(javaOpts + " " + LaunchedJvms.javaOptions(), log, args);
    }

    @Test
    void heatBarrierNinePointEqualsTheSequentialField(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Run r = submit(
                dir.resolve("log"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "24x20",
                "--stencil",
                "9",
                "--steps",
                "30",
                "--mode",
                "barrier",
                "--procs",
                "2x1",
                "--out",
                out.toString());
        assertThat(r.code()).as(r.output()).isZero();
        double[] expect = SequentialHeat.run(new int[] {24, 20}, 9, false, null, 30);
        assertThat(RawField.read(out.resolve("field.f64"), 24 * 20)).isEqualTo(expect);
        assertThat(Files.size(out.resolve("field.png"))).isPositive();
        String summary = Files.readString(out.resolve("summary.json"));
        assertThat(summary)
                .contains(
                        "\"min\"",
                        "\"max\"",
                        "\"mean\"",
                        "\"l2\"",
                        "\"steps\": 30",
                        "\"mode\": \"barrier\"",
                        "\"per_iteration_ms\"",
                        "\"bytes_exchanged\"",
                        "\"pack_ms\"",
                        "\"wire_ms\"",
                        "\"compute_ms\"",
                        "\"wall_ms\"",
                        "\"exchange_loop_ms\"");
        // one figure is called wall time (the bar's, summary's wall_ms); the metrics line names its own span
        assertThat(r.output()).containsPattern("exchange loop [0-9.]+ ms").doesNotContain(", wall ");
        // the run's metrics (Spark accumulators) are printed: traffic per iteration and the time split
        assertThat(r.output())
                .containsPattern("heat: iterations 30, messages \\d+ \\([0-9.]+/iter\\), bytes \\d+ \\([0-9.]+/iter\\),"
                        + " pack [0-9.]+ ms, wire [0-9.]+ ms, compute [0-9.]+ ms");
        assertProgressEndsAtTotal(r.output(), "heat", 30);
    }

    /** A life run's board.pbm and summary's live counts are SequentialLife's, generation by generation. */
    static void assertLifeOutputs(Path out, boolean[] initial, int rows, int cols, boolean torus, int steps)
            throws IOException {
        boolean[] b = initial;
        StringBuilder live = new StringBuilder("\"live\": [");
        for (int g = 0; g < steps; g++) {
            b = SequentialLife.step(b, rows, cols, torus);
            live.append(g > 0 ? "," : "").append(SequentialLife.live(b));
        }
        assertThat(Pbm.read(out.resolve("board.pbm")).cells()).isEqualTo(b);
        assertThat(Files.readString(out.resolve("summary.json")))
                .contains(live.append(']').toString());
    }

    /**
     * The driver's bar in plain-line style (stderr is not a terminal here): lines {@code LABEL [#..] i/N
     * RATE it/s  ETA T} with increasing i, then the final line {@code N/N ... done in T}.
     */
    static void assertProgressEndsAtTotal(String output, String label, int total) {
        Matcher m = Pattern.compile("(?m)^" + label + " \\[[#.]{30}\\] (\\d+)/" + total + "  (.*)$")
                .matcher(output);
        List<Integer> counts = new ArrayList<>();
        List<String> tails = new ArrayList<>();
        while (m.find()) {
            counts.add(Integer.parseInt(m.group(1)));
            tails.add(m.group(2));
        }
        assertThat(counts)
                .as("progress lines in:%n%s", output)
                .isNotEmpty()
                .isSorted()
                .doesNotHaveDuplicates()
                .endsWith(total);
        assertThat(tails.get(tails.size() - 1)).matches("[0-9.]+ it/s  done in [0-9.]+s");
        assertThat(tails.subList(0, tails.size() - 1)).allMatch(t -> t.matches("(--|[0-9.]+) it/s  ETA .+"));
    }

    @Test
    void heatShuffleThreeDimensionalFromARawFile(@TempDir Path dir) throws Exception {
        int[] grid = {6, 5, 7};
        double[] init = new double[6 * 5 * 7];
        for (int i = 0; i < init.length; i++) {
            init[i] = (i * 37 % 11) / 10.0;
        }
        Path raw = dir.resolve("init.f64");
        RawField.write(init, raw);
        Path out = dir.resolve("out");
        Run r = submit(
                dir.resolve("log"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "6x5x7",
                "--stencil",
                "27",
                "--steps",
                "4",
                "--mode",
                "shuffle",
                "--procs",
                "2x1x1",
                "--init",
                "raw:" + raw,
                "--periodic",
                "true",
                "--out",
                out.toString());
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(RawField.read(out.resolve("field.f64"), init.length))
                .isEqualTo(SequentialHeat.run(grid, 27, true, init, 4));
        assertProgressEndsAtTotal(r.output(), "heat", 4);
        assertThat(r.output())
                .contains("heat [#######.......................] 1/4", "heat [###############...............] 2/4");
    }

    /**
     * {@code --aggregators 1} reaches the collective read of the {@code raw:} input and the write of
     * {@code field.f64}: a 2.9 MB field split 1x2 (interleaved rows, so written two-phase) has one
     * file domain, where the default (every rank on one host) gives two.
     */
    @Test
    void heatReadsAndWritesWithTheAggregatorsAsked(@TempDir Path dir) throws Exception {
        int[] grid = {600, 600};
        double[] init = new double[600 * 600];
        for (int i = 0; i < init.length; i++) {
            init[i] = (i * 31 % 17) / 16.0;
        }
        Path raw = dir.resolve("init.f64");
        RawField.write(init, raw);
        Path out = dir.resolve("out");
        Run r = submit(
                dir.resolve("log"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "600x600",
                "--stencil",
                "5",
                "--steps",
                "2",
                "--procs",
                "1x2",
                "--aggregators",
                "1",
                "--init",
                "raw:" + raw,
                "--out",
                out.toString());
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(RawField.read(out.resolve("field.f64"), init.length))
                .isEqualTo(SequentialHeat.run(grid, 5, false, init, 2));
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"field_write\": \"two-phase, 1 domain,");
    }

    /** {@code --aggregators 1} reaches the collective write of {@code board.u8} (2.25 MB: two domains by default). */
    @Test
    void lifeWritesWithTheAggregatorsAsked(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Run r = submit(
                dir.resolve("log"),
                "life",
                "--master",
                "local[2]",
                "--grid",
                "1500x1500",
                "--steps",
                "2",
                "--procs",
                "1x2",
                "--aggregators",
                "1",
                "--init",
                "random:3:0.3",
                "--out",
                out.toString());
        assertThat(r.code()).as(r.output()).isZero();
        boolean[] b = SequentialLife.random(1500, 1500, 3, 0.3);
        for (int g = 0; g < 2; g++) {
            b = SequentialLife.step(b, 1500, 1500, true);
        }
        byte[] expected = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            expected[i] = (byte) (b[i] ? 1 : 0);
        }
        assertThat(Files.readAllBytes(out.resolve("board.u8"))).isEqualTo(expected);
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"board_write\": \"two-phase, 1 domain,");
    }

    @Test
    void lifeOnATorusMatchesTheSequentialBoardAndCounts(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Run r = submit(
                dir.resolve("log"),
                "life",
                "--master",
                "local[2]",
                "--grid",
                "20x24",
                "--steps",
                "25",
                "--mode",
                "barrier",
                "--procs",
                "1x2",
                "--init",
                "random:7:0.35",
                "--out",
                out.toString());
        assertThat(r.code()).as(r.output()).isZero();
        assertLifeOutputs(out, SequentialLife.random(20, 24, 7, 0.35), 20, 24, true, 25);
        assertProgressEndsAtTotal(r.output(), "life", 25);
    }

    @Test
    void lifeFromARawPbmReadByTheRanks(@TempDir Path dir) throws Exception {
        // 19 x 27: rows of 4 bytes, blocks that start inside a byte
        boolean[] cells = SequentialLife.random(19, 27, 5, 0.4);
        Path pbm = dir.resolve("board.pbm");
        try (var o = Files.newOutputStream(pbm)) {
            Pbm.writeP4(cells, 19, 27, o);
        }
        Path out = dir.resolve("out");
        Run r = submit(
                dir.resolve("log"),
                "life",
                "--master",
                "local[4]",
                "--steps",
                "12",
                "--procs",
                "2x2",
                "--periodic",
                "false",
                "--init",
                "pbm:" + pbm,
                "--out",
                out.toString());
        assertThat(r.code()).as(r.output()).isZero();
        assertLifeOutputs(out, cells, 19, 27, false, 12);
    }

    @Test
    void lifeBySparseAllreduceMatchesTheSequentialBoardAndCounts(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Run r = submit(
                dir.resolve("log"),
                "life",
                "--master",
                "local[4]",
                "--grid",
                "21x26",
                "--steps",
                "30",
                "--method",
                "allreduce",
                "--procs",
                "2x2",
                "--init",
                "random:11:0.3",
                "--out",
                out.toString());
        assertThat(r.code()).as(r.output()).isZero();
        assertLifeOutputs(out, SequentialLife.random(21, 26, 11, 0.3), 21, 26, true, 30);
        assertThat(Files.readString(out.resolve("summary.json"))).contains("\"method\": \"allreduce\"");
        assertThat(r.output()).contains("life: sparse allreduce: generations 30");
        assertProgressEndsAtTotal(r.output(), "life", 30);
    }

    @Test
    void fileviewReadPrintsStatisticsOfASubarrayAndWritesParquet(@TempDir Path dir) throws Exception {
        double[] a = new double[24 * 20];
        for (int k = 0; k < a.length; k++) {
            a[k] = k * 1.5;
        }
        Path raw = dir.resolve("a.f64");
        RawField.write(a, raw);
        Path parquet = dir.resolve("rows.parquet");
        Run r = submit(
                dir.resolve("log"),
                "fileview-read",
                "--master",
                "local[2]",
                "--file",
                raw.toString(),
                "--etype",
                "float64",
                "--shape",
                "24x20",
                "--view",
                "subarray:4:12,5:15",
                "--out",
                parquet.toString());
        assertThat(r.code()).as(r.output()).isZero();
        // rows 4..11, columns 5..14: min 1.5*(4*20+5), max 1.5*(11*20+14), mean 1.5*(7.5*20+9.5)
        assertThat(r.output())
                .contains(
                        "fileview-read: count 80",
                        "fileview-read: i0 range [4, 11]",
                        "fileview-read: i1 range [5, 14]",
                        "fileview-read: value min 127.5 max 351.0 mean 239.2500000");
        assertThat(parquet.resolve("_SUCCESS")).exists();
        try (var files = Files.list(parquet)) {
            assertThat(files.filter(f -> f.toString().endsWith(".parquet"))).isNotEmpty();
        }
        Run help = submit(dir.resolve("log2"), "fileview-read", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.output()).contains("--file", "--etype", "--disp", "--view", "--out");
        Run bad = submit(
                dir.resolve("log3"),
                "fileview-read",
                "--master",
                "local[2]",
                "--file",
                raw.toString(),
                "--view",
                "subarray:0:4,0:4");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.output()).contains("fileview-read: error: --view subarray:0:4,0:4 needs --shape");
    }

    @Test
    void badOptionsExitWithTwoAndAOneLineMessage(@TempDir Path dir) throws Exception {
        Run r = submit(
                dir.resolve("log"),
                "heat",
                "--master",
                "local[2]",
                "--grid",
                "24x0",
                "--out",
                dir.resolve("o").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.output()).contains("heat: error: --grid 24x0 (expected: every size >= 1)");
        Run unknown = submit(dir.resolve("log2"), "nojob");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.output()).contains("unknown job 'nojob'");
    }

    static {
        if (!new File(ROOT.resolve("jobs/target").toString()).isDirectory()) {
            throw new IllegalStateException(
                    "run from the jobs module (user.dir " + System.getProperty("user.dir") + ")");
        }
    }
}
