package dev.layout.bench;

import dev.layout.cli.LayoutCli;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code layout bench pack --forks N}: the suite run in N JVMs, one after another, and their rows
 * combined (median ratio per row, with the lowest and highest).
 *
 * <p>Why: within one JVM a row's ratio is tight (the interquartile range of its slice pairs is about
 * +-0.005), but JIT compilation differs from JVM to JVM (inlining, unrolling, code placement), and
 * with it a row's ratio: the 3D XZ face rows, where both sides make the same 256 bulk-copy calls,
 * measured 0.87-1.14 per cell over single-JVM runs of unchanged code. One JVM is one draw of that;
 * JMH runs forks for the same reason.
 */
final class PackForks {
    private PackForks() {}

    /** The option a child JVM gets: write its rows to this file (and no RESULTS.md). */
    static final String ROWS_TO = "rows-to";

    /** Longest a child JVM may run (a full suite takes about ten minutes here). */
    static final Duration LIMIT = Duration.ofMinutes(90);

    /** Runs {@code layout bench pack suiteArgs... --rows-to FILE} in {@code forks} child JVMs in turn and combines their rows. */
    static List<PackSuite.Row> run(int forks, List<String> suiteArgs, PrintStream out) throws IOException {
        Path dir = Files.createTempDirectory("layout-bench-pack-");
        try {
            List<List<PackSuite.Row>> all = new ArrayList<>();
            for (int f = 1; f <= forks; f++) {
                Path rows = dir.resolve("jvm-" + f + ".tsv");
                List<String> args = new ArrayList<>(List.of("bench", "pack"));
                args.addAll(suiteArgs);
                args.addAll(List.of("--" + ROWS_TO, rows.toString()));
                List<String> cmd = ChildJvm.command(
                        ChildJvm.inheritedFlags(),
                        System.getProperty("java.class.path"),
                        LayoutCli.class.getName(),
                        args);
                ChildJvm.run(
                        cmd,
                        out,
                        "[JVM " + f + "/" + forks + "] ",
                        LIMIT,
                        "bench pack --forks (JVM " + f + " of " + forks + ")");
                all.add(read(rows));
            }
            return combine(all);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /** {@code args} without {@code --name value} or {@code --name=value}. */
    static List<String> without(String[] args, String name) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--" + name)) {
                i++;
            } else if (!args[i].startsWith("--" + name + "=")) {
                kept.add(args[i]);
            }
        }
        return kept;
    }

    /** One line per row, tab-separated; doubles as Java writes them, so a row reads back exactly. */
    static void write(Path file, List<PackSuite.Row> rows) throws IOException {
        StringBuilder b = new StringBuilder();
        for (PackSuite.Row r : rows) {
            b.append(String.join(
                            "\t",
                            r.test(),
                            r.op(),
                            r.target(),
                            Long.toString(r.bytes()),
                            Double.toString(r.manual()),
                            Double.toString(r.engine()),
                            Double.toString(r.ratio()),
                            Double.toString(r.ceiling()),
                            Long.toString(r.engineAllocPerOp())))
                    .append('\n');
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, b.toString(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The rows {@link #write} wrote. */
    static List<PackSuite.Row> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("bench pack --forks: no rows from the child JVM at " + file, e);
        }
        List<PackSuite.Row> rows = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            if (f.length != 9) {
                throw new IllegalStateException("bench pack --forks: row '" + line + "' in " + file + " has " + f.length
                        + " fields (expected 9)");
            }
            rows.add(new PackSuite.Row(
                    f[0],
                    f[1],
                    f[2],
                    Long.parseLong(f[3]),
                    Double.parseDouble(f[4]),
                    Double.parseDouble(f[5]),
                    Double.parseDouble(f[6]),
                    Double.parseDouble(f[7]),
                    Long.parseLong(f[8])));
        }
        return rows;
    }

    /**
     * One row per row of the runs (which must have measured the same rows in the same order): the
     * medians of manual MB/s, engine MB/s and engine/manual, the lowest and highest engine/manual,
     * the best ceiling and the most engine allocation seen.
     */
    static List<PackSuite.Row> combine(List<List<PackSuite.Row>> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("bench pack --forks: no runs to combine");
        }
        List<PackSuite.Row> first = runs.get(0);
        for (int f = 1; f < runs.size(); f++) {
            List<PackSuite.Row> other = runs.get(f);
            for (int i = 0; i < Math.max(first.size(), other.size()); i++) {
                String a = i < first.size() ? first.get(i).label() : "nothing";
                String b = i < other.size() ? other.get(i).label() : "nothing";
                if (!a.equals(b)) {
                    throw new IllegalStateException("bench pack --forks: row " + (i + 1) + " of JVM " + (f + 1) + " is "
                            + b + ", of JVM 1 " + a + " (expected the same rows from every JVM)");
                }
            }
        }
        List<PackSuite.Row> combined = new ArrayList<>();
        int n = runs.size();
        for (int i = 0; i < first.size(); i++) {
            double[] manual = new double[n];
            double[] engine = new double[n];
            double[] ratio = new double[n];
            double ceiling = 0;
            long alloc = Long.MIN_VALUE;
            for (int f = 0; f < n; f++) {
                PackSuite.Row r = runs.get(f).get(i);
                manual[f] = r.manual();
                engine[f] = r.engine();
                ratio[f] = r.ratio();
                ceiling = Math.max(ceiling, r.ceiling());
                alloc = Math.max(alloc, r.engineAllocPerOp());
            }
            PackSuite.Row r = first.get(i);
            double lo = Arrays.stream(ratio).min().orElseThrow();
            double hi = Arrays.stream(ratio).max().orElseThrow();
            combined.add(new PackSuite.Row(
                    r.test(),
                    r.op(),
                    r.target(),
                    r.bytes(),
                    PackSuite.median(manual),
                    PackSuite.median(engine),
                    PackSuite.median(ratio),
                    ceiling,
                    alloc,
                    lo,
                    hi,
                    n));
        }
        return combined;
    }
}
