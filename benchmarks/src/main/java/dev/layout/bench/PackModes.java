package dev.layout.bench;

import dev.layout.bench.memory.Raw;
import dev.layout.bench.memory.Target;
import dev.layout.cli.Options;
import dev.layout.dataloop.RossCase;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutParser;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code layout bench type} and {@code layout bench pack}: the modes that measure the pack engine in
 * this JVM ({@link dev.layout.bench.cli.BenchCommand} dispatches to them).
 *
 * <ul>
 *   <li>{@code layout bench type --type "<notation>" | --type-file PATH [--count N] [--target
 *       heap|direct|offheap] [--seconds S]}: pack and unpack MB/s of one type and the bulk-copy
 *       ceiling for the same bytes; the last three lines are {@code pack MB/s: X}, {@code unpack
 *       MB/s: Y}, {@code copy MB/s: Z}.
 *   <li>{@code layout bench pack [--quick] [--case NAME,...] [--out DIR]}: the Ross et al. suite and
 *       the application layouts ({@link RossCase}), engine vs hand-written loops; prints a table whose
 *       last line is {@code min engine/manual: X.XX (TEST)} and writes {@code RESULTS.md} and {@code
 *       results.png} into the benchmarks module (or {@code --out}); a {@code --quick} run or a subset
 *       writes them under {@code benchmarks/target/bench-pack/}, never over the committed full run.
 * </ul>
 */
public final class PackModes {
    private PackModes() {}

    /** Reads {@code --type} or {@code --type-file} (exactly one of them). */
    static Datatype typeOption(String command, Options o) throws IOException {
        if (o.has("type") == o.has("type-file")) {
            throw new IllegalArgumentException(
                    command + ": give exactly one of --type \"<layout notation>\" or --type-file PATH");
        }
        String text = o.has("type")
                ? o.get("type", null)
                : Files.readString(Path.of(o.get("type-file", null)), StandardCharsets.UTF_8);
        return LayoutParser.parse(text.strip());
    }

    public static int type(String[] args, PrintStream out) throws IOException {
        Options o = Options.parse(
                "bench type", args, Set.of("type", "type-file", "count", "target", "seconds"), Set.of("help"));
        if (o.has("help")) {
            out.println(
                    "usage: layout bench type --type \"<layout notation>\" | --type-file PATH [--count N] [--target heap|direct|offheap] [--seconds S]");
            return 0;
        }
        Datatype t = typeOption("bench type", o);
        long count = o.getLong("count", 1, 1);
        Target target = Target.parse(o.get("target", "heap"));
        long seconds = o.getLong("seconds", 1, 1);
        long packedBytes = Math.multiplyExact(t.byteSize(), count);
        if (packedBytes == 0) {
            throw new IllegalArgumentException("bench type: the type has no data (expected: a type of size > 0)");
        }
        long origin = origin(t, count);
        long userBytes = userBytes(t, count);
        out.println("type: " + abbreviate(t.toString()));
        out.println("count: " + count + ", packed bytes: " + packedBytes + ", buffer: " + userBytes
                + " bytes at origin " + origin + ", target: " + target.label());
        out.println("machine: " + Meter.machine() + "; jvm: " + Meter.jvm());
        try (Target.Buf user = target.allocate(userBytes);
                Target.Buf packed = target.allocate(packedBytes)) {
            user.fillPattern();
            Segment seg = Segment.of(t, count, user.memory, origin);
            Runnable pack = PackSuite.engine(seg, packed.memory, packedBytes, true);
            Runnable unpack = PackSuite.engine(seg, packed.memory, packedBytes, false);
            Runnable copy = () -> Raw.U.copyMemory(user.base, user.address, packed.base, packed.address, packedBytes);
            long budget = seconds * 1_000_000_000L;
            Meter.mbPerSecond(pack, packedBytes, budget / 4);
            Meter.mbPerSecond(unpack, packedBytes, budget / 4);
            Meter.mbPerSecond(copy, packedBytes, budget / 8);
            double p = 0;
            double u = 0;
            double c = 0;
            for (int i = 0; i < 3; i++) {
                p = Math.max(p, Meter.mbPerSecond(pack, packedBytes, budget / 3));
                u = Math.max(u, Meter.mbPerSecond(unpack, packedBytes, budget / 3));
                c = Math.max(c, Meter.mbPerSecond(copy, packedBytes, budget / 6));
            }
            out.println("engine allocation per pack: " + Meter.allocatedPerRun(pack, 10) + " bytes");
            out.printf(Locale.ROOT, "pack MB/s: %.1f%n", p);
            out.printf(Locale.ROOT, "unpack MB/s: %.1f%n", u);
            out.printf(Locale.ROOT, "copy MB/s: %.1f%n", c);
        }
        return 0;
    }

    /** Where the origin of {@code count} elements of {@code t} lies in a buffer that holds them all from byte 0 (any negative lower bound). */
    public static long origin(Datatype t, long count) {
        return -Math.min(0, t.trueLb() + Math.min(0, Math.multiplyExact(count - 1, t.extent())));
    }

    /** The bytes of a buffer that holds {@code count} elements of {@code t} from byte 0, the origin at {@link #origin}. */
    public static long userBytes(Datatype t, long count) {
        long span = Math.multiplyExact(count - 1, t.extent());
        return origin(t, count) + Math.max(0, t.trueUb() + Math.max(0, span));
    }

    public static int pack(String[] args, PrintStream out) throws IOException {
        Options o = Options.parse(
                "bench pack",
                args,
                Set.of("case", "target", "out", "trials", "slice-ms", "forks", PackForks.ROWS_TO),
                Set.of("quick", "help"));
        if (o.has("help")) {
            out.println(
                    "usage: layout bench pack [--quick] [--case NAME,...] [--target heap,direct,offheap] [--trials N] [--slice-ms MS] [--forks N] [--out DIR]");
            out.println(
                    "writes RESULTS.md and results.png to --out DIR, else benchmarks/ (benchmarks/target/bench-pack/ for --quick and --case or --target subsets)");
            out.println(
                    "--forks N: run the suite in N JVMs one after another; each row is then the median over them, with their lowest and highest engine/manual");
            out.println("cases: " + Arrays.toString(RossCase.values()));
            return 0;
        }
        int forks = (int) o.getLong("forks", 1, 1);
        if (forks > 1 && o.has(PackForks.ROWS_TO)) {
            throw new IllegalArgumentException("bench pack: --forks " + forks + " with --" + PackForks.ROWS_TO
                    + " (expected one of them: --" + PackForks.ROWS_TO + " is how a fork reports to its parent)");
        }
        boolean quick = o.has("quick");
        List<RossCase> cases = o.has("case")
                ? Arrays.stream(o.get("case", "").split(","))
                        .map(s -> parseCase(s.trim()))
                        .toList()
                : List.of(RossCase.values());
        List<Target> targets = o.has("target")
                ? Arrays.stream(o.get("target", "").split(","))
                        .map(s -> Target.parse(s.trim()))
                        .toList()
                : quick ? List.of(Target.HEAP, Target.OFFHEAP) : List.of(Target.HEAP, Target.DIRECT, Target.OFFHEAP);
        int trials = (int) o.getLong("trials", quick ? 3 : 6, 1);
        long slice = o.getLong("slice-ms", quick ? 100 : 200, 1) * 1_000_000L;
        out.println("bench pack" + (quick ? " --quick" : "") + (forks > 1 ? " --forks " + forks : "") + ": "
                + Meter.machine() + "; " + Meter.jvm());
        List<PackSuite.Row> rows;
        if (forks > 1) {
            rows = PackForks.run(forks, PackForks.without(args, "forks"), out);
            out.println("combined over " + forks + " JVMs (median; lowest-highest):");
            out.println(PackSuite.header());
            for (PackSuite.Row r : rows) {
                out.println(PackSuite.format(r));
            }
        } else {
            rows = new PackSuite(targets, quick ? 150_000_000L : 400_000_000L, slice, trials).run(cases, out);
        }
        if (o.has(PackForks.ROWS_TO)) {
            PackForks.write(Path.of(o.get(PackForks.ROWS_TO, null)), rows);
        } else {
            // A quick run or a subset (--case or --target) never replaces the committed full-suite results and their
            // notes.
            boolean subset = quick || o.has("case") || o.has("target");
            Path dir = o.has("out")
                    ? Path.of(o.get("out", "."))
                    : subset ? resultsDir().resolve("target").resolve("bench-pack") : resultsDir();
            Results.write(dir, rows, quick ? "quick" : "full");
            out.println("wrote " + dir.resolve(Results.MARKDOWN) + " and " + dir.resolve(Results.CHART));
        }
        PackSuite.Row w = PackSuite.worst(rows);
        if (forks > 1) {
            PackSuite.Row low = rows.stream()
                    .min(java.util.Comparator.comparingDouble(PackSuite.Row::ratioLow))
                    .orElseThrow();
            out.printf(Locale.ROOT, "lowest single-JVM engine/manual: %.2f (%s)%n", low.ratioLow(), low.label());
        }
        out.printf(Locale.ROOT, "min engine/manual: %.2f (%s)%n", w.ratio(), w.label());
        return 0;
    }

    private static RossCase parseCase(String s) {
        for (RossCase c : RossCase.values()) {
            if (c.name().equalsIgnoreCase(s) || c.title().equalsIgnoreCase(s)) {
                return c;
            }
        }
        throw new IllegalArgumentException(
                "bench pack: --case " + s + " (expected one of: " + Arrays.toString(RossCase.values()) + ")");
    }

    /** The benchmarks module directory (found from where this class was loaded), else the working directory. */
    public static Path resultsDir() {
        try {
            Path loc = Path.of(PackModes.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            // benchmarks/target/classes or benchmarks/target/benchmarks.jar
            Path module = loc.getParent() == null ? null : loc.getParent().getParent();
            if (module != null
                    && Files.exists(module.resolve("pom.xml"))
                    && module.getFileName().toString().equals("benchmarks")) {
                return module;
            }
        } catch (Exception e) {
            // fall through
        }
        Path cwd = Path.of("").toAbsolutePath();
        return Files.isDirectory(cwd.resolve("benchmarks")) ? cwd.resolve("benchmarks") : cwd;
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 197) + "...";
    }
}
