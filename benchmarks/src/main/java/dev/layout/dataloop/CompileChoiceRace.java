package dev.layout.dataloop;

import dev.layout.bench.CommitScale;
import dev.layout.bench.Meter;
import dev.layout.bench.Target;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import dev.layout.normalize.CostModel;
import dev.layout.normalize.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The measurements behind {@link EngineNormalization}'s choices: for probe layouts of n blocks,
 * packs and unpacks with the dataloop of the description as given (what the compiler made before
 * it used the normalizer), of its normalized description, of the compiler's choice, and of the
 * forms the compiler rejects (the storage model's, the processing model's without the limit on
 * list growth). Interleaved trials in one JVM, heap memory, best of six; prints MB/s and the ratio
 * to "as given".
 *
 * <pre>java -cp ... dev.layout.dataloop.CompileChoiceRace [n]   (default 32768)</pre>
 */
public final class CompileChoiceRace {
  private CompileChoiceRace() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 15;
    System.out.println("compile choice race, n = " + n + " blocks: " + Meter.machine() + "; " + Meter.jvm());
    for (Map.Entry<String, Datatype> probe : probes(n).entrySet()) {
      race(probe.getKey(), probe.getValue());
    }
  }

  /** Layouts where normalization changes the dataloop (the same shapes as NormalizedCompileTest, at size n). */
  static Map<String, Datatype> probes(int n) {
    Map<String, Datatype> p = new LinkedHashMap<>();
    int planes = Math.max(1, (int) Math.sqrt(n / 16.0));
    long[] rows = new long[planes * planes];
    for (int z = 0; z < planes; z++) {
      for (int y = 0; y < planes; y++) {
        rows[z * planes + y] = 300_000L * z + 1024L * y;
      }
    }
    p.put("row starts as a list, rows of 16 strided float64", Datatype.hindexedBlock(1, rows, Datatype.vector(16, 1, 2, Primitive.FLOAT64)));
    long[][] irregular = CommitScale.irregularBlocks(n);
    p.put("indexed, blocks of 1-2 float64 (irregular)", Datatype.indexed(irregular[0], irregular[1], Primitive.FLOAT64));
    long[] shortRows = new long[n / 20 * 20];
    for (int i = 0; i < shortRows.length; i++) {
      shortRows[i] = 100L * (i / 20) + 2L * (i % 20);
    }
    p.put("list of rows of 20 strided float64", Datatype.indexedBlock(1, shortRows, Primitive.FLOAT64));
    long[] nested = new long[n / 32 * 32];
    int[] pattern = {0, 1, 3, 6};
    for (int i = 0; i < nested.length; i++) {
      nested[i] = 1000L * (i / 32) + 40L * (i / 4 % 8) + pattern[i % 4];
    }
    p.put("list of vec(vec(8, idx(4))) float64", Datatype.indexedBlock(1, nested, Primitive.FLOAT64));
    Random r = new Random(42);
    List<Long> atoms = new ArrayList<>();
    for (int i = 0; i < 2 * n; i++) {
      if (r.nextInt(4) == 0) {
        atoms.add((long) i);
      }
    }
    Datatype atom = Datatype.resized(0, 96, Datatype.struct(new long[] {1, 1, 1, 1}, new long[] {0, 8, 16, 72},
        List.of(Primitive.FLOAT64, Primitive.FLOAT64, Primitive.FLOAT64, Primitive.FLOAT64)));
    p.put("list of 4-field float64 records", Datatype.indexedBlock(1, atoms.stream().mapToLong(Long::longValue).toArray(), atom));
    return p;
  }

  private static void race(String name, Datatype t) throws Exception {
    Map<String, Dataloop> loops = new LinkedHashMap<>();
    loops.put("as given", DataloopCompiler.compileAsGiven(t, Representation.NATIVE));
    loops.put("normalized", DataloopCompiler.compileAsGiven(EngineNormalization.normalized(t), Representation.NATIVE));
    loops.put("compiler", DataloopCompiler.compile(t, Representation.NATIVE));
    loops.put("storage", DataloopCompiler.compileAsGiven(Normalizer.of(CostModel.storage(1, 4, 3)).normalize(t), Representation.NATIVE));
    loops.put("processing, no limit",
        DataloopCompiler.compileAsGiven(Normalizer.of(EngineNormalization.PROCESSING).normalize(t), Representation.NATIVE));
    System.out.println();
    System.out.println("== " + name);
    Map<String, String> seen = new LinkedHashMap<>();
    for (Map.Entry<String, Dataloop> e : loops.entrySet()) {
      String tree = e.getValue().toTreeString();
      String same = seen.get(tree);
      System.out.println("-- " + e.getKey() + (same != null ? ": same dataloop as " + same : ":\n" + indent(tree)));
      seen.putIfAbsent(tree, e.getKey());
    }
    long packed = t.byteSize();
    long userBytes = t.trueUb() + 64;
    List<Target.Buf> bufs = new ArrayList<>();
    try {
      Map<String, Runnable[]> ops = new LinkedHashMap<>();
      for (Map.Entry<String, Dataloop> e : loops.entrySet()) {
        if (!seen.get(e.getValue().toTreeString()).equals(e.getKey())) {
          continue; // an identical dataloop runs identically
        }
        Target.Buf user = Target.HEAP.allocate(userBytes);
        bufs.add(user);
        Target.Buf pk = Target.HEAP.allocate(packed);
        bufs.add(pk);
        user.fillPattern();
        Segment s = Segment.over(e.getValue(), t, 1, user.memory, 0);
        Memory out = pk.memory;
        ops.put(e.getKey(), new Runnable[] {() -> {
          s.seek(0);
          s.pack(out, 0, packed);
        }, () -> {
          s.seek(0);
          s.unpack(out, 0, packed);
        }});
      }
      Map<String, double[]> best = new LinkedHashMap<>();
      ops.keySet().forEach(k -> best.put(k, new double[2]));
      for (int trial = 0; trial < 6; trial++) {
        for (Map.Entry<String, Runnable[]> o : ops.entrySet()) {
          double[] b = best.get(o.getKey());
          b[0] = Math.max(b[0], Meter.mbPerSecond(o.getValue()[0], packed, 100_000_000L));
          b[1] = Math.max(b[1], Meter.mbPerSecond(o.getValue()[1], packed, 100_000_000L));
        }
      }
      double[] base = best.get("as given");
      for (Map.Entry<String, double[]> b : best.entrySet()) {
        System.out.printf(Locale.ROOT, "%-22s pack %9.1f MB/s (%.2f)  unpack %9.1f MB/s (%.2f)%n", b.getKey(), b.getValue()[0],
            b.getValue()[0] / base[0], b.getValue()[1], b.getValue()[1] / base[1]);
      }
    } finally {
      for (Target.Buf b : bufs) {
        b.close();
      }
    }
  }

  private static String indent(String tree) {
    return ("   " + tree.strip().replace("\n", "\n   "));
  }
}
