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
import java.util.List;
import java.util.Set;

/**
 * {@code layout bench sweep [--quick] [--native] [--rounds N] [--budget-min M] [--slice-ms MS] [--out DIR]}:
 * rounds of fresh processes (a JVM, and beside it the native program with {@code --native}), each
 * measuring the items in groups of adjacent slices ({@link JavaSweep}); the samples of all rounds are
 * pooled per item ({@link Samples}) and each ratio is estimated with an interval ({@link Estimate}).
 * After the first {@code --rounds}, the items whose interval straddles a target get further rounds
 * of their own ({@link #nextRound}) while the time budget lasts. Prints the table, writes {@code
 * SWEEP.md} and {@code sweep.png} (into {@code --out}, else the benchmarks module) and ends with the
 * summary lines of {@link SweepReport#summary}.
 */
public final class SweepCommand {
    private SweepCommand() {}

    /** A child JVM's options: write the samples to this file; measure these items (indices into the grid); pairs per item; MPICH's program. */
    static final String SAMPLES_TO = "samples-to";

    static final String ITEMS = "items";
    static final String PAIRS = "pairs";
    static final String PROGRAM = "mpich-program";

    /** Most pairs an item gets: past it a straddling item stays unresolved. */
    static final int MAX_PAIRS = 64;

    public static final String USAGE =
            "usage: layout bench sweep [--quick] [--native] [--rounds N] [--budget-min M] [--slice-ms MS] [--out DIR] [--match REGEX]";

    public static int run(String[] args, PrintStream out, Path module) throws IOException, InterruptedException {
        Options o = Options.parse(
                "bench sweep",
                args,
                Set.of("rounds", "out", "slice-ms", "match", "budget-min", SAMPLES_TO, ITEMS, PAIRS, PROGRAM),
                Set.of("quick", "native", "help"));
        if (o.has("help")) {
            out.println(USAGE);
            out.println("--quick: a subset of the grid; --native: MPICH's MPI_Pack too (needs mpicc: "
                    + NativeSweep.INSTALL
                    + "); --rounds N: rounds over every item, each in fresh processes (default 2);"
                    + " --budget-min M: wall-clock minutes after which no further round starts for the items whose"
                    + " interval straddles a target (default 6 with --quick, else 120); --slice-ms MS: the timed slice"
                    + " (default 8 with --quick, else 20);"
                    + " --match REGEX: only the items of the grid (the quick one with --quick) whose label matches,"
                    + " e.g. 'vector w[1-4] s65536 .* pack'; prints the table and writes no files");
            return 0;
        }
        boolean quick = o.has("quick");
        String match = o.get("match", null);
        List<SweepGrid.Item> items =
                match == null ? SweepGrid.items(quick) : SweepGrid.matching(SweepGrid.items(quick), match);
        long sliceMs = o.getLong("slice-ms", quick ? 8 : 20, 1);
        if (o.has(SAMPLES_TO)) {
            return child(o, items, sliceMs, out);
        }
        int rounds = (int) o.getLong("rounds", 2, 1);
        double budgetS = 60.0 * o.getLong("budget-min", quick ? 6 : 120, 0);
        int firstPairs = quick ? 4 : 6;
        int morePairs = 8;
        boolean mpich = o.has("native");
        Path program = mpich ? NativeSweep.build(module) : null;
        String command = "bin/layout bench sweep" + (quick ? " --quick" : "") + (mpich ? " --native" : "")
                + (match == null ? "" : " --match '" + match + "'")
                + " --rounds " + rounds + (o.has("budget-min") ? " --budget-min " + o.get("budget-min", "") : "")
                + (o.has("slice-ms") ? " --slice-ms " + sliceMs : "");
        out.println(command + ": " + items.size() + " items; " + Meter.machine() + "; " + Meter.jvm());
        long start = System.nanoTime();
        List<Samples> pooled = new ArrayList<>(java.util.Collections.nCopies(items.size(), (Samples) null));
        List<Integer> all =
                java.util.stream.IntStream.range(0, items.size()).boxed().toList();
        double secondsPerItem = 0;
        int round = 0;
        List<Integer> next = all;
        while (!next.isEmpty()) {
            round++;
            int pairs = round <= rounds ? firstPairs : morePairs;
            out.println("round " + round + ": " + next.size() + " items, " + pairs + " pairs each (fresh JVM"
                    + (mpich ? " and native process" : "") + ")");
            long t0 = System.nanoTime();
            List<Samples> got = childJvm(quick, match, sliceMs, next, pairs, program, out, round);
            secondsPerItem = (System.nanoTime() - t0) / 1e9 / next.size();
            for (int k = 0; k < next.size(); k++) {
                int i = next.get(k);
                pooled.set(i, pooled.get(i) == null ? got.get(k) : pooled.get(i).plus(got.get(k)));
            }
            if (round < rounds) {
                continue;
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            int room = (int) Math.floor((budgetS - elapsed) / secondsPerItem);
            next = nextRound(pooled, mpich, MAX_PAIRS, room);
        }
        List<SweepReport.Row> rows = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            rows.add(pooled.get(i).row(items.get(i)));
        }
        String method = round + " (" + rounds + " over every item, " + firstPairs + " pairs each; then "
                + (round - rounds)
                + " over the items still straddling a target, " + morePairs
                + " pairs each, while the budget of " + (long) (budgetS / 60) + " min lasted; "
                + String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - start) / 60e9) + " min in all)";
        out.println("rounds: " + method);
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
        SweepReport.write(dir, rows, command, mpich ? NativeSweep.version() : "", method);
        out.println("wrote " + dir.resolve(SweepReport.MARKDOWN) + " and " + dir.resolve(SweepReport.CHART));
        for (String s : SweepReport.summary(rows)) {
            out.println(s);
        }
        return 0;
    }

    /**
     * The adaptive stop rule: the items (indices) to measure in the next round, those whose interval
     * still straddles a target (engine/hand 0.95; engine/MPICH 1.0 when measured) and that have had
     * fewer than {@code maxPairs} pairs, fewest pairs first, at most {@code room} of them (what the
     * time budget leaves; none when it is spent).
     */
    static List<Integer> nextRound(List<Samples> pooled, boolean mpich, int maxPairs, int room) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < pooled.size(); i++) {
            Samples s = pooled.get(i);
            boolean open = s.vsHand().against(SweepReport.HAND_TARGET) == Estimate.Status.UNRESOLVED
                    || (mpich && s.vsMpich().against(SweepReport.MPICH_TARGET) == Estimate.Status.UNRESOLVED);
            if (open && s.pairs() < maxPairs) {
                out.add(i);
            }
        }
        out.sort(java.util.Comparator.comparingInt(i -> pooled.get(i).pairs()));
        return out.subList(0, Math.max(0, Math.min(room, out.size())));
    }

    /** In the child JVM: one round over the items given, the samples written to the file given. */
    private static int child(Options o, List<SweepGrid.Item> items, long sliceMs, PrintStream out)
            throws IOException, InterruptedException {
        List<SweepGrid.Item> mine = new ArrayList<>();
        for (String i : o.get(ITEMS, "").split(",")) {
            mine.add(items.get(Integer.parseInt(i)));
        }
        int pairs = (int) o.getLong(PAIRS, 4, 1);
        String program = o.get(PROGRAM, null);
        List<Samples> got;
        if (program == null) {
            got = new JavaSweep(sliceMs * 1_000_000L, pairs, null).run(mine, out);
        } else {
            try (NativeSweep.Server mpich = new NativeSweep.Server(Path.of(program))) {
                got = new JavaSweep(sliceMs * 1_000_000L, pairs, mpich).run(mine, out);
            }
        }
        List<String> lines = new ArrayList<>();
        for (Samples s : got) {
            lines.add(s.tsv());
        }
        Files.write(Path.of(o.get(SAMPLES_TO, null)), lines, StandardCharsets.UTF_8);
        return 0;
    }

    private static List<Samples> childJvm(
            boolean quick,
            String match,
            long sliceMs,
            List<Integer> items,
            int pairs,
            Path program,
            PrintStream out,
            int round)
            throws IOException {
        Path file = Files.createTempFile("layout-sweep-samples-", ".tsv");
        try {
            List<String> args = new ArrayList<>(List.of(
                    "bench",
                    "sweep",
                    "--" + SAMPLES_TO,
                    file.toString(),
                    "--slice-ms",
                    "" + sliceMs,
                    "--" + PAIRS,
                    "" + pairs,
                    "--" + ITEMS,
                    items.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))));
            if (quick) {
                args.add("--quick");
            }
            if (match != null) {
                args.addAll(List.of("--match", match));
            }
            if (program != null) {
                args.addAll(List.of("--" + PROGRAM, program.toString()));
            }
            List<String> cmd = ChildJvm.command(
                    ChildJvm.inheritedFlags(), System.getProperty("java.class.path"), LayoutCli.class.getName(), args);
            ChildJvm.run(
                    cmd, out, "[JVM " + round + "] ", Duration.ofHours(2), "bench sweep (JVM of round " + round + ")");
            List<Samples> list = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                list.add(Samples.parse(line));
            }
            if (list.size() != items.size()) {
                throw new IllegalStateException("bench sweep: round " + round + " returned " + list.size()
                        + " items (expected: " + items.size() + ")");
            }
            return list;
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
