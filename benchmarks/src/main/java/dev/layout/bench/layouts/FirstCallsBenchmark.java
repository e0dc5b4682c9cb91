package dev.layout.bench.layouts;

import dev.layout.bench.Meter;
import dev.layout.bench.PackModes;
import dev.layout.bench.memory.Target;
import dev.layout.cli.Options;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code layout bench first-calls}: what the engine's first calls on a layout cost, against a hand
 * loop that is already compiled. Where {@code bench layouts} measures the steady state, this measures a
 * layout the JVM has not met before, as an executor meets a new type: per drawn layout ({@link
 * LayoutDraws}), the segment is made, then the engine packs and unpacks the whole count {@code --calls}
 * times, each call timed on its own and followed by the same move through the hand loop (one bulk copy
 * per piece, {@link LayoutsBenchmark#pieces}), which is one method for every layout and so is compiled
 * after the first few. Calls are summed in buckets (call 1, 2-10, 11-100, 101-1000, the rest); a bucket's
 * ratio is hand time over engine time (above 1: the engine is faster). The summary counts the layouts
 * from {@code --skip} on, by which the engine's shared code is compiled too, so that what is left is the
 * cost of what the engine makes per layout (its plan, generated kernels and per-width loops, until the
 * JIT has compiled them). The engine's time includes making the segment. A run without options writes
 * {@code FIRST-CALLS.md} into the benchmarks module, any other into {@code
 * benchmarks/target/bench-first-calls/} (or {@code --out}).
 *
 * <pre>
 *   layout bench first-calls [--seed S] [--layouts N] [--bytes B] [--calls C] [--skip K]
 *                            [--target heap|direct|offheap] [--out DIR]
 * </pre>
 */
public final class FirstCallsBenchmark {
    private FirstCallsBenchmark() {}

    /** The first call of each bucket (0-based), and where the last bucket ends: the calls asked for. */
    static long[] buckets(long calls) {
        long[] edges = {0, 1, 10, 100, 1000};
        int n = 0;
        while (n < edges.length && edges[n] < calls) {
            n++;
        }
        long[] b = java.util.Arrays.copyOf(edges, n + 1);
        b[n] = calls;
        return b;
    }

    /** One layout's times: per op (0 pack, 1 unpack) and bucket, the engine's and the hand loop's nanoseconds. */
    record Times(int index, Datatype type, long count, long bytes, long makeNanos, long[][] engine, long[][] hand) {}

    public static int run(String[] args, PrintStream out) throws IOException {
        Options o = Options.parse(
                "bench first-calls",
                args,
                Set.of("seed", "layouts", "bytes", "calls", "skip", "target", "out"),
                Set.of("help"));
        if (o.has("help")) {
            out.println("usage: layout bench first-calls [--seed S] [--layouts N] [--bytes B] [--calls C] [--skip K]"
                    + " [--target heap|direct|offheap] [--out DIR]");
            out.println(
                    "writes FIRST-CALLS.md to --out DIR, else to benchmarks/ for a run without options, else to benchmarks/target/bench-first-calls/");
            return 0;
        }
        long seed = o.getLong("seed", 1, 0);
        int n = (int) o.getLong("layouts", 48, 1);
        long bytes = o.getLong("bytes", 1 << 18, 64);
        long calls = o.getLong("calls", 3000, 1);
        int skip = (int) Math.min(o.getLong("skip", 8, 0), n - 1);
        Target target = Target.parse(o.get("target", "heap"));
        boolean defaults = args.length == 0;
        long[] edges = buckets(calls);
        String header = String.format(
                Locale.ROOT,
                "bench first-calls: seed %d, %d layouts of about %d packed bytes, %s, %d calls each; summary over layouts %d+%n"
                        + "machine: %s; jvm: %s",
                seed,
                n,
                bytes,
                target.label(),
                calls,
                skip,
                Meter.machine(),
                Meter.jvm());
        out.println(header);
        StringBuilder table = new StringBuilder("| # | op | make us |");
        for (int b = 0; b + 1 < edges.length; b++) {
            table.append(" calls ").append(label(edges, b)).append(": engine / hand us, hand/engine |");
        }
        table.append("\n|---:|---|---:|")
                .append("---:|".repeat(edges.length - 1))
                .append('\n');
        List<Datatype> layouts = LayoutDraws.draw(seed, n);
        long[][] sumEngine = new long[2][edges.length - 1];
        long[][] sumHand = new long[2][edges.length - 1];
        long makeSum = 0;
        for (int i = 0; i < n; i++) {
            Times t = measure(i, layouts.get(i), bytes, calls, edges, target);
            for (int op = 0; op < 2; op++) {
                StringBuilder row = new StringBuilder(String.format(
                        Locale.ROOT, "| %d | %s | %.0f |", i, op == 0 ? "pack" : "unpack", t.makeNanos / 1e3));
                for (int b = 0; b + 1 < edges.length; b++) {
                    long k = edges[b + 1] - edges[b];
                    row.append(String.format(
                            Locale.ROOT,
                            " %.1f / %.1f, %.2f |",
                            t.engine[op][b] / 1e3 / k,
                            t.hand[op][b] / 1e3 / k,
                            (double) t.hand[op][b] / t.engine[op][b]));
                    if (i >= skip) {
                        sumEngine[op][b] += t.engine[op][b];
                        sumHand[op][b] += t.hand[op][b];
                    }
                }
                table.append(row).append('\n');
                out.println(row + "  " + LayoutsBenchmark.abbreviate(t.type.toString(), 90));
            }
            makeSum += i >= skip ? t.makeNanos : 0;
        }
        String summary = summary(edges, sumEngine, sumHand, makeSum, skip);
        Path dir = o.has("out")
                ? Path.of(o.get("out", "."))
                : defaults ? PackModes.resultsDir() : PackModes.resultsDir().resolve("target/bench-first-calls");
        Files.createDirectories(dir);
        Path md = dir.resolve("FIRST-CALLS.md");
        StringBuilder doc = new StringBuilder(
                "# First calls: the engine on layouts it has not met, against a compiled hand loop\n\n");
        doc.append("Written by `bin/layout bench first-calls` on ")
                .append(Instant.now())
                .append(".\n\n```\n");
        doc.append(header).append("\n```\n\n");
        doc.append(
                "Per call the engine's pack (or unpack) of the whole count, then the hand loop's (a bulk copy per piece, flattened in advance); sums per bucket of calls; `make`: making the segment (in the engine's time in the summary).\n\n");
        doc.append("```\n").append(summary).append("```\n\n").append(table).append("\nThe layouts:\n\n");
        for (int i = 0; i < n; i++) {
            doc.append(i).append(". `").append(layouts.get(i)).append("`\n");
        }
        Files.writeString(md, doc.toString(), StandardCharsets.UTF_8);
        out.println("wrote " + md);
        out.print(summary);
        return 0;
    }

    private static String label(long[] edges, int b) {
        return edges[b + 1] - edges[b] == 1 ? String.valueOf(edges[b] + 1) : (edges[b] + 1) + "-" + edges[b + 1];
    }

    /**
     * Per bucket the ratio hand/engine over the layouts summed, then the same for the calls up to each
     * bucket's end (the engine's with the segments' making): what a program that makes that many calls
     * per layout spends.
     */
    static String summary(long[] edges, long[][] engine, long[][] hand, long makeNanos, int skip) {
        StringBuilder s = new StringBuilder();
        for (int op = 0; op < 2; op++) {
            StringBuilder bucket = new StringBuilder();
            StringBuilder upTo = new StringBuilder();
            long e = op == 0 ? makeNanos : 0; // the segment is made once, for both ops: counted with pack
            long h = 0;
            for (int b = 0; b + 1 < edges.length; b++) {
                bucket.append(
                        String.format(Locale.ROOT, " %s %.2f", label(edges, b), (double) hand[op][b] / engine[op][b]));
                e += engine[op][b];
                h += hand[op][b];
                upTo.append(String.format(Locale.ROOT, " %d: %.2f", edges[b + 1], (double) h / e));
            }
            String name = op == 0 ? "pack" : "unpack";
            s.append(String.format(
                    Locale.ROOT,
                    "%s, layouts %d+, hand/engine per bucket of calls:%s%n%s, layouts %d+, hand/engine over the first N calls:%s%n",
                    name,
                    skip,
                    bucket,
                    name,
                    skip,
                    upTo));
        }
        return s.toString();
    }

    /** The first {@code calls} pack and unpack calls of one layout, {@code count} of it to about {@code bytes}. */
    static Times measure(int index, Datatype t, long bytes, long calls, long[] edges, Target target) {
        long count = Math.max(1, bytes / t.byteSize());
        long packedBytes = t.byteSize() * count;
        long origin = PackModes.origin(t, count);
        long[][] engine = new long[2][edges.length - 1];
        long[][] hand = new long[2][edges.length - 1];
        try (Target.Buf user = target.allocate(PackModes.userBytes(t, count));
                Target.Buf packed = target.allocate(packedBytes)) {
            user.fillPattern();
            long start = System.nanoTime();
            Segment seg = Segment.of(t, count, user.memory, origin);
            long make = System.nanoTime() - start;
            LayoutsBenchmark.Pieces pieces = LayoutsBenchmark.Pieces.of(t, count, user.address + origin);
            long[] offs = pieces.addresses();
            long[] lens = pieces.lengths();
            Memory p = packed.memory;
            int b = 0;
            for (long c = 0; c < calls; c++) {
                b += c == edges[b + 1] ? 1 : 0;
                for (int op = 0; op < 2; op++) {
                    long t0 = System.nanoTime();
                    seg.seek(0);
                    if (op == 0) {
                        seg.pack(p, 0, packedBytes);
                    } else {
                        seg.unpack(p, 0, packedBytes);
                    }
                    long t1 = System.nanoTime();
                    LayoutsBenchmark.pieces(user.base, offs, lens, packed.base, packed.address, op == 0, false);
                    long t2 = System.nanoTime();
                    engine[op][b] += t1 - t0;
                    hand[op][b] += t2 - t1;
                }
            }
            return new Times(index, t, count, packedBytes, make, engine, hand);
        }
    }
}
