package dev.layout.transport;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.IntToDoubleFunction;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The ping-pong of Furmento and Mercier (2005), appendix B, between two JVMs over loopback: process
 * 0 sends {@code n} floats described by an index, vector or struct type to process 1, which
 * receives them contiguously and sends them back with the same type, for the pack, gather and
 * adaptive strategies, next to a contiguous message of the same size (the floor), the strategies
 * interleaved in a fresh order every round. A row prints each strategy's interquartile mean over
 * the rounds (the mean of the middle half) and its minimum; its ratios ({@code best/ad}, {@code
 * p/p}, and which of pack and gather is faster) are paired: the interquartile mean over the rounds
 * of the per-round ratio ({@link RoundTripRatios#paired}), so that a load shared by the strategies
 * of a round cancels out, however it drifts between rounds. The middle, not the minimum: loopback
 * round trips on a small machine have a long tail of lucky rounds (both JVMs' threads scheduled at
 * once), so the minimum of many rounds is an outlier that moves by 20% between runs of identical
 * code. Each round also sends the packed message a second time (column {@code p/p}, pack's time
 * over its twin's): two identical strategies measured the same way, whose ratio shows how far apart
 * identical code lands on this machine (the benchmark's noise floor, against which a row's {@code
 * best/ad} is to be read). Unlike the paper's types, whose blocks are adjacent (the engine would
 * merge them into one), ours leave a gap after every block, so the data really is non-contiguous.
 *
 * <pre>
 *   layout bench pingpong [--quick] [--reps N] [--match REGEX] [--trace]
 * </pre>
 *
 * {@code --match} keeps the rows whose "type floats blocks" (e.g. {@code vector 4194304 1}) the
 * regular expression finds; {@code --trace} has each process print, after each row, what its policy
 * holds for the row's messages (standard error).
 *
 * The adaptive strategy is {@link AdaptiveSendPolicy}: it starts from the cost model (a calibration
 * file if there is one, else the built-in constants; the header says which) and learns from its own
 * sampled sends (from what they cost end to end, which their receiver reports: the transport's
 * {@code CompletionReports}; eager ones under 16 KiB from the sender's time): {@link #learnRounds}
 * unmeasured rounds per row (its
 * learning phase, interleaved like the measured rounds) and the measured rounds; a row's "choice p0/p1" is, for
 * process 0's adaptive sends and process 1's adaptive echoes (each process has its own policy), the
 * strategy it used most in the measured rounds, with the share of those rounds it was used in; a row
 * counts as a right choice only when both used the faster strategy most. The last line is {@code min adaptive/best: X.XX}: the worst ratio, over
 * all rows, of the best fixed strategy's time to the adaptive one's (1.00 = adaptive always matched
 * the best); the line before gives the noise floor and that figure as the benchmark computed them up
 * to session 26 (each strategy's interquartile mean, then their quotient), whose noise floor was
 * looser in the same runs.
 */
public final class PingPongBenchmark {
    private static final Duration T = Duration.ofSeconds(60);
    /** The strategies of a round: pack, gather, adaptive, then (index 3) the contiguous floor, (index 4) pack again. */
    private static final SendStrategy[] FIXED = {
        SendStrategy.PACK, SendStrategy.GATHER, SendStrategy.ADAPTIVE, null, SendStrategy.PACK
    };

    private static final int STRATEGIES = FIXED.length;

    private PingPongBenchmark() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** One measured configuration: n floats in blocks blocks of the given kind. */
    record Row(String kind, int floats, int blocks) {
        Datatype type() {
            return switch (kind) {
                case "index" -> {
                    long[] len = new long[blocks];
                    long[] disp = new long[blocks];
                    long each = floats / blocks;
                    long at = 0;
                    for (int i = 0; i < blocks; i++) {
                        len[i] = i == blocks - 1 ? each + floats % blocks : each;
                        disp[i] = at;
                        at += 2 * len[i]; // a gap as long as the block
                    }
                    yield Datatype.indexed(len, disp, Primitive.FLOAT32);
                }
                case "vector" -> {
                    long bl = (floats + blocks - 1) / blocks;
                    yield Datatype.vector(blocks, bl, 2 * bl, Primitive.FLOAT32);
                }
                case "struct" -> {
                    // the paper's particle {float x, y; int c; float z} with 4-byte holes after y and c
                    Datatype particle = Datatype.struct(
                            new long[] {2, 1, 1},
                            new long[] {0, 12, 20},
                            List.of(Primitive.FLOAT32, Primitive.INT32, Primitive.FLOAT32));
                    yield Datatype.resized(0, 24, particle);
                }
                default -> throw new IllegalArgumentException("pingpong: type " + kind);
            };
        }

        long count() {
            return kind.equals("struct") ? floats / 4 : 1;
        }
    }

    /** The rows of a run whose "type floats blocks" {@code match} finds (all rows if it is null). */
    static List<Row> rows(boolean quick, Pattern match) {
        List<Row> rows = new ArrayList<>(rows(quick));
        if (match != null) {
            rows.removeIf(r ->
                    !match.matcher(r.kind + " " + r.floats + " " + r.blocks).find());
        }
        return rows;
    }

    static List<Row> rows(boolean quick) {
        int[] sizes = quick
                ? new int[] {1 << 10, 16 << 10, 256 << 10, 4 << 20}
                : new int[] {1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20};
        List<Row> rows = new ArrayList<>();
        for (String kind : new String[] {"index", "vector"}) {
            for (int s : sizes) {
                for (int b : new int[] {1, 3, 10, 100}) {
                    rows.add(new Row(kind, s, b));
                }
            }
        }
        for (int s : sizes) {
            rows.add(new Row("struct", s, 3));
        }
        return rows;
    }

    /**
     * Runs the benchmark (spawning the partner JVM) or, with {@code --peer host:port}, plays process 1.
     *
     * @return 0 on success, 1 on an I/O failure, 2 on bad arguments
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        boolean quick = false;
        boolean trace = false;
        String peer = null;
        int reps = -1;
        Pattern match = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--trace" -> trace = true;
                case "--match" -> {
                    try {
                        match = Pattern.compile(i + 1 < args.length ? args[++i] : "");
                    } catch (PatternSyntaxException e) {
                        err.println("layout: error: pingpong: --match " + e.getPattern()
                                + " (expected: a regular expression): " + e.getDescription());
                        return 2;
                    }
                }
                case "--peer" -> peer = i + 1 < args.length ? args[++i] : null;
                case "--reps" -> {
                    try {
                        reps = Integer.parseInt(i + 1 < args.length ? args[++i] : "");
                    } catch (NumberFormatException e) {
                        reps = 0;
                    }
                    if (reps < 1) {
                        err.println("layout: error: pingpong: --reps (expected: a positive number)");
                        return 2;
                    }
                }
                default -> {
                    err.println("layout: error: pingpong: unknown argument '" + args[i]
                            + "' (expected: [--quick] [--reps N] [--match REGEX] [--trace])");
                    return 2;
                }
            }
        }
        if (reps < 0) {
            reps = quick ? 5 : 10;
        }
        if (match != null && rows(quick, match).isEmpty()) {
            err.println("layout: error: pingpong: --match " + match
                    + " finds no row (a row reads \"type floats blocks\", e.g. \"vector 4194304 1\")");
            return 2;
        }
        try {
            if (peer != null) {
                return partner(Endpoint.parse(peer), quick, reps, match, trace);
            }
            return leader(quick, reps, match, trace, out, err);
        } catch (IOException e) {
            err.println("layout: pingpong: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println("layout: error: " + e.getMessage());
            return 2;
        }
    }

    private static int leader(boolean quick, int reps, Pattern match, boolean trace, PrintStream out, PrintStream err)
            throws IOException {
        JobSecret secret = JobSecret.random();
        TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        List<String> cmd = JavaCommand.of(
                PingPongBenchmark.class, "--peer", l.endpoint().toString(), "--reps", Integer.toString(reps));
        if (quick) {
            cmd.add("--quick");
        }
        if (trace) {
            cmd.add("--trace");
        }
        if (match != null) {
            cmd.add("--match");
            cmd.add(match.pattern());
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put(JobSecret.ENV, secret.toBase64());
        Process child = pb.start();
        try (l) {
            BufferedReader r =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            Endpoint other = readEndpoint(r, child);
            try (TcpTransport t = l.open(0, List.of(l.endpoint(), other), secret, TcpOptions.defaults())) {
                out.printf(
                        Locale.ROOT,
                        "ping-pong over loopback TCP, 2 JVMs, %s, %d+ interleaved rounds: interquartile means, ratios paired per round, eager <= %d B%n",
                        Runtime.version(),
                        reps,
                        t.options().eagerThresholdBytes());
                out.println("adaptive: AdaptiveSendPolicy learning from its sampled sends end to end (the"
                        + " receiver's completion reports; eager ones under 16 KiB from the sender's time),"
                        + " starting from " + modelSource());
                out.printf(
                        Locale.ROOT,
                        "%-7s %9s %6s %11s %11s %11s %-21s %7s %11s %9s %5s  %s%n",
                        "type",
                        "floats",
                        "blocks",
                        "pack_us",
                        "gather_us",
                        "adapt_us",
                        "choice p0/p1",
                        "best/ad",
                        "contig_us",
                        "ad/contig",
                        "p/p",
                        "min_us(p/g/a/c)");
                Summary unpaired = new Summary();
                Summary paired = new Summary();
                int[] tag = {0};
                for (Row row : rows(quick, match)) {
                    if (row.floats <= WARMUP_MAX_FLOATS) {
                        measure(
                                t,
                                0,
                                row,
                                warmupRounds(row),
                                tag,
                                null); // warm-up: JIT and buffer caches, not reported
                    }
                }
                int rowIndex = 0;
                for (Row row : rows(quick, match)) {
                    measure(
                            t,
                            0,
                            row,
                            learnRounds(row, reps),
                            tag,
                            null); // the adaptive policy's learning, not reported
                    int[] used = new int[SendStrategy.values().length];
                    double[][] samples = measure(t, 0, row, repsFor(row, reps), tag, used);
                    // the echo goes through process 1's own policy: what it chose, sent once per row
                    int[] echoed = choices(t.receive(1, CHOICES_CONTEXT, rowIndex++, T));
                    if (trace) {
                        err.println(trace(t, 0, row));
                    }
                    SendStrategy chosen = mostUsed(used);
                    SendStrategy echoChosen = mostUsed(echoed);
                    double[] mean = new double[STRATEGIES];
                    double[] min = new double[STRATEGIES];
                    for (int s = 0; s < STRATEGIES; s++) {
                        mean[s] = RoundTripRatios.middleMean(samples[s]);
                        min[s] = java.util.Arrays.stream(samples[s]).min().orElse(Double.NaN);
                    }
                    unpaired.add(
                            RoundTripRatios.unpaired(samples[0], samples[1]),
                            best -> RoundTripRatios.unpaired(samples[best], samples[2]),
                            RoundTripRatios.unpaired(samples[0], samples[4]),
                            chosen,
                            echoChosen);
                    double ratio = paired.add(
                            RoundTripRatios.paired(samples[0], samples[1]),
                            best -> RoundTripRatios.paired(samples[best], samples[2]),
                            RoundTripRatios.paired(samples[0], samples[4]),
                            chosen,
                            echoChosen);
                    out.printf(
                            Locale.ROOT,
                            "%-7s %9d %6d %11.1f %11.1f %11.1f %-10s %7.2f %11.1f %9.2f %5.2f  %.0f/%.0f/%.0f/%.0f%n",
                            row.kind,
                            row.floats,
                            row.blocks,
                            mean[0],
                            mean[1],
                            mean[2],
                            share(chosen, used) + "/" + share(echoChosen, echoed),
                            ratio,
                            mean[3],
                            RoundTripRatios.paired(samples[2], samples[3]),
                            RoundTripRatios.paired(samples[0], samples[4]),
                            min[0],
                            min[1],
                            min[2],
                            min[3]);
                }
                out.printf(
                        Locale.ROOT,
                        "adaptive chose the faster strategy on both processes in %d of %d rows where pack and"
                                + " gather differ by more than 10%%; load average %.1f on %d cpus%n",
                        paired.right,
                        paired.decisive,
                        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                        Runtime.getRuntime().availableProcessors());
                out.printf(
                        Locale.ROOT,
                        "noise floor: min pack/pack (one strategy measured twice, the lower of its two ratios): %.2f%n",
                        paired.twins);
                out.printf(
                        Locale.ROOT,
                        "unpaired, as up to session 26 (interquartile means per strategy, then their quotient):"
                                + " noise floor %.2f, min adaptive/best %.2f%n",
                        unpaired.twins,
                        unpaired.worst);
                out.printf(Locale.ROOT, "min adaptive/best: %.2f%n", paired.worst);
            }
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                err.println("layout: pingpong: partner JVM did not exit within 30 s");
                return 1;
            }
            return child.exitValue() == 0 ? 0 : 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            child.destroyForcibly();
        }
    }

    /** One estimator's figures over the rows: the last lines of the output. */
    private static final class Summary {
        double worst = Double.MAX_VALUE; // min adaptive/best
        double twins = Double.MAX_VALUE; // the noise floor: min pack/pack, the lower of its two ratios
        int decisive; // rows where pack and gather differ by more than 10%
        int right; // of those, rows where both processes' adaptive sends mostly used the faster

        /**
         * Adds a row from its ratios, time over time: pack over gather, the best arm's (0 pack, 1
         * gather) over adaptive, pack over its twin; {@code chosen} and {@code echoChosen} are what
         * process 0's adaptive sends and process 1's adaptive echoes mostly used. Returns the row's
         * best over adaptive.
         */
        double add(
                double packOverGather,
                IntToDoubleFunction bestOverAdaptive,
                double packOverPack,
                SendStrategy chosen,
                SendStrategy echoChosen) {
            SendStrategy faster = packOverGather <= 1 ? SendStrategy.PACK : SendStrategy.GATHER;
            double ratio = bestOverAdaptive.applyAsDouble(faster == SendStrategy.PACK ? 0 : 1);
            worst = Math.min(worst, ratio);
            twins = Math.min(twins, Math.min(packOverPack, 1 / packOverPack));
            if (Math.max(packOverGather, 1 / packOverGather) > 1.10) {
                decisive++;
                if (faster == chosen && faster == echoChosen) {
                    right++;
                }
            }
            return ratio;
        }
    }

    private static int partner(Endpoint leader, boolean quick, int reps, Pattern match, boolean trace)
            throws IOException {
        String s = System.getenv(JobSecret.ENV);
        if (s == null) {
            throw new IllegalArgumentException("pingpong: --peer needs the secret in $" + JobSecret.ENV);
        }
        JobSecret secret = JobSecret.fromBase64(s);
        TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
        System.out.println("ENDPOINT " + l.endpoint());
        System.out.flush();
        try (TcpTransport t = l.open(1, List.of(leader, l.endpoint()), secret, TcpOptions.defaults())) {
            int[] tag = {0};
            for (Row row : rows(quick, match)) {
                if (row.floats <= WARMUP_MAX_FLOATS) {
                    measure(t, 1, row, warmupRounds(row), tag, null);
                }
            }
            int rowIndex = 0;
            for (Row row : rows(quick, match)) {
                measure(t, 1, row, learnRounds(row, reps), tag, null);
                int[] used = new int[SendStrategy.values().length];
                measure(t, 1, row, repsFor(row, reps), tag, used);
                if (trace) {
                    System.err.println(trace(t, 1, row));
                }
                t.send(0, CHOICES_CONTEXT, rowIndex++, choices(used));
            }
        }
        return 0;
    }

    /**
     * "trace p0 vector 1048576 3: GATHER; log gap ...": what process {@code me}'s adaptive policy holds
     * for the row's messages after its measured rounds ({@code --trace}): the cell's incumbent, gap
     * estimate and pairs.
     */
    static String trace(TcpTransport t, int me, Row row) {
        Memory data = BUFFERS[0];
        Segment seg = Segment.of(row.type(), row.count(), data, 0);
        SendCell cell = t.sendPolicy().cell(1 - me, BlockEstimates.estimate(seg), seg.byteSize(), data.base() != null);
        return "trace p" + me + " " + row.kind + " " + row.floats + " " + row.blocks + ": " + cell;
    }

    /** The context of process 1's per-row message of what its adaptive echoes used (apart from the rounds' 0). */
    static final long CHOICES_CONTEXT = 1;

    /** The strategy used most in {@code used} (counts per {@link SendStrategy} ordinal), PACK on a tie; null if none. */
    static SendStrategy mostUsed(int[] used) {
        int pack = used[SendStrategy.PACK.ordinal()];
        int gather = used[SendStrategy.GATHER.ordinal()];
        return pack == 0 && gather == 0 ? null : pack >= gather ? SendStrategy.PACK : SendStrategy.GATHER;
    }

    /** "pack 94%": the strategy used most and the share of the adaptive sends it was used in; "-" if none. */
    static String share(SendStrategy chosen, int[] used) {
        if (chosen == null) {
            return "-";
        }
        int all = used[SendStrategy.PACK.ordinal()] + used[SendStrategy.GATHER.ordinal()];
        return chosen.name().toLowerCase(Locale.ROOT) + " " + Math.round(100.0 * used[chosen.ordinal()] / all) + "%";
    }

    /** The counts per strategy as a message, and back. */
    static byte[] choices(int[] used) {
        ByteBuffer b = ByteBuffer.allocate(4 * used.length);
        for (int u : used) {
            b.putInt(u);
        }
        return b.array();
    }

    static int[] choices(byte[] message) {
        int n = SendStrategy.values().length;
        if (message.length != 4 * n) {
            throw new IllegalArgumentException(
                    "pingpong: choices message of " + message.length + " bytes (expected: " + 4 * n + ")");
        }
        ByteBuffer b = ByteBuffer.wrap(message);
        int[] used = new int[n];
        for (int i = 0; i < n; i++) {
            used[i] = b.getInt();
        }
        return used;
    }

    /** Where TcpOptions.defaults() took the cost model from (as SendCostModel.load() looks). */
    static String modelSource() {
        String dir = System.getenv("LAYOUT_CONF");
        Path file = Path.of(dir == null || dir.isBlank() ? "conf" : dir).resolve("transport.properties");
        return Files.isRegularFile(file)
                ? "the calibration file " + file.toAbsolutePath().normalize()
                : "the built-in cost model (no calibration file at "
                        + file.toAbsolutePath().normalize() + ")";
    }

    static final int WARMUP_MAX_FLOATS = 256 << 10;

    /**
     * Unmeasured rounds per row before any row is measured: many for the small rows (a few seconds
     * in all), so that every strategy's code path, the adaptive policy's included, is compiled by the
     * JIT before the first measured row (with 3 rounds the first rows measured the adaptive sends'
     * interpreted bookkeeping, 5-7% of a 4 KiB round trip; with 100, on a loaded machine whose JIT
     * threads get little cpu, the first three 1 KiB rows still trailed by 3-5% in three runs of four
     * where the same sizes later in the run did not); a few for the larger ones.
     */
    static int warmupRounds(Row row) {
        return row.floats <= (16 << 10) ? 1000 : 3;
    }

    /**
     * Rounds per row: enough that the middle means of two strategies running the same code agree
     * within a few percent (round trips spread by +-20% here, and the error of such an estimate falls
     * only with the square root of the rounds), fewer where a round trip is expensive.
     */
    static int repsFor(Row row, int reps) {
        if (row.kind.equals("struct") && row.floats >= (1 << 20)) {
            // gathering 3-element blocks is 20x slower here: no doubt which strategy wins, but pack and
            // adaptive (both packing) landed 8% apart in 20 rounds (pack/pack 0.92 in the same row)
            return reps * 8;
        }
        return row.floats <= (16 << 10) ? reps * 40 : row.floats <= (256 << 10) ? reps * 20 : reps * 16;
    }

    /** Least unmeasured rounds per row before it is measured (see {@link #learnRounds}). */
    static final int LEARN_ROUNDS = 160;

    /**
     * The adaptive policy's learning phase of a row: unmeasured rounds played exactly as the measured
     * ones (every strategy, interleaved), so that the policy learns under the conditions it is then
     * measured in, as a program that sends many messages of one shape gives it before the ones that
     * matter. At least {@link #LEARN_ROUNDS}: a cell needs some 130 sends to fill its window of pairs
     * (AdaptiveSendPolicy); a trace of the earlier phase of 48 adaptive round trips alone showed the
     * arms' times in a back-to-back exchange, which ranked them otherwise than the interleaved rounds.
     * As many as the measured rounds where a round is expensive (gathering 16 MB of 12-byte blocks:
     * a quarter second), where the model is sure and the policy does not try that arm.
     */
    static int learnRounds(Row row, int reps) {
        int measured = repsFor(row, reps);
        return row.kind.equals("struct") && row.floats >= (1 << 20) ? measured : Math.max(measured, LEARN_ROUNDS);
    }

    /**
     * Plays one row on process {@code me} (0 leads and times, 1 echoes): two unmeasured rounds, then
     * {@code reps} rounds of pack, gather, adaptive, contiguous and pack again, interleaved. Returns every
     * measured round trip per strategy in microseconds ({@code [strategy][round]}, on process 0);
     * {@code chosen[strategy]} counts what the adaptive sends of the measured rounds used.
     */
    static double[][] measure(TcpTransport t, int me, Row row, int reps, int[] tag, int[] chosen) throws IOException {
        Datatype type = row.type();
        long count = row.count();
        long footprint = (count - 1) * type.extent() + type.trueUb();
        Memory data = reused(0, footprint);
        fill(data);
        Memory in = reused(1, type.byteSize() * count);
        Memory contig = reused(2, type.byteSize() * count);
        long floats = type.byteSize() * count / 4;
        int other = 1 - me;
        double[][] samples = new double[STRATEGIES][reps];
        for (int rep = -2; rep < reps; rep++) {
            // a fresh order per round (the same on both processes: seeded by the shared tag counter), so
            // that no strategy always follows the same one: gathering many small blocks leaves garbage
            // and cold caches behind, which would otherwise always be charged to the next strategy
            List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3, 4));
            java.util.Collections.shuffle(order, new java.util.Random(tag[0]));
            for (int s : order) {
                int k = ++tag[0];
                long t0 = System.nanoTime();
                if (me == 1) {
                    t.receiveTyped(other, 0L, k, Primitive.FLOAT32, floats, in, 0, T);
                }
                if (FIXED[s] != null) {
                    SendStrategy used = t.sendTyped(other, 0L, k, type, count, data, 0, FIXED[s]);
                    if (s == 2 && chosen != null && rep >= 0) {
                        chosen[used.ordinal()]++;
                    }
                } else {
                    t.sendTyped(other, 0L, k, Primitive.FLOAT32, floats, contig, 0, SendStrategy.ADAPTIVE);
                }
                if (me == 0) {
                    t.receiveTyped(other, 0L, k, Primitive.FLOAT32, floats, in, 0, T);
                }
                long dt = System.nanoTime() - t0;
                if (rep >= 0) {
                    samples[s][rep] = dt / 1000.0;
                }
            }
        }
        return samples;
    }

    /** The process's buffers for a row's data, its receives and its contiguous sends, grown as rows need. */
    private static final Memory[] BUFFERS = new Memory[3];

    /**
     * The first {@code bytes} of buffer {@code i}, made larger when a row needs it. Why reused: with fresh
     * direct buffers per row and phase (three per {@link #measure}, freed only once a collection finds
     * them) the later 16 MB rows ran slower for every strategy, the contiguous floor included
     * (benchmarks/graph-and-pingpong.md, eleventh round).
     */
    private static Memory reused(int i, long bytes) {
        if (BUFFERS[i] == null || BUFFERS[i].byteSize() < bytes) {
            BUFFERS[i] = direct(bytes);
        }
        return BUFFERS[i].slice(0, Math.max(1, bytes));
    }

    private static Memory direct(long bytes) {
        return Memory.ofBuffer(
                ByteBuffer.allocateDirect((int) Math.max(1, bytes)).order(ByteOrder.LITTLE_ENDIAN));
    }

    private static void fill(Memory m) {
        for (long i = 0; i + 4 <= m.byteSize(); i += 4) {
            m.putFloat(i, i / 4f);
        }
    }

    static Endpoint readEndpoint(BufferedReader r, Process child) throws IOException {
        String line;
        while ((line = r.readLine()) != null) {
            if (line.startsWith("ENDPOINT ")) {
                return Endpoint.parse(line.substring("ENDPOINT ".length()).trim());
            }
        }
        throw new IOException("partner JVM (pid " + child.pid() + ") exited before publishing its endpoint");
    }
}
