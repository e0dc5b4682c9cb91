package dev.layout.bench.sweep;

import dev.layout.bench.ChildJvm;
import dev.layout.bench.Meter;
import dev.layout.cli.LayoutCli;
import dev.layout.cli.Options;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * {@code layout bench sweep [--quick] [--native] [--rounds N] [--slice-ms MS] [--out DIR]}: per round, the native
 * sweep (with {@code --native}) and then the Java sweep in a fresh JVM; per item the median over
 * rounds. Prints the table, writes {@code SWEEP.md} and {@code sweep.png} (into {@code --out}, else
 * the benchmarks module) and ends with the two summary lines of {@link SweepReport#summary}.
 */
public final class SweepCommand {
    private SweepCommand() {}

    /** A child JVM's option: measure the Java side here and write the rows to this file. */
    static final String ROWS_TO = "rows-to";

    public static final String USAGE =
            "usage: layout bench sweep [--quick] [--native] [--rounds N] [--slice-ms MS] [--out DIR] [--match REGEX]";

    public static int run(String[] args, PrintStream out, Path module) throws IOException, InterruptedException {
        Options o = Options.parse(
                "bench sweep",
                args,
                Set.of("rounds", "out", "slice-ms", "match", ROWS_TO),
                Set.of("quick", "native", "help"));
        if (o.has("help")) {
            out.println(USAGE);
            out.println(
                    "--quick: a subset of the grid (about a minute per round); --native: MPICH's MPI_Pack too (needs mpicc: "
                            + NativeSweep.INSTALL
                            + "); --rounds N: fresh processes per side, alternating (default 1 with --quick, else 2); --slice-ms MS: the timed slice"
                            + " (default 8 with --quick, else 20; the full grid with 8 takes about a third of the time);"
                            + " --match REGEX: only the items of the grid (the quick one with --quick) whose label matches,"
                            + " e.g. 'vector w[1-4] s65536 .* pack'; prints the table and writes no files");
            return 0;
        }
        boolean quick = o.has("quick");
        String match = o.get("match", null);
        List<SweepGrid.Item> items =
                match == null ? SweepGrid.items(quick) : SweepGrid.matching(SweepGrid.items(quick), match);
        long sliceMs = o.getLong("slice-ms", quick ? 8 : 20, 1);
        int pairs = quick ? 4 : 6;
        int nativeSlices = quick ? 3 : 5;
        if (o.has(ROWS_TO)) {
            List<SweepReport.Row> rows = new JavaSweep(sliceMs * 1_000_000L, pairs).run(items, out);
            List<String> lines = new ArrayList<>();
            for (SweepReport.Row r : rows) {
                lines.add(SweepReport.tsv(r));
            }
            Files.write(Path.of(o.get(ROWS_TO, null)), lines, StandardCharsets.UTF_8);
            return 0;
        }
        int rounds = (int) o.getLong("rounds", quick ? 1 : 2, 1);
        boolean mpich = o.has("native");
        Path program = mpich ? NativeSweep.build(module) : null;
        List<SweepPoint> points = SweepGrid.points(items);
        String command = "bin/layout bench sweep" + (quick ? " --quick" : "") + (mpich ? " --native" : "")
                + (match == null ? "" : " --match '" + match + "'")
                + " --rounds " + rounds + (o.has("slice-ms") ? " --slice-ms " + sliceMs : "");
        out.println(command + ": " + items.size() + " items, " + points.size() + " layouts; " + Meter.machine() + "; "
                + Meter.jvm());
        // Timed slices per item: engine warm-up 2 to 12 (until steady), hand loops' warm-up 2 x 3, picking the hand
        // loop 3, then the pairs;
        // natively, per layout and direction one untimed slice and the timed ones.
        double minutes = rounds
                * sliceMs
                * (items.size() * (11.0 + 2 * pairs) + (mpich ? points.size() * 2.0 * (1 + nativeSlices) : 0))
                / 60_000;
        out.printf(
                java.util.Locale.ROOT,
                "measuring: about %.0f min of CPU time (more on a loaded machine: buffers, JIT and other work come on top)%n",
                minutes);
        List<List<SweepReport.Row>> javaRounds = new ArrayList<>();
        List<List<NativeSweep.Speeds>> nativeRounds = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            if (mpich) {
                out.println("round " + r + "/" + rounds + ": MPICH (native process)");
                nativeRounds.add(NativeSweep.run(program, points, sliceMs, nativeSlices));
            }
            out.println("round " + r + "/" + rounds + ": engine and hand loops (fresh JVM)");
            javaRounds.add(childJvm(quick, match, sliceMs, out, r));
        }
        List<SweepReport.Row> rows = combine(items, points, javaRounds, nativeRounds);
        out.println(SweepReport.header(mpich));
        for (SweepReport.Row row : rows) {
            out.println(SweepReport.format(row, mpich));
        }
        if (match != null) {
            for (String s : SweepReport.summary(rows)) {
                out.println(s);
            }
            return 0;
        }
        Path dir = o.has("out") ? Path.of(o.get("out", ".")) : module;
        SweepReport.write(dir, rows, command, mpich ? NativeSweep.version() : "", rounds);
        out.println("wrote " + dir.resolve(SweepReport.MARKDOWN) + " and " + dir.resolve(SweepReport.CHART));
        for (String s : SweepReport.summary(rows)) {
            out.println(s);
        }
        return 0;
    }

    /** Per item, the medians over rounds of the Java rows, joined with MPICH's median for its layout and direction. */
    static List<SweepReport.Row> combine(
            List<SweepGrid.Item> items,
            List<SweepPoint> points,
            List<List<SweepReport.Row>> javaRounds,
            List<List<NativeSweep.Speeds>> nativeRounds) {
        List<SweepReport.Row> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            SweepGrid.Item item = items.get(i);
            int k = i;
            List<SweepReport.Row> mine = javaRounds.stream().map(l -> l.get(k)).toList();
            SweepReport.Row first = mine.get(0);
            if (!first.point().equals(item.point()) || !first.op().equals(item.op())) {
                throw new IllegalStateException(
                        "bench sweep: row " + i + " is " + first.label() + " (expected: " + item.label() + ")");
            }
            double mpich = Double.NaN;
            if (!nativeRounds.isEmpty()) {
                int p = points.indexOf(item.point());
                mpich = median(nativeRounds.stream()
                        .mapToDouble(
                                l -> item.pack() ? l.get(p).pack() : l.get(p).unpack())
                        .toArray());
            }
            out.add(new SweepReport.Row(
                    item.point(),
                    first.target(),
                    first.op(),
                    median(mine.stream().mapToDouble(SweepReport.Row::hand).toArray()),
                    first.handKind(),
                    median(mine.stream().mapToDouble(SweepReport.Row::engine).toArray()),
                    median(mine.stream().mapToDouble(SweepReport.Row::ratio).toArray()),
                    mine.stream().mapToLong(SweepReport.Row::alloc).max().orElse(0),
                    mpich));
        }
        return out;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int h = s.length / 2;
        return s.length % 2 == 1 ? s[h] : (s[h - 1] + s[h]) / 2;
    }

    private static List<SweepReport.Row> childJvm(boolean quick, String match, long sliceMs, PrintStream out, int round)
            throws IOException {
        Path rows = Files.createTempFile("layout-sweep-rows-", ".tsv");
        try {
            List<String> args = new ArrayList<>(
                    List.of("bench", "sweep", "--" + ROWS_TO, rows.toString(), "--slice-ms", "" + sliceMs));
            if (quick) {
                args.add("--quick");
            }
            if (match != null) {
                args.addAll(List.of("--match", match));
            }
            List<String> cmd = ChildJvm.command(
                    ChildJvm.inheritedFlags(), System.getProperty("java.class.path"), LayoutCli.class.getName(), args);
            ChildJvm.run(
                    cmd, out, "[JVM " + round + "] ", Duration.ofHours(2), "bench sweep (JVM of round " + round + ")");
            List<SweepReport.Row> list = new ArrayList<>();
            for (String line : Files.readAllLines(rows, StandardCharsets.UTF_8)) {
                list.add(SweepReport.parse(line));
            }
            return list;
        } finally {
            Files.deleteIfExists(rows);
        }
    }
}
