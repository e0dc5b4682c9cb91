package dev.layout.bench;

import com.esotericsoftware.kryo.Kryo;
import dev.layout.autolink.GraphCodec;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A quick (non-JMH) run of the AutoLink benchmark: best-of-N encode+decode time and bytes per codec
 * and graph. Kryo and Java serialization recurse once per node on deep graphs, so every codec runs
 * on a thread with a 2 GB stack (without it both overflow the stack on the list and the grid).
 * Args: {@code [nodes=1000000] [repeats=3]}. Last line: {@code min kryo/autolink time: X.XX}.
 */
public final class GraphBenchMain {
  /** {@code layout bench graph [--quick]}: 10^6 nodes best of 3, or 10^5 nodes once with --quick. */
  static int run(String[] args, java.io.PrintStream out) {
    boolean quick = java.util.Arrays.asList(args).contains("--quick");
    try {
      main(quick ? new String[] {"100000", "1"} : new String[0]);
    } catch (Exception e) {
      throw new IllegalStateException("bench graph: " + e.getMessage(), e);
    }
    return 0;
  }

  public static void main(String[] args) throws Exception {
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Throwable[] failure = new Throwable[1];
    Thread t = new Thread(null, () -> {
      try {
        run(nodes, repeats);
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

  private static void run(int nodes, int repeats) {
    System.out.printf(Locale.ROOT, "machine: %d cpus, JVM %s %s, max heap %d MB%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.name"), System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20);
    System.out.printf(Locale.ROOT, "%-6s %-9s %12s %14s%n", "graph", "codec", "time ms", "bytes");
    double minRatio = Double.MAX_VALUE;
    try (BufferAllocator alloc = new RootAllocator()) {
      GraphCodec al = GraphCodecs.autolink(alloc);
      Kryo kryo = GraphCodecs.kryo();
      for (GraphShapes.Shape s : GraphShapes.Shape.values()) {
        Object g = GraphShapes.build(s, nodes);
        double alMs = Double.MAX_VALUE;
        double kryoMs = Double.MAX_VALUE;
        long[] bytes = new long[3];
        String[] names = {"autolink", "kryo", "java"};
        for (int c = 0; c < 3; c++) {
          double best = Double.MAX_VALUE;
          String err = null;
          for (int r = 0; r < repeats; r++) {
            System.gc();
            long t0 = System.nanoTime();
            GraphCodecs.Result res;
            try {
              res = switch (c) {
                case 0 -> GraphCodecs.autolink(al, g);
                case 1 -> GraphCodecs.kryo(kryo, g);
                default -> GraphCodecs.java(g);
              };
            } catch (StackOverflowError e) {
              err = "StackOverflowError";
              break;
            }
            double ms = (System.nanoTime() - t0) / 1e6;
            best = Math.min(best, ms);
            bytes[c] = res.bytes();
            if (res.graph() == null) {
              throw new AssertionError("decoded nothing");
            }
          }
          if (err != null) {
            System.out.printf(Locale.ROOT, "%-6s %-9s %12s %14s%n", s, names[c], err, "-");
          } else {
            System.out.printf(Locale.ROOT, "%-6s %-9s %12.1f %14d%n", s, names[c], best, bytes[c]);
          }
          if (c == 0) {
            alMs = best;
          } else if (c == 1) {
            kryoMs = best;
          }
        }
        minRatio = Math.min(minRatio, kryoMs / alMs);
      }
    }
    System.out.printf(Locale.ROOT, "min kryo/autolink time: %.2f%n", minRatio);
  }
}
