package dev.layout.bench;

import com.esotericsoftware.kryo.Kryo;
import dev.layout.autolink.GraphCodec;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
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

/**
 * The AutoLink benchmark outside JMH: encode+decode time and bytes per codec and graph (issue 10).
 *
 * <p>Protocol, the same for every codec, in one JVM: per graph, warm-up rounds and then measured
 * rounds in which AutoLink and Kryo alternate (the order flips every round, so drift in the
 * machine's load falls on both), {@code System.gc()} before every call. Reported: the
 * interquartile mean (mean of the middle half) of the wall-clock times and of the process CPU
 * times ({@link #processCpuNanos}: all threads, GC included; on a machine shared with other work,
 * time spent descheduled is charged to nobody), the fastest and slowest round, and the bytes. Java serialization, the slow
 * reference, runs a few rounds after the others (median). Every codec's output is checked against
 * the original graph once, untimed.
 *
 * <p>{@code layout bench graph} runs this in a child JVM with a fixed 3 GB heap (so that G1 does
 * not shrink the heap after each {@code System.gc()} and collect differently from round to round)
 * and with Kryo 5 first on the class path: the CLI's class path also holds Spark's Kryo 4
 * ({@code kryo-shaded}), which would otherwise shadow it.
 *
 * <p>Args of {@link #main}: {@code [nodes=1000000] [rounds=15] [warmup=5] [javaRounds=3]}. The last
 * line is {@code min kryo/autolink time: X.XX} (the smallest of the three graphs' ratios of wall
 * time IQMs), the line before it the same for CPU time.
 */
public final class GraphBenchMain {
  private GraphBenchMain() {}

  /** Heap of the child JVM, fixed (-Xms = -Xmx). */
  static final String HEAP = "3g";

  /** {@code layout bench graph [--quick] [--rounds N]}: runs {@link #main} in a child JVM. */
  static int run(String[] args, PrintStream out) {
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
      if (!args[k].equals("--quick") && !args[k].equals("--rounds") && !(k > 0 && args[k - 1].equals("--rounds"))) {
        throw new IllegalArgumentException("bench graph: unknown argument '" + args[k] + "' (expected: --quick, --rounds N)");
      }
    }
    // quick: 10^5 nodes, where a round takes milliseconds and the JIT needs more of them
    List<String> cmd = childCommand(quick ? new String[] {"100000", Integer.toString(rounds), "15", "1"}
        : new String[] {"1000000", Integer.toString(rounds), "5", "3"});
    // A full run takes a few minutes; the limit only stops a JVM that hangs.
    ChildJvm.run(cmd, out, "", Duration.ofMinutes(60), "bench graph");
    return 0;
  }

  /** java, this JVM's --add-opens flags, a fixed heap, the class path without a Kryo older than 5, this class. */
  static List<String> childCommand(String[] args) {
    List<String> flags = new ArrayList<>();
    for (String x : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (x.startsWith("--add-") || x.startsWith("-XX:+IgnoreUnrecognized") || x.startsWith("-Djdk.reflect")
          || x.startsWith("-Dio.netty")) {
        flags.add(x);
      }
    }
    flags.addAll(List.of("-Xms" + HEAP, "-Xmx" + HEAP, "-XX:+AlwaysPreTouch"));
    return ChildJvm.command(flags, classPathWithKryo5(System.getProperty("java.class.path")), GraphBenchMain.class.getName(), List.of(args));
  }

  /** The class path with every Kryo jar other than Kryo 5 left out ({@code kryo-shaded-4.x.jar}, {@code kryo-4.x.jar}). */
  static String classPathWithKryo5(String classPath) {
    List<String> keep = new ArrayList<>();
    for (String e : classPath.split(File.pathSeparator)) {
      String name = Path.of(e).getFileName() == null ? e : Path.of(e).getFileName().toString();
      boolean kryo = name.matches("kryo(-shaded)?-[0-9].*\\.jar");
      if (!kryo || name.matches("kryo-5\\..*\\.jar")) {
        keep.add(e);
      }
    }
    return String.join(File.pathSeparator, keep);
  }

  /** The jar Kryo was loaded from, or fails if it is not Kryo 5 (Kryo 4 has no {@code kryo.util.DefaultInstantiatorStrategy}). */
  static String kryoVersion() {
    try {
      Class.forName("com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy");
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("bench graph: Kryo on the class path is not Kryo 5 (loaded from " + kryoSource()
          + "; expected: Kryo 5 first, see GraphBenchMain.classPathWithKryo5)");
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
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int javaRounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    Throwable[] failure = new Throwable[1];
    // Kryo and Java serialization recurse once per node on the list and the grid: a 2 GB stack.
    Thread t = new Thread(null, () -> {
      try {
        run(nodes, rounds, warmup, javaRounds, System.out);
      } catch (Throwable e) {
        failure[0] = e;
      }
    }, "graph-bench", 2L << 30);
    t.start();
    t.join();
    if (failure[0] != null) {
      throw new RuntimeException(failure[0]);
    }
  }

  /** Times of one codec on one graph, milliseconds per round. */
  record Samples(double[] wall, double[] cpu, long bytes) {}

  static void run(int nodes, int rounds, int warmup, int javaRounds, PrintStream out) {
    String kryo5 = kryoVersion();
    var rt = Runtime.getRuntime();
    out.printf(Locale.ROOT, "machine: %s; JVM %s %s, heap %d MB, %s; Kryo %s%n", Meter.machine(), System.getProperty("java.vm.name"),
        System.getProperty("java.version"), rt.maxMemory() >> 20, gcNames(), kryo5);
    out.printf(Locale.ROOT, "%d nodes; AutoLink and Kryo: %d warm-up + %d measured rounds each, interleaved, System.gc() before each call;"
        + " interquartile means; java: median of %d; load average %s%n", nodes, warmup, rounds, javaRounds, loadAverage());
    out.printf(Locale.ROOT, "%-6s %-9s %9s %9s %19s %12s%n", "graph", "codec", "wall ms", "cpu ms", "wall min..max", "bytes");
    double minWall = Double.MAX_VALUE;
    double minCpu = Double.MAX_VALUE;
    StringBuilder ratios = new StringBuilder();
    try (BufferAllocator alloc = new RootAllocator()) {
      GraphCodec al = GraphCodecs.autolink(alloc);
      Kryo kryo = GraphCodecs.kryo();
      List<Function<Object, GraphCodecs.Result>> codecs = List.of(g -> GraphCodecs.autolink(al, g), g -> GraphCodecs.kryo(kryo, g));
      for (GraphShapes.Shape s : GraphShapes.Shape.values()) {
        Object g = GraphShapes.build(s, nodes);
        for (var c : codecs) {
          GraphShapes.verify(s, g, c.apply(g).graph()); // untimed: the copy is the graph
        }
        GraphShapes.verify(s, g, GraphCodecs.java(g).graph());
        Samples[] measured = interleaved(codecs, g, warmup, rounds);
        Samples java = timed(GraphCodecs::java, g, javaRounds);
        String[] names = {"autolink", "kryo"};
        for (int c = 0; c < 2; c++) {
          Samples x = measured[c];
          out.printf(Locale.ROOT, "%-6s %-9s %9.1f %9.1f %19s %12d%n", s, names[c], iqm(x.wall()), iqm(x.cpu()),
              String.format(Locale.ROOT, "%.1f..%.1f", min(x.wall()), max(x.wall())), x.bytes());
        }
        out.printf(Locale.ROOT, "%-6s %-9s %9.1f %9.1f %19s %12d%n", s, "java", median(java.wall()), median(java.cpu()),
            String.format(Locale.ROOT, "%.1f..%.1f", min(java.wall()), max(java.wall())), java.bytes());
        double rw = iqm(measured[1].wall()) / iqm(measured[0].wall());
        double rc = iqm(measured[1].cpu()) / iqm(measured[0].cpu());
        ratios.append(String.format(Locale.ROOT, "%s%s %.2f (cpu %.2f)", ratios.length() == 0 ? "" : ", ", s, rw, rc));
        minWall = Math.min(minWall, rw);
        minCpu = Math.min(minCpu, rc);
      }
    }
    out.println("kryo/autolink time: " + ratios + "; load average " + loadAverage());
    out.printf(Locale.ROOT, "min kryo/autolink cpu: %.2f%n", minCpu);
    out.printf(Locale.ROOT, "min kryo/autolink time: %.2f%n", minWall);
  }

  /** Warm-up, then measured rounds; codec order reversed every round. */
  static Samples[] interleaved(List<Function<Object, GraphCodecs.Result>> codecs, Object g, int warmup, int rounds) {
    int n = codecs.size();
    double[][] wall = new double[n][rounds];
    double[][] cpu = new double[n][rounds];
    long[] bytes = new long[n];
    for (int r = -warmup; r < rounds; r++) {
      for (int k = 0; k < n; k++) {
        int c = (r & 1) == 0 ? k : n - 1 - k;
        double[] t = once(codecs.get(c), g, bytes, c);
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

  static Samples timed(Function<Object, GraphCodecs.Result> codec, Object g, int rounds) {
    double[] wall = new double[rounds];
    double[] cpu = new double[rounds];
    long[] bytes = new long[1];
    for (int r = 0; r < rounds; r++) {
      double[] t = once(codec, g, bytes, 0);
      wall[r] = t[0];
      cpu[r] = t[1];
    }
    return new Samples(wall, cpu, bytes[0]);
  }

  private static double[] once(Function<Object, GraphCodecs.Result> codec, Object g, long[] bytes, int c) {
    System.gc();
    long cpu0 = processCpuNanos();
    long t0 = System.nanoTime();
    GraphCodecs.Result res = codec.apply(g);
    long t1 = System.nanoTime();
    long cpu1 = processCpuNanos();
    if (res.graph() == null) {
      throw new AssertionError("decoded nothing");
    }
    bytes[c] = res.bytes();
    return new double[] {(t1 - t0) / 1e6, cpu0 < 0 ? Double.NaN : (cpu1 - cpu0) / 1e6};
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
    return String.join("+", ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName()).toList());
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
