package dev.layout.dataloop;

import dev.layout.bench.Meter;
import dev.layout.bench.PackSuite;
import dev.layout.bench.Raw;
import dev.layout.bench.Target;
import java.util.Locale;

/**
 * How close the hand-written loops of the pack suite's half-dense rows (Indexed, Vector: half the
 * bytes of every cache line of the user buffer) are to the memory system's floor, and so how much
 * room any engine has to beat them. The floor moves the same packed bytes to or from the same
 * cache lines in the cheapest way: the first 32 bytes of every 64-byte line, four 8-byte moves per
 * line and no gaps inside a line. A hand loop at the floor is bound by memory traffic (every line
 * of the user buffer read, or read and written back, plus the packed bytes); no loop order or
 * kernel can move fewer lines.
 *
 * <p>Each row runs engine against hand loop, and hand loop against floor, in adjacent 25 ms slices
 * (12 pairs each, alternating which goes first, medians as in {@link PackSuite#paired}).
 *
 * <pre>java -cp ... dev.layout.dataloop.MemoryFloorRace [heap|direct|offheap ...] [case ...]   (default: heap offheap; Indexed and Vector, float32 and float64)</pre>
 */
public final class MemoryFloorRace {
  private MemoryFloorRace() {}

  private static final int PAIRS = 12;
  private static final long SLICE_NANOS = 25_000_000L;
  private static final RossCase[] CASES = {RossCase.INDEXED_F32, RossCase.INDEXED_F64, RossCase.VECTOR_F32, RossCase.VECTOR_F64};

  public static void main(String[] args) {
    java.util.List<Target> targets = Target.named(args, Target.HEAP, Target.OFFHEAP);
    java.util.List<RossCase> cases = Target.others(args).stream().map(a -> RossCase.valueOf(a.toUpperCase(Locale.ROOT))).toList();
    if (cases.isEmpty()) {
      cases = java.util.List.of(CASES);
    }
    System.out.println("memory floor race: " + Meter.machine() + "; " + Meter.jvm());
    System.out.printf(Locale.ROOT, "%-18s %-6s %-8s %12s %12s %12s %8s %8s %8s%n", "test", "op", "target", "manual MB/s", "engine MB/s",
        "floor MB/s", "eng/man", "man/flr", "eng/flr");
    for (RossCase c : cases) {
      for (Target t : targets) {
        race(c, t);
      }
    }
  }

  private static void race(RossCase c, Target target) {
    RossCase.Instance in = c.create(RossCase.Size.FULL);
    long packed = in.packedBytes;
    if (in.userBytes < in.origin + 2 * packed || packed % 32 != 0) {
      throw new IllegalArgumentException("memory floor race: " + c + " is not half-dense (user " + in.userBytes + " bytes, packed " + packed + ")");
    }
    try (Target.Buf user = target.allocate(in.userBytes); Target.Buf out = target.allocate(packed)) {
      user.fillPattern();
      Segment seg = Segment.of(in.type, in.count, user.memory, in.origin);
      Object ub = user.base;
      long ua = user.address + in.origin;
      Object pb = out.base;
      long pa = out.address;
      for (String op : new String[] {"pack", "unpack"}) {
        boolean pack = op.equals("pack");
        Runnable manual = pack ? () -> in.pack(ub, ua, pb, pa) : () -> in.unpack(pb, pa, ub, ua);
        Runnable engine = PackSuite.engine(seg, out.memory, packed, pack);
        Runnable floor = pack ? () -> floorPack(ub, ua, pb, pa, packed) : () -> floorUnpack(pb, pa, ub, ua, packed);
        Meter.warm(packed, SLICE_NANOS, 4, manual, engine, floor);
        PackSuite.Paired em = PackSuite.paired(manual, engine, packed, SLICE_NANOS, PAIRS);
        PackSuite.Paired mf = PackSuite.paired(floor, manual, packed, SLICE_NANOS, PAIRS);
        PackSuite.Paired ef = PackSuite.paired(floor, engine, packed, SLICE_NANOS, PAIRS);
        System.out.printf(Locale.ROOT, "%-18s %-6s %-8s %12.1f %12.1f %12.1f %8.2f %8.2f %8.2f%n", c.title(), op, target.label(), em.base(),
            em.candidate(), mf.base(), em.ratio(), mf.ratio(), ef.ratio());
      }
    }
  }

  /** The floor's pack: the first 32 bytes of each 64-byte line of {@code 2 * bytes} user bytes, in order. */
  static void floorPack(Object ub, long ua, Object pb, long pa, long bytes) {
    long lines = bytes / 32;
    for (long i = 0; i < lines; i++) {
      long s = ua + 64 * i;
      long d = pa + 32 * i;
      Raw.U.putLong(pb, d, Raw.U.getLong(ub, s));
      Raw.U.putLong(pb, d + 8, Raw.U.getLong(ub, s + 8));
      Raw.U.putLong(pb, d + 16, Raw.U.getLong(ub, s + 16));
      Raw.U.putLong(pb, d + 24, Raw.U.getLong(ub, s + 24));
    }
  }

  /** The floor's unpack: the mirror of {@link #floorPack}. */
  static void floorUnpack(Object pb, long pa, Object ub, long ua, long bytes) {
    long lines = bytes / 32;
    for (long i = 0; i < lines; i++) {
      long s = ua + 64 * i;
      long d = pa + 32 * i;
      Raw.U.putLong(ub, s, Raw.U.getLong(pb, d));
      Raw.U.putLong(ub, s + 8, Raw.U.getLong(pb, d + 8));
      Raw.U.putLong(ub, s + 16, Raw.U.getLong(pb, d + 16));
      Raw.U.putLong(ub, s + 24, Raw.U.getLong(pb, d + 24));
    }
  }
}
