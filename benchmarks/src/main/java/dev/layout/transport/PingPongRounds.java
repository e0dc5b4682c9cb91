package dev.layout.transport;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The rounds of one {@link PingPongRow} on one process of {@link PingPongBenchmark}: every strategy once
 * per round, in a fresh order, on buffers the process keeps from row to row.
 */
final class PingPongRounds {
    /** How long a receive of the benchmark waits. */
    static final Duration T = Duration.ofSeconds(60);
    /** The strategies of a round: pack, gather, adaptive, then (index 3) the contiguous floor, (index 4) pack again. */
    private static final SendStrategy[] FIXED = {
        SendStrategy.PACK, SendStrategy.GATHER, SendStrategy.ADAPTIVE, null, SendStrategy.PACK
    };

    static final int STRATEGIES = FIXED.length;

    private PingPongRounds() {}

    /**
     * Plays one row on process {@code me} (0 leads and times, 1 echoes): two unmeasured rounds, then
     * {@code reps} rounds of pack, gather, adaptive, contiguous and pack again, interleaved. Returns every
     * measured round trip per strategy in microseconds ({@code [strategy][round]}, on process 0);
     * {@code chosen[strategy]} counts what the adaptive sends of the measured rounds used.
     */
    static double[][] measure(TcpTransport t, int me, PingPongRow row, int reps, int[] tag, int[] chosen)
            throws IOException {
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

    /**
     * "trace p0 vector 1048576 3: GATHER; log gap ...": what process {@code me}'s adaptive policy holds
     * for the row's messages after its measured rounds ({@code --trace}): the cell's incumbent, gap
     * estimate and pairs.
     */
    static String trace(TcpTransport t, int me, PingPongRow row) {
        Memory data = BUFFERS[0];
        Segment seg = Segment.of(row.type(), row.count(), data, 0);
        SendCell cell = t.sendPolicy().cell(1 - me, BlockEstimates.estimate(seg), seg.byteSize(), data.base() != null);
        return "trace p" + me + " " + row.label() + ": " + cell;
    }
}
