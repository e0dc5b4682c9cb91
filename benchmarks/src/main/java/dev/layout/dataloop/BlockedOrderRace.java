package dev.layout.dataloop;

import dev.layout.bench.Meter;
import dev.layout.bench.PackSuite;
import dev.layout.bench.Target;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What the cache-blocked loop order ({@link BlockedOrder}) gains, measured side by side in one JVM:
 * the same segment walk with blocking (what {@link Segment#of} does) against every nest in packed
 * order ({@link Segment#inPackedOrder}), on layouts whose outer loop has the finest user stride.
 * Each row runs the two in adjacent 25 ms slices (12 pairs, alternating which goes first) and
 * reports both MB/s (slice medians) and the median of the pairs' ratios.
 *
 * <pre>java -cp ... dev.layout.dataloop.BlockedOrderRace [heap|direct|offheap ...] [name part ...]   (default: heap offheap, all)</pre>
 */
public final class BlockedOrderRace {
  private BlockedOrderRace() {}

  private static final int PAIRS = 12;
  private static final long SLICE_NANOS = 25_000_000L;

  /** name -> {type, origin[, count]}. */
  static Map<String, Object[]> layouts() {
    Map<String, Object[]> m = new LinkedHashMap<>();
    RossCase.Instance flash = RossCase.FLASH_IO.create(RossCase.Size.FULL);
    m.put("Flash I/O (24 float64 per cell, 80 blocks)", new Object[] {flash.type, flash.origin});
    // A distributed FFT's transpose: 2048 columns of a 256 x 2048 complex128 slab, column by column (count 2048 of a resized column).
    RossCase.Instance fft = RossCase.FFT_TRANSPOSE.create(RossCase.Size.FULL);
    m.put("FFT transpose (2048 columns of 256 complex128)", new Object[] {fft.type, fft.origin, fft.count});
    // Matrix transposes by column types: 1024 x 1024 float64 and 2048 x 1024 float32.
    m.put("transpose 1024 x 1024 float64", new Object[] {Datatype.resized(0, 8, Datatype.vector(1024, 1, 1024, Primitive.FLOAT64)), 0L, 1024L});
    m.put("transpose 1024 x 2048 float32", new Object[] {Datatype.resized(0, 4, Datatype.vector(1024, 1, 2048, Primitive.FLOAT32)), 0L, 2048L});
    // An AMR/CFD checkpoint: 10 float64 per cell, the 64^3 interior of a 72^3 block, one variable after another.
    Datatype cell = Datatype.resized(0, 80, Primitive.FLOAT64);
    Datatype interior = Datatype.subarray(new long[] {72, 72, 72}, new long[] {64, 64, 64}, new long[] {4, 4, 4}, Order.C, cell);
    m.put("10 float64 per cell, 64^3 of 72^3, by variable", new Object[] {Datatype.hvector(10, 1, 8, interior), 0L});
    // Array of records to structure of arrays: 6 float32 fields of 2^20 records, field by field.
    m.put("AoS to SoA, 6 float32 fields x 2^20 records", new Object[] {Datatype.hvector(6, 1, 4, Datatype.vector(1 << 20, 1, 6, Primitive.FLOAT32)), 0L});
    // Pixels to planes: RGB float32 and RGBA uint8 of 2^21 pixels, channel by channel.
    m.put("RGB float32 to planes, 2^21 pixels", new Object[] {Datatype.hvector(3, 1, 4, Datatype.vector(1 << 21, 1, 3, Primitive.FLOAT32)), 0L});
    m.put("RGBA uint8 to planes, 2^22 pixels", new Object[] {Datatype.hvector(4, 1, 1, Datatype.vector(1 << 22, 1, 4, Primitive.UINT8)), 0L});
    // Complex interleaved to split: real parts then imaginary parts of 2^20 complex128.
    m.put("complex128 to split re/im, 2^20 values", new Object[] {Datatype.hvector(2, 1, 8, Datatype.vector(1 << 20, 1, 2, Primitive.FLOAT64)), 0L});
    return m;
  }

  public static void main(String[] args) throws Exception {
    java.util.List<Target> targets = Target.named(args, Target.HEAP, Target.OFFHEAP);
    java.util.List<String> names = Target.others(args).stream().map(a -> a.toLowerCase(Locale.ROOT)).toList();
    System.out.println("blocked order race: " + Meter.machine() + "; " + Meter.jvm() + "; budget " + BlockedOrder.BUDGET + " B");
    System.out.printf(Locale.ROOT, "%-48s %-6s %-8s %14s %14s %8s%n", "layout", "op", "target", "packed MB/s", "blocked MB/s", "ratio");
    for (Map.Entry<String, Object[]> e : layouts().entrySet()) {
      if (!names.isEmpty() && names.stream().noneMatch(n -> e.getKey().toLowerCase(Locale.ROOT).contains(n))) {
        continue;
      }
      Datatype t = (Datatype) e.getValue()[0];
      long origin = (Long) e.getValue()[1];
      long count = e.getValue().length > 2 ? (Long) e.getValue()[2] : 1;
      Dataloop d = DataloopCompiler.compileCount(t, count, Representation.NATIVE);
      System.out.println("# " + e.getKey() + ": " + t + "\n#   run order: " + d.runOrder());
      for (Target target : targets) {
        race(e.getKey(), t, count, origin, target);
      }
    }
  }

  private static void race(String name, Datatype t, long count, long origin, Target target) {
    long packed = t.byteSize() * count;
    try (Target.Buf user = target.allocate(origin + t.trueUb() + (count - 1) * t.extent() + 64); Target.Buf out = target.allocate(packed)) {
      user.fillPattern();
      Segment blocked = Segment.of(t, count, user.memory, origin);
      Segment plain = Segment.inPackedOrder(t, count, user.memory, origin);
      Memory pk = out.memory;
      for (String op : new String[] {"pack", "unpack"}) {
        boolean pack = op.equals("pack");
        Runnable b = () -> run(blocked, pk, packed, pack);
        Runnable p = () -> run(plain, pk, packed, pack);
        Meter.warm(packed, SLICE_NANOS, 4, b, p);
        PackSuite.Paired r = PackSuite.paired(p, b, packed, SLICE_NANOS, PAIRS);
        System.out.printf(Locale.ROOT, "%-48s %-6s %-8s %14.1f %14.1f %8.2f%n", name, op, target.label(), r.base(), r.candidate(), r.ratio());
      }
    }
  }

  private static void run(Segment s, Memory packed, long n, boolean pack) {
    s.seek(0);
    if (pack) {
      s.pack(packed, 0, n);
    } else {
      s.unpack(packed, 0, n);
    }
  }
}
