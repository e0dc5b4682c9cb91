package dev.layout.transport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@code CompletionReports}; eager ones under 16 KiB from the sender's time): {@link PingPongRow#learnRounds}
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
    private PingPongBenchmark() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
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
        if (match != null && PingPongRow.rows(quick, match).isEmpty()) {
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
        List<String> cmd = partnerCommand("--peer", l.endpoint().toString(), "--reps", Integer.toString(reps));
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
                for (PingPongRow row : PingPongRow.rows(quick, match)) {
                    if (row.floats() <= PingPongRow.WARMUP_MAX_FLOATS) {
                        PingPongRounds.measure(
                                t,
                                0,
                                row,
                                row.warmupRounds(),
                                tag,
                                null); // warm-up: JIT and buffer caches, not reported
                    }
                }
                int rowIndex = 0;
                for (PingPongRow row : PingPongRow.rows(quick, match)) {
                    PingPongRounds.measure(
                            t,
                            0,
                            row,
                            row.learnRounds(reps),
                            tag,
                            null); // the adaptive policy's learning, not reported
                    int[] used = new int[SendStrategy.values().length];
                    double[][] samples = PingPongRounds.measure(t, 0, row, row.repsFor(reps), tag, used);
                    // the echo goes through process 1's own policy: what it chose, sent once per row
                    int[] echoed = choices(t.receive(1, CHOICES_CONTEXT, rowIndex++, PingPongRounds.T));
                    if (trace) {
                        err.println(PingPongRounds.trace(t, 0, row));
                    }
                    SendStrategy chosen = mostUsed(used);
                    SendStrategy echoChosen = mostUsed(echoed);
                    double[] mean = new double[PingPongRounds.STRATEGIES];
                    double[] min = new double[PingPongRounds.STRATEGIES];
                    for (int s = 0; s < PingPongRounds.STRATEGIES; s++) {
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
                            row.kind(),
                            row.floats(),
                            row.blocks(),
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
            for (PingPongRow row : PingPongRow.rows(quick, match)) {
                if (row.floats() <= PingPongRow.WARMUP_MAX_FLOATS) {
                    PingPongRounds.measure(t, 1, row, row.warmupRounds(), tag, null);
                }
            }
            int rowIndex = 0;
            for (PingPongRow row : PingPongRow.rows(quick, match)) {
                PingPongRounds.measure(t, 1, row, row.learnRounds(reps), tag, null);
                int[] used = new int[SendStrategy.values().length];
                PingPongRounds.measure(t, 1, row, row.repsFor(reps), tag, used);
                if (trace) {
                    System.err.println(PingPongRounds.trace(t, 1, row));
                }
                t.send(0, CHOICES_CONTEXT, rowIndex++, choices(used));
            }
        }
        return 0;
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

    /**
     * The partner JVM's command line ({@link JavaCommand#of} with {@code args}) plus this JVM's options
     * that it does not carry yet (heap, collector, huge pages, {@code LAYOUT_JAVA_OPTS}): the partner runs
     * as the leader does, so that the two ends of the exchange differ only in their rank, not in their
     * copies' speed or their collections. They go after {@link JavaCommand#of}'s own heap limit, so the
     * leader's wins.
     */
    static List<String> partnerCommand(String... args) {
        List<String> cmd = JavaCommand.of(PingPongBenchmark.class, args);
        List<String> options = new ArrayList<>();
        // the heap this JVM was given or chose (without -Xmx, a share of the machine's memory)
        options.add("-Xmx" + Runtime.getRuntime().maxMemory() / (1 << 20) + "m");
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-X") && !a.startsWith("-Xmx") && !cmd.contains(a)) {
                options.add(a);
            }
        }
        cmd.addAll(cmd.indexOf("-cp"), options);
        return cmd;
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
