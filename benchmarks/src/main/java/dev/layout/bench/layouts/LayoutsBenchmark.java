package dev.layout.bench.layouts;

import dev.layout.bench.Meter;
import dev.layout.bench.PackModes;
import dev.layout.bench.PackSuite;
import dev.layout.bench.memory.Raw;
import dev.layout.bench.memory.Target;
import dev.layout.cli.Options;
import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code layout bench layouts}: the engine against the natural hand loop on application layouts drawn
 * at random ({@link LayoutDraws}), layouts no part of the engine was tuned on. The hand loop is given
 * the layout's contiguous pieces, flattened in advance, and moves each with one bulk copy ({@code
 * copy}) or with 8-byte words and a byte tail ({@code words}); the better of the two counts. Per
 * layout, operation and round, the three run side by side in slices (their order rotating); a row's
 * ratio is the median over rounds of engine MB/s over the better hand loop's; the engine is first warmed until
 * steady, the JIT idle, and at least {@link #WARM_RUNS} runs done. One JVM for all layouts,
 * as in an application that moves many types. The last lines are {@code median engine/hand: X} and
 * {@code min engine/hand: Y (LAYOUT)}; a run without options writes {@code LAYOUTS.md} into the benchmarks module,
 * any other into {@code benchmarks/target/bench-layouts/} (or {@code --out}).
 *
 * <pre>
 *   layout bench layouts [--seed S] [--layouts N] [--bytes B] [--target heap|direct|offheap]
 *                        [--rounds R] [--slice-ms MS] [--out DIR]
 * </pre>
 */
public final class LayoutsBenchmark {
    private LayoutsBenchmark() {}

    /** Least engine runs before a layout's measurement ({@link Meter#warmSteady(Runnable, long, long, long, long)}). */
    static final long WARM_RUNS = 2000;

    /** One measured row: a layout and an operation. */
    record Row(
            int index,
            Datatype type,
            long count,
            long bytes,
            int pieces,
            String op,
            double hand,
            String handLoop,
            double engine,
            double ratio) {}

    public static int run(String[] args, PrintStream out) throws IOException {
        Options o = Options.parse(
                "bench layouts",
                args,
                Set.of("seed", "layouts", "bytes", "target", "rounds", "slice-ms", "out"),
                Set.of("help"));
        if (o.has("help")) {
            out.println(
                    "usage: layout bench layouts [--seed S] [--layouts N] [--bytes B] [--target heap|direct|offheap]"
                            + " [--rounds R] [--slice-ms MS] [--out DIR]");
            out.println(
                    "writes LAYOUTS.md to --out DIR, else to benchmarks/ for a run without options, else to benchmarks/target/bench-layouts/");
            return 0;
        }
        long seed = o.getLong("seed", 1, 0);
        int n = (int) o.getLong("layouts", 48, 1);
        long bytes = o.getLong("bytes", 1 << 18, 64);
        Target target = Target.parse(o.get("target", "heap"));
        int rounds = (int) o.getLong("rounds", 5, 1);
        long slice = o.getLong("slice-ms", 10, 1) * 1_000_000L;
        boolean defaults = args.length == 0; // the committed run; any other writes under target/ unless --out
        out.printf(
                Locale.ROOT,
                "bench layouts: seed %d, %d layouts of about %d packed bytes, %s, %d rounds of %d ms slices%n",
                seed,
                n,
                bytes,
                target.label(),
                rounds,
                slice / 1_000_000);
        out.println("machine: " + Meter.machine() + "; jvm: " + Meter.jvm());
        out.printf(
                Locale.ROOT,
                "%3s %-6s %9s %8s %7s %11s %-5s %11s %8s  %s%n",
                "#",
                "op",
                "bytes",
                "pieces",
                "piece_B",
                "hand_MB/s",
                "hand",
                "engine_MB/s",
                "eng/hand",
                "layout");
        List<Datatype> layouts = LayoutDraws.draw(seed, n);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < layouts.size(); i++) {
            for (Row row : measure(i, layouts.get(i), bytes, target, rounds, slice)) {
                rows.add(row);
                out.printf(
                        Locale.ROOT,
                        "%3d %-6s %9d %8d %7.1f %11.1f %-5s %11.1f %8.2f  %s%n",
                        row.index,
                        row.op,
                        row.bytes,
                        row.pieces,
                        (double) row.bytes / row.pieces,
                        row.hand,
                        row.handLoop,
                        row.engine,
                        row.ratio,
                        abbreviate(row.type.toString(), 100));
            }
        }
        double[] ratios = rows.stream().mapToDouble(Row::ratio).sorted().toArray();
        Row worst =
                rows.stream().min((a, b) -> Double.compare(a.ratio, b.ratio)).orElseThrow();
        long met = rows.stream().filter(r -> r.ratio >= 0.95).count();
        String summary = String.format(
                Locale.ROOT,
                "engine >= 0.95 hand: %d of %d%nmedian engine/hand: %.2f%nmin engine/hand: %.2f (#%d %s %s)",
                met,
                rows.size(),
                median(ratios),
                worst.ratio,
                worst.index,
                worst.op,
                abbreviate(worst.type.toString(), 100));
        Path dir = o.has("out")
                ? Path.of(o.get("out", "."))
                : defaults ? PackModes.resultsDir() : PackModes.resultsDir().resolve("target/bench-layouts");
        Files.createDirectories(dir);
        Path md = dir.resolve("LAYOUTS.md");
        Files.writeString(md, markdown(seed, bytes, target, rounds, slice, rows, summary), StandardCharsets.UTF_8);
        out.println("wrote " + md);
        out.println(summary);
        return 0;
    }

    /** Pack and unpack of one layout, {@code count} of it to about {@code bytes}. */
    static List<Row> measure(int index, Datatype t, long bytes, Target target, int rounds, long slice) {
        long count = Math.max(1, bytes / t.byteSize());
        long packedBytes = t.byteSize() * count;
        long origin = PackModes.origin(t, count);
        long userBytes = PackModes.userBytes(t, count);
        List<Row> rows = new ArrayList<>();
        try (Target.Buf user = target.allocate(userBytes);
                Target.Buf packed = target.allocate(packedBytes)) {
            user.fillPattern();
            Segment seg = Segment.of(t, count, user.memory, origin);
            Pieces hand = Pieces.of(t, count, user.address + origin);
            long[] offs = hand.addresses();
            long[] lens = hand.lengths();
            for (boolean pack : new boolean[] {true, false}) {
                Runnable engine = PackSuite.engine(seg, packed.memory, packedBytes, pack);
                Runnable copy = () -> pieces(user.base, offs, lens, packed.base, packed.address, pack, false);
                Runnable words = () -> pieces(user.base, offs, lens, packed.base, packed.address, pack, true);
                Runnable[] ops = {engine, copy, words};
                Meter.warmSteady(engine, packedBytes, offs.length, slice, WARM_RUNS);
                Meter.warm(packedBytes, slice, 2, copy, words);
                double[] ratio = new double[rounds];
                double[][] mbs = new double[3][rounds];
                for (int r = 0; r < rounds; r++) {
                    for (int k = 0; k < 3; k++) {
                        int op = (k + r) % 3; // which goes first rotates
                        mbs[op][r] = Meter.mbPerSecond(ops[op], packedBytes, slice);
                    }
                    ratio[r] = mbs[0][r] / Math.max(mbs[1][r], mbs[2][r]);
                }
                double copyMb = median(mbs[1].clone());
                double wordsMb = median(mbs[2].clone());
                rows.add(new Row(
                        index,
                        t,
                        count,
                        packedBytes,
                        offs.length,
                        pack ? "pack" : "unpack",
                        Math.max(copyMb, wordsMb),
                        copyMb >= wordsMb ? "copy" : "words",
                        median(mbs[0].clone()),
                        median(ratio)));
            }
        }
        return rows;
    }

    /** A layout's contiguous pieces for the hand loop: their user addresses (from {@code origin}, an address) and lengths. */
    record Pieces(long[] addresses, long[] lengths) {
        static Pieces of(Datatype t, long count, long origin) {
            List<Piece> pieces = Segment.layout(t, count).flatten(Integer.MAX_VALUE);
            long[] at = new long[pieces.size()];
            long[] lens = new long[pieces.size()];
            for (int k = 0; k < at.length; k++) {
                at[k] = origin + pieces.get(k).offset();
                lens[k] = pieces.get(k).length();
            }
            return new Pieces(at, lens);
        }
    }

    /**
     * The hand loop: piece k of {@code lens[k]} bytes at user address {@code offs[k]}, packed back to
     * back from {@code pa}, by one bulk copy each or ({@code words}) by 8-byte words and a byte tail.
     */
    static void pieces(Object ub, long[] offs, long[] lens, Object pb, long pa, boolean pack, boolean words) {
        sun.misc.Unsafe u = Raw.U;
        long p = pa;
        for (int k = 0; k < offs.length; k++) {
            long len = lens[k];
            long a = offs[k];
            if (!words) {
                if (pack) {
                    u.copyMemory(ub, a, pb, p, len);
                } else {
                    u.copyMemory(pb, p, ub, a, len);
                }
            } else {
                long j = 0;
                for (; j + 8 <= len; j += 8) {
                    if (pack) {
                        u.putLong(pb, p + j, u.getLong(ub, a + j));
                    } else {
                        u.putLong(ub, a + j, u.getLong(pb, p + j));
                    }
                }
                for (; j < len; j++) {
                    if (pack) {
                        u.putByte(pb, p + j, u.getByte(ub, a + j));
                    } else {
                        u.putByte(ub, a + j, u.getByte(pb, p + j));
                    }
                }
            }
            p += len;
        }
    }

    private static String markdown(
            long seed, long bytes, Target target, int rounds, long slice, List<Row> rows, String summary) {
        StringBuilder b = new StringBuilder();
        b.append("# Layouts: engine vs the hand loop on drawn application layouts\n\n");
        b.append("Written by `bin/layout bench layouts` on ")
                .append(Instant.now())
                .append(".\n\n");
        b.append("- Machine: ")
                .append(Meter.machine())
                .append("\n- JVM: ")
                .append(Meter.jvm())
                .append('\n');
        b.append(String.format(
                Locale.ROOT,
                "- Layouts: `LayoutDraws`, seed %d, %d layouts, each counted to about %d packed bytes; %s memory; %d rounds of %d ms slices, one JVM.%n",
                seed,
                rows.size() / 2,
                bytes,
                target.label(),
                rounds,
                slice / 1_000_000));
        b.append(
                "- hand: the layout's pieces (flattened in advance) moved one bulk copy each (`copy`) or by 8-byte words and a byte tail (`words`), the better; eng/hand: the median over rounds of the per-round ratio.\n\n");
        for (String line : summary.split("\n")) {
            b.append(line).append("\n\n");
        }
        b.append("| # | op | bytes | pieces | bytes/piece | hand MB/s | hand | engine MB/s | eng/hand |\n");
        b.append("|---:|---|---:|---:|---:|---:|---|---:|---:|\n");
        for (Row r : rows) {
            b.append(String.format(
                    Locale.ROOT,
                    "| %d | %s | %d | %d | %.1f | %.1f | %s | %.1f | %.2f |%n",
                    r.index,
                    r.op,
                    r.bytes,
                    r.pieces,
                    (double) r.bytes / r.pieces,
                    r.hand,
                    r.handLoop,
                    r.engine,
                    r.ratio));
        }
        b.append("\nThe layouts (`#`: notation, count):\n\n");
        for (int i = 0; i < rows.size(); i += 2) {
            Row r = rows.get(i);
            b.append(String.format(Locale.ROOT, "%d. `%s` x%d%n", r.index, r.type, r.count));
        }
        return b.toString();
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }
}
