package dev.layout.bench;

import com.esotericsoftware.kryo.kryo5.Kryo;
import dev.layout.autolink.GraphCodec;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fory.Fory;

/**
 * The AutoLink benchmark outside JMH: encode+decode round-trip time and bytes of AutoLink, Kryo 5
 * and Apache Fory on a tree, a cyclic list and a grid of 10^3 to 10^6 nodes (issues 10 and 24).
 *
 * <p>Protocol, the same for every codec, in one JVM: per graph, warm-up rounds and then measured
 * rounds in which the codecs take turns (the order rotates every round, so drift in the machine's
 * load falls on all), each sample a batch of round trips long enough that small graphs are measured
 * and not the clock ({@link #callsPerSample}: 1 call at 10^6 nodes, 200 at 10^3), {@code System.gc()}
 * before every sample of graphs of 10^5 nodes and more. Reported per call: the interquartile mean
 * (mean of the middle half) of the wall-clock times and of the process CPU times ({@link
 * #processCpuNanos}: all threads, GC included), the fastest and slowest sample, and the bytes.
 * AutoLink compresses (ZSTD) only the columnar packets of graphs above its compact limit; Kryo and
 * Fory write uncompressed. Every codec's output is checked against the original graph once, untimed.
 *
 * <p>{@code layout bench graph} runs this in a child JVM with a fixed 3 GB heap (so that G1 does
 * not shrink the heap after each {@code System.gc()} and collect differently from round to round)
 * and with Kryo 5 first on the class path: the CLI's class path also holds Spark's Kryo 4
 * ({@code kryo-shaded}), which would otherwise shadow it.
 *
 * <p>Args of {@link #main}: {@code [maxNodes=1000000] [rounds=15] [warmup=5]}: sizes 10^3, 10^4,
 * ... up to maxNodes. The last two lines are {@code min kryo/autolink time: X (SHAPE SIZE)} and
 * {@code min fory/autolink time: Y (SHAPE SIZE)}: the smallest ratio of wall-time IQMs over every
 * shape and size, and where it was.
 */
public final class GraphBenchMain {
    private GraphBenchMain() {}

    /** Heap of the child JVM, fixed (-Xms = -Xmx). */
    static final String HEAP = "3g";

    static final String[] CODECS = {"autolink", "kryo", "fory"};

    /** {@code layout bench graph [--quick] [--rounds N]}: runs {@link #main} in a child JVM. */
    public static int run(String[] args, PrintStream out) {
        List<String> a = Arrays.asList(args);
        boolean quick = a.contains("--quick");
        int rounds = quick ? 9 : 15;
        int i = a.indexOf("--rounds");
        if (i >= 0) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("bench graph: --rounds needs a value (expected: an integer >= 1)");
            }
            rounds = Integer.parseInt(args[i + 1]);
            if (rounds < 1) {
                throw new IllegalArgumentException("bench graph: --rounds " + rounds + " (expected: >= 1)");
            }
        }
        for (int k = 0; k < args.length; k++) {
            if (!args[k].equals("--quick")
                    && !args[k].equals("--rounds")
                    && !(k > 0 && args[k - 1].equals("--rounds"))) {
                throw new IllegalArgumentException(
                        "bench graph: unknown argument '" + args[k] + "' (expected: --quick, --rounds N)");
            }
        }
        // quick: 10^3..10^5 nodes, in well under a minute
        List<String> cmd = childCommand(
                quick
                        ? new String[] {"100000", Integer.toString(rounds), "8"}
                        : new String[] {"1000000", Integer.toString(rounds), "5"});
        // A full run takes a few minutes; the limit only stops a JVM that hangs.
        ChildJvm.run(cmd, out, "", Duration.ofMinutes(60), "bench graph");
        return 0;
    }

    /** java, this JVM's --add-opens flags, a fixed heap, this JVM's class path, this class. */
    static List<String> childCommand(String[] args) {
        List<String> flags = new ArrayList<>();
        for (String x : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (x.startsWith("--add-")
                    || x.startsWith("-XX:+IgnoreUnrecognized")
                    || x.startsWith("-Djdk.reflect")
                    || x.startsWith("-Dio.netty")) {
                flags.add(x);
            }
        }
        flags.addAll(List.of("-Xms" + HEAP, "-Xmx" + HEAP, "-XX:+AlwaysPreTouch"));
        return ChildJvm.command(
                flags, System.getProperty("java.class.path"), GraphBenchMain.class.getName(), List.of(args));
    }

    /** The jar Kryo was loaded from, or fails if it is not Kryo 5 (Kryo 4 has no {@code kryo.util.DefaultInstantiatorStrategy}). */
    static String kryoVersion() {
        try {
            Class.forName("com.esotericsoftware.kryo.kryo5.util.DefaultInstantiatorStrategy");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("bench graph: Kryo on the class path is not Kryo 5 (loaded from "
                    + kryoSource() + "; expected: the relocated com.esotericsoftware:kryo5 artifact)");
        }
        return kryoSource();
    }

    private static String kryoSource() {
        var src = Kryo.class.getProtectionDomain().getCodeSource();
        if (src == null || src.getLocation() == null) {
            return "unknown";
        }
        String p = src.getLocation().getPath();
        return p.substring(p.lastIndexOf('/', p.length() - 2) + 1);
    }

    public static void main(String[] args) throws Exception {
        int maxNodes = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Throwable[] failure = new Throwable[1];
        // Kryo and Fory recurse once per node on the list and the grid: a 2 GB stack.
        Thread t = new Thread(
                null,
                () -> {
                    try {
                        run(maxNodes, rounds, warmup, System.out);
                    } catch (Throwable e) {
                        failure[0] = e;
                    }
                },
                "graph-bench",
                2L << 30);
        t.start();
        t.join();
        if (failure[0] != null) {
            throw new RuntimeException(failure[0]);
        }
    }

    /** Times of one codec on one graph, milliseconds per call. */
    record Samples(double[] wall, double[] cpu, long bytes) {}

    /** Round trips per sample: about 2*10^5 nodes' worth, at least one. */
    static int callsPerSample(int nodes) {
        return Math.max(1, 200_000 / nodes);
    }

    /** 10^3, 10^4, ... up to maxNodes (at least 10^3). */
    static List<Integer> sizes(int maxNodes) {
        List<Integer> out = new ArrayList<>();
        for (int n = 1000; n <= Math.max(1000, maxNodes); n *= 10) {
            out.add(n);
        }
        return out;
    }

    static void run(int maxNodes, int rounds, int warmup, PrintStream out) {
        String kryo5 = kryoVersion();
        var rt = Runtime.getRuntime();
        out.printf(
                Locale.ROOT,
                "machine: %s; JVM %s %s, heap %d MB, %s; Kryo %s, Fory %s%n",
                Meter.machine(),
                System.getProperty("java.vm.name"),
                System.getProperty("java.version"),
                rt.maxMemory() >> 20,
                gcNames(),
                kryo5,
                foryVersion());
        out.printf(
                Locale.ROOT,
                "encode+decode round trips, per call; %d warm-up + %d measured samples per codec, codecs in turn, a sample ="
                        + " max(1, 200000/nodes) calls; interquartile means; load average %s%n",
                warmup,
                rounds,
                loadAverage());
        out.println("bytes: AutoLink compresses (ZSTD) only the columnar packets of graphs above its compact limit ("
                + GraphCodec.DEFAULT_COMPACT_MAX_NODES + " nodes); Kryo and Fory do not compress");
        out.printf(
                Locale.ROOT,
                "%-5s %8s %-9s %10s %10s %21s %10s%n",
                "graph",
                "nodes",
                "codec",
                "wall ms",
                "cpu ms",
                "wall min..max",
                "bytes");
        Worst kryoTime = new Worst();
        Worst foryTime = new Worst();
        Worst kryoCpu = new Worst();
        Worst foryCpu = new Worst();
        try (BufferAllocator alloc = new RootAllocator()) {
            GraphCodec al = GraphCodecs.autolink(alloc);
            GraphCodecs.KryoSession kryo = GraphCodecs.kryo();
            Fory fory = GraphCodecs.fory();
            List<Function<Object, GraphCodecs.Result>> codecs = List.of(
                    g -> GraphCodecs.autolink(al, g), g -> GraphCodecs.kryo(kryo, g), g -> GraphCodecs.fory(fory, g));
            for (int n : sizes(maxNodes)) {
                for (GraphShapes.Shape s : GraphShapes.Shape.values()) {
                    Object g = GraphShapes.build(s, n);
                    for (var c : codecs) {
                        GraphShapes.verify(s, g, c.apply(g).graph()); // untimed: the copy is the graph
                    }
                    Samples[] m = interleaved(codecs, g, warmup, rounds, callsPerSample(n), n >= 100_000);
                    for (int c = 0; c < m.length; c++) {
                        out.printf(
                                Locale.ROOT,
                                "%-5s %8d %-9s %10.4f %10.4f %21s %10d%n",
                                s,
                                n,
                                CODECS[c],
                                iqm(m[c].wall()),
                                iqm(m[c].cpu()),
                                String.format(Locale.ROOT, "%.4f..%.4f", min(m[c].wall()), max(m[c].wall())),
                                m[c].bytes());
                    }
                    String where = s + " " + n;
                    double a = iqm(m[0].wall());
                    kryoTime.offer(iqm(m[1].wall()) / a, where);
                    foryTime.offer(iqm(m[2].wall()) / a, where);
                    kryoCpu.offer(iqm(m[1].cpu()) / iqm(m[0].cpu()), where);
                    foryCpu.offer(iqm(m[2].cpu()) / iqm(m[0].cpu()), where);
                    out.printf(
                            Locale.ROOT,
                            "%-5s %8d ratios    kryo/autolink %.2f, fory/autolink %.2f (time)%n",
                            s,
                            n,
                            iqm(m[1].wall()) / a,
                            iqm(m[2].wall()) / a);
                }
            }
        }
        out.printf(
                Locale.ROOT,
                "min kryo/autolink cpu: %.2f (%s); min fory/autolink cpu: %.2f (%s); load average %s%n",
                kryoCpu.ratio,
                kryoCpu.where,
                foryCpu.ratio,
                foryCpu.where,
                loadAverage());
        out.printf(Locale.ROOT, "min kryo/autolink time: %.2f (%s)%n", kryoTime.ratio, kryoTime.where);
        out.printf(Locale.ROOT, "min fory/autolink time: %.2f (%s)%n", foryTime.ratio, foryTime.where);
    }

    /** The smallest ratio offered and where it was. */
    static final class Worst {
        double ratio = Double.MAX_VALUE;
        String where = "-";

        void offer(double r, String at) {
            if (r < ratio) {
                ratio = r;
                where = at;
            }
        }
    }

    private static String foryVersion() {
        Package p = Fory.class.getPackage();
        return p == null || p.getImplementationVersion() == null ? "?" : p.getImplementationVersion();
    }

    /**
     * Warm-up, then measured rounds; the codecs' order rotates every round. Each sample times {@code
     * calls} round trips and is divided by them; {@code gc}: {@code System.gc()} before each sample.
     */
    static Samples[] interleaved(
            List<Function<Object, GraphCodecs.Result>> codecs,
            Object g,
            int warmup,
            int rounds,
            int calls,
            boolean gc) {
        int n = codecs.size();
        double[][] wall = new double[n][rounds];
        double[][] cpu = new double[n][rounds];
        long[] bytes = new long[n];
        for (int r = -warmup; r < rounds; r++) {
            for (int k = 0; k < n; k++) {
                int c = Math.floorMod(k + r, n);
                double[] t = once(codecs.get(c), g, bytes, c, calls, gc);
                if (r >= 0) {
                    wall[c][r] = t[0];
                    cpu[c][r] = t[1];
                }
            }
        }
        Samples[] out = new Samples[n];
        for (int c = 0; c < n; c++) {
            out[c] = new Samples(wall[c], cpu[c], bytes[c]);
        }
        return out;
    }

    private static double[] once(
            Function<Object, GraphCodecs.Result> codec, Object g, long[] bytes, int c, int calls, boolean gc) {
        if (gc) {
            System.gc();
        }
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        GraphCodecs.Result res = null;
        for (int i = 0; i < calls; i++) {
            res = codec.apply(g);
        }
        long t1 = System.nanoTime();
        long cpu1 = processCpuNanos();
        if (res == null || res.graph() == null) {
            throw new AssertionError("decoded nothing");
        }
        bytes[c] = res.bytes();
        return new double[] {(t1 - t0) / 1e6 / calls, cpu0 < 0 ? Double.NaN : (cpu1 - cpu0) / 1e6 / calls};
    }

    /**
     * CPU time of all the process's threads (GC and compiler threads included), in nanoseconds: the
     * sum of {@code /proc/self/task/<tid>/schedstat}'s run times where Linux provides them (the JVM's
     * own process CPU time comes in 10 ms clock ticks), else the JVM's figure, else -1.
     */
    static long processCpuNanos() {
        long sum = 0;
        try (var tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    String s = Files.readString(t.resolve("schedstat"));
                    sum += Long.parseLong(s.substring(0, s.indexOf(' ')));
                } catch (java.nio.file.NoSuchFileException gone) {
                    // the thread ended meanwhile
                }
            }
            if (sum > 0) {
                return sum;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    private static String gcNames() {
        return String.join(
                "+",
                ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .map(b -> b.getName())
                        .toList());
    }

    /** The 1-minute load average, or "?" where /proc/loadavg is missing. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** Interquartile mean: the mean of the middle half of the sorted samples (quarters cut by rounding down). */
    static double iqm(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        int cut = s.length / 4;
        double sum = 0;
        for (int i = cut; i < s.length - cut; i++) {
            sum += s[i];
        }
        return sum / (s.length - 2 * cut);
    }

    static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    private static double min(double[] x) {
        return Arrays.stream(x).min().orElse(Double.NaN);
    }

    private static double max(double[] x) {
        return Arrays.stream(x).max().orElse(Double.NaN);
    }
}
