package dev.layout.dataloop;

import dev.layout.bench.Meter;
import dev.layout.bench.PackSuite;
import dev.layout.bench.Raw;
import dev.layout.bench.Target;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Whether the suite's hand loop for Indexed(float64) (four 8-byte words at bytes 0, 8, 24 and 48 of
 * every 64-byte record) is the fastest loop a hand can write on this machine, and so whether the
 * engine, which runs the same loop, has any room left to beat it. Each variant moves exactly the
 * bytes the hand loop moves (tested), in a different order or grouping:
 *
 * <ul>
 *   <li>{@code two streams}: the first and second half of the records in one loop, one record of each
 *       per iteration (twice the memory streams in flight);
 *   <li>{@code loads first}: two records per iteration, all eight loads before the eight stores;
 *   <li>{@code touch ahead}: one extra byte load 32 records ahead per record (a software prefetch
 *       made of a demand load; Java has no prefetch instruction);
 *   <li>{@code floor}: the floor of {@link MemoryFloorRace} (the first 32 bytes of every line: not
 *       this layout's bytes, the cheapest move of the same lines).
 * </ul>
 *
 * <p>The engine is raced too. Each row is variant against hand loop in adjacent 25 ms slices (12
 * pairs, medians as in {@link PackSuite#paired}). Run one target per JVM for clean profiles (the
 * suite's hand loops see all three kinds of memory when the targets share a JVM).
 *
 * <pre>java -cp ... dev.layout.dataloop.HandLoopVariantsRace [heap|direct|offheap ...]   (default: heap offheap)</pre>
 */
public final class HandLoopVariantsRace {
  private HandLoopVariantsRace() {}

  private static final int PAIRS = 12;
  private static final long SLICE_NANOS = 25_000_000L;
  /** Records ahead of the current one that {@code touch ahead} loads a byte of. */
  static final int TOUCH_DISTANCE = 32;

  public static void main(String[] args) {
    java.util.List<Target> targets = Target.named(args, Target.HEAP, Target.OFFHEAP);
    if (!Target.others(args).isEmpty()) {
      throw new IllegalArgumentException("hand loop variants race: unknown arguments " + Target.others(args) + " (expected: heap, direct, offheap)");
    }
    System.out.println("hand loop variants race, Indexed(float64): " + Meter.machine() + "; " + Meter.jvm());
    System.out.printf(Locale.ROOT, "%-6s %-8s %-12s %12s %12s %8s%n", "op", "target", "variant", "hand MB/s", "variant MB/s", "var/hand");
    for (Target t : targets) {
      race(t);
    }
  }

  private static void race(Target target) {
    RossCase.Instance in = RossCase.INDEXED_F64.create(RossCase.Size.FULL);
    long packed = in.packedBytes;
    int records = records(in);
    try (Target.Buf user = target.allocate(in.userBytes); Target.Buf out = target.allocate(packed)) {
      user.fillPattern();
      Segment seg = Segment.of(in.type, in.count, user.memory, in.origin);
      Object ub = user.base;
      long ua = user.address + in.origin;
      Object pb = out.base;
      long pa = out.address;
      for (boolean pack : new boolean[] {true, false}) {
        Runnable hand = pack ? () -> in.pack(ub, ua, pb, pa) : () -> in.unpack(pb, pa, ub, ua);
        Map<String, Runnable> variants = new LinkedHashMap<>();
        variants.put("engine", PackSuite.engine(seg, out.memory, packed, pack));
        if (pack) {
          variants.put("two streams", () -> packTwoStreams(ub, ua, pb, pa, records));
          variants.put("loads first", () -> packLoadsFirst(ub, ua, pb, pa, records));
          variants.put("touch ahead", () -> packTouchAhead(ub, ua, pb, pa, records));
          variants.put("floor", () -> MemoryFloorRace.floorPack(ub, ua, pb, pa, packed));
        } else {
          variants.put("two streams", () -> unpackTwoStreams(pb, pa, ub, ua, records));
          variants.put("loads first", () -> unpackLoadsFirst(pb, pa, ub, ua, records));
          variants.put("touch ahead", () -> unpackTouchAhead(pb, pa, ub, ua, records));
          variants.put("floor", () -> MemoryFloorRace.floorUnpack(pb, pa, ub, ua, packed));
        }
        Runnable[] all = variants.values().toArray(new Runnable[variants.size() + 1]);
        all[variants.size()] = hand;
        Meter.warm(packed, SLICE_NANOS, 4, all);
        for (Map.Entry<String, Runnable> v : variants.entrySet()) {
          PackSuite.Paired p = PackSuite.paired(hand, v.getValue(), packed, SLICE_NANOS, PAIRS);
          System.out.printf(Locale.ROOT, "%-6s %-8s %-12s %12.1f %12.1f %8.2f%n", pack ? "pack" : "unpack", target.label(), v.getKey(), p.base(),
              p.candidate(), p.ratio());
        }
      }
    }
  }

  /** The number of 64-byte records (32 packed bytes each) of an Indexed(float64) instance. */
  static int records(RossCase.Instance in) {
    if (in.packedBytes % 32 != 0 || in.userBytes != 2 * in.packedBytes || in.origin != 0) {
      throw new IllegalArgumentException("hand loop variants race: not an Indexed(float64) instance (user " + in.userBytes + " bytes, packed "
          + in.packedBytes + ", origin " + in.origin + "; expected user = 2 x packed, packed a multiple of 32, origin 0)");
    }
    return Math.toIntExact(in.packedBytes / 32);
  }

  // Each variant is written out once per direction (pack and its mirrored unpack), as the floor loops of
  // MemoryFloorRace are: one plain loop per direction is what is being measured, so no shared loop with a
  // direction argument or callback.

  /** Record r: user bytes {@code ua + 64r + {0, 8, 24, 48}} to packed bytes {@code pa + 32r + {0, 8, 16, 24}}. */
  private static void packRecord(Object ub, long s, Object pb, long d) {
    Raw.U.putLong(pb, d, Raw.U.getLong(ub, s));
    Raw.U.putLong(pb, d + 8, Raw.U.getLong(ub, s + 8));
    Raw.U.putLong(pb, d + 16, Raw.U.getLong(ub, s + 24));
    Raw.U.putLong(pb, d + 24, Raw.U.getLong(ub, s + 48));
  }

  private static void unpackRecord(Object pb, long d, Object ub, long s) {
    Raw.U.putLong(ub, s, Raw.U.getLong(pb, d));
    Raw.U.putLong(ub, s + 8, Raw.U.getLong(pb, d + 8));
    Raw.U.putLong(ub, s + 24, Raw.U.getLong(pb, d + 16));
    Raw.U.putLong(ub, s + 48, Raw.U.getLong(pb, d + 24));
  }

  static void packTwoStreams(Object ub, long ua, Object pb, long pa, int records) {
    int half = records / 2;
    long ua2 = ua + 64L * half;
    long pa2 = pa + 32L * half;
    for (int r = 0; r < half; r++) {
      packRecord(ub, ua + 64L * r, pb, pa + 32L * r);
      packRecord(ub, ua2 + 64L * r, pb, pa2 + 32L * r);
    }
    if (records % 2 != 0) {
      packRecord(ub, ua + 64L * (records - 1), pb, pa + 32L * (records - 1));
    }
  }

  static void unpackTwoStreams(Object pb, long pa, Object ub, long ua, int records) {
    int half = records / 2;
    long ua2 = ua + 64L * half;
    long pa2 = pa + 32L * half;
    for (int r = 0; r < half; r++) {
      unpackRecord(pb, pa + 32L * r, ub, ua + 64L * r);
      unpackRecord(pb, pa2 + 32L * r, ub, ua2 + 64L * r);
    }
    if (records % 2 != 0) {
      unpackRecord(pb, pa + 32L * (records - 1), ub, ua + 64L * (records - 1));
    }
  }

  static void packLoadsFirst(Object ub, long ua, Object pb, long pa, int records) {
    int r = 0;
    for (; r + 1 < records; r += 2) {
      long s = ua + 64L * r;
      long d = pa + 32L * r;
      long a0 = Raw.U.getLong(ub, s);
      long a1 = Raw.U.getLong(ub, s + 8);
      long a2 = Raw.U.getLong(ub, s + 24);
      long a3 = Raw.U.getLong(ub, s + 48);
      long b0 = Raw.U.getLong(ub, s + 64);
      long b1 = Raw.U.getLong(ub, s + 72);
      long b2 = Raw.U.getLong(ub, s + 88);
      long b3 = Raw.U.getLong(ub, s + 112);
      Raw.U.putLong(pb, d, a0);
      Raw.U.putLong(pb, d + 8, a1);
      Raw.U.putLong(pb, d + 16, a2);
      Raw.U.putLong(pb, d + 24, a3);
      Raw.U.putLong(pb, d + 32, b0);
      Raw.U.putLong(pb, d + 40, b1);
      Raw.U.putLong(pb, d + 48, b2);
      Raw.U.putLong(pb, d + 56, b3);
    }
    if (r < records) {
      packRecord(ub, ua + 64L * r, pb, pa + 32L * r);
    }
  }

  static void unpackLoadsFirst(Object pb, long pa, Object ub, long ua, int records) {
    int r = 0;
    for (; r + 1 < records; r += 2) {
      long s = ua + 64L * r;
      long d = pa + 32L * r;
      long a0 = Raw.U.getLong(pb, d);
      long a1 = Raw.U.getLong(pb, d + 8);
      long a2 = Raw.U.getLong(pb, d + 16);
      long a3 = Raw.U.getLong(pb, d + 24);
      long b0 = Raw.U.getLong(pb, d + 32);
      long b1 = Raw.U.getLong(pb, d + 40);
      long b2 = Raw.U.getLong(pb, d + 48);
      long b3 = Raw.U.getLong(pb, d + 56);
      Raw.U.putLong(ub, s, a0);
      Raw.U.putLong(ub, s + 8, a1);
      Raw.U.putLong(ub, s + 24, a2);
      Raw.U.putLong(ub, s + 48, a3);
      Raw.U.putLong(ub, s + 64, b0);
      Raw.U.putLong(ub, s + 72, b1);
      Raw.U.putLong(ub, s + 88, b2);
      Raw.U.putLong(ub, s + 112, b3);
    }
    if (r < records) {
      unpackRecord(pb, pa + 32L * r, ub, ua + 64L * r);
    }
  }

  /** Sink for the touched bytes, so the JIT keeps the loads. */
  static volatile long touched;

  static void packTouchAhead(Object ub, long ua, Object pb, long pa, int records) {
    long acc = 0;
    int r = 0;
    for (; r + TOUCH_DISTANCE < records; r++) {
      long s = ua + 64L * r;
      acc += Raw.U.getByte(ub, s + 64L * TOUCH_DISTANCE);
      packRecord(ub, s, pb, pa + 32L * r);
    }
    for (; r < records; r++) {
      packRecord(ub, ua + 64L * r, pb, pa + 32L * r);
    }
    touched = acc;
  }

  static void unpackTouchAhead(Object pb, long pa, Object ub, long ua, int records) {
    long acc = 0;
    int r = 0;
    for (; r + TOUCH_DISTANCE < records; r++) {
      long s = ua + 64L * r;
      acc += Raw.U.getByte(ub, s + 64L * TOUCH_DISTANCE);
      unpackRecord(pb, pa + 32L * r, ub, s);
    }
    for (; r < records; r++) {
      unpackRecord(pb, pa + 32L * r, ub, ua + 64L * r);
    }
    touched = acc;
  }
}
