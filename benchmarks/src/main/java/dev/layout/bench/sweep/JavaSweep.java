package dev.layout.bench.sweep;

import dev.layout.bench.Meter;
import dev.layout.bench.PackSuite;
import dev.layout.bench.memory.Raw;
import dev.layout.bench.memory.Target;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * One round of the sweep in this JVM: per item, the engine (a reused {@link Segment}), the best of the
 * {@link HandLoops} (bulk copies, word moves or element moves, whichever ran faster in a first slice)
 * and, with a {@link NativeSweep.Server}, MPICH in the process beside it, in groups of adjacent slices
 * ({@link PackSuite#adjacent}). Before timing, the engine's packed bytes are checked against the hand
 * loop's (and MPICH's against the engine's, by the server).
 */
final class JavaSweep {
    private final long sliceNanos;
    private final int pairs;
    private final NativeSweep.Server mpich;

    /** {@code mpich} null: MPICH not measured. */
    JavaSweep(long sliceNanos, int pairs, NativeSweep.Server mpich) {
        this.sliceNanos = sliceNanos;
        this.pairs = pairs;
        this.mpich = mpich;
    }

    List<Samples> run(List<SweepGrid.Item> items, PrintStream out) {
        List<Samples> all = new ArrayList<>();
        out.println(SweepReport.header(mpich != null));
        for (SweepGrid.Item item : items) {
            Samples s = measure(item);
            all.add(s);
            out.println(SweepReport.format(s.row(item), mpich != null));
        }
        return all;
    }

    private Samples measure(SweepGrid.Item item) {
        SweepPoint p = item.point();
        Datatype t = p.type();
        long bytes = p.packedBytes();
        long userBytes = Math.addExact(Math.multiplyExact(p.count() - 1, t.extent()), t.trueUb());
        HandLoops hand = new HandLoops(p);
        Target target = item.target();
        boolean pack = item.pack();
        try (Target.Buf user = target.allocate(userBytes);
                Target.Buf packed = target.allocate(bytes);
                Target.Buf check = target.allocate(bytes)) {
            user.fillPattern();
            Segment seg = Segment.of(t, p.count(), user.memory, 0);
            seg.pack(check.memory, 0, bytes);
            hand.run(user.base, user.address, packed.base, packed.address, HandLoops.Move.WORDS, true);
            if (!same(check, packed, bytes)) {
                throw new IllegalStateException(
                        "bench sweep: " + item.label() + ": the engine packed other bytes than the hand loop");
            }
            Runnable engine = PackSuite.engine(seg, packed.memory, bytes, pack);
            HandLoops.Move[] moves = HandLoops.Move.values();
            Runnable[] loops = new Runnable[moves.length];
            for (int i = 0; i < moves.length; i++) {
                HandLoops.Move m = moves[i];
                loops[i] = () -> hand.run(user.base, user.address, packed.base, packed.address, m, pack);
            }
            Meter.warmSteady(engine, bytes, p.blocksPerType() * p.count(), sliceNanos);
            Meter.warm(bytes, sliceNanos, 2, loops);
            int best = 0;
            double fastest = 0;
            for (int i = 0; i < loops.length; i++) {
                double v = Meter.mbPerSecond(loops[i], bytes, sliceNanos);
                if (v > fastest) {
                    fastest = v;
                    best = i;
                }
            }
            Runnable fastestLoop = loops[best];
            double sliceMs = sliceNanos / 1e6;
            DoubleSupplier handSlice = () -> Meter.mbPerSecond(fastestLoop, bytes, sliceNanos);
            DoubleSupplier engineSlice = () -> Meter.mbPerSecond(engine, bytes, sliceNanos);
            DoubleSupplier[] sides = mpich == null
                    ? new DoubleSupplier[] {handSlice, engineSlice}
                    : new DoubleSupplier[] {handSlice, engineSlice, () -> mpich.slice(p, pack, sliceMs)};
            double[][] s = PackSuite.adjacent(sides, pairs, Meter::jitMillis);
            long alloc = Meter.allocatedPerRun(engine, 5);
            double[] none = new double[pairs];
            java.util.Arrays.fill(none, Double.NaN);
            return new Samples(moves[best].label(), alloc, s[0], s[1], mpich == null ? none : s[2]);
        }
    }

    private static boolean same(Target.Buf a, Target.Buf b, long bytes) {
        for (long i = 0; i < bytes; i++) {
            if (Raw.U.getByte(a.base, a.address + i) != Raw.U.getByte(b.base, b.address + i)) {
                return false;
            }
        }
        return true;
    }
}
