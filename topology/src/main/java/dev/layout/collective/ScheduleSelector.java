package dev.layout.collective;

import dev.layout.topology.Cartesianity;
import dev.layout.topology.DistGraph;

/**
 * Picks the direct or the message-combining schedule by a latency/bandwidth cost model: direct
 * costs {@code t*(latency + b*perByte)}, combining {@code m*latency + f*b*perByte} with t = |V|
 * neighbours, m the distinct non-zero offset values summed over dimensions and f the blocks
 * forwarded (non-zero coordinates summed over V). The inputs are the same at every rank (V is
 * global, and b is the common block size of alltoall/allgather/allreduce), so all ranks choose the
 * same schedule without communicating. For the v and w forms, whose block sizes differ between
 * ranks, b is taken as 0: the message count alone decides (force a policy to override).
 *
 * <pre>{@code
 * new ScheduleSelector(2e-6, 1e-9).choose(graph, 8);   // COMBINING for a 9-point stencil
 * }</pre>
 */
public record ScheduleSelector(double latencySeconds, double secondsPerByte) {

    /** About 2 microseconds per message and 1 GB/s. */
    public static final ScheduleSelector DEFAULT = new ScheduleSelector(2e-6, 1e-9);

    public ScheduleSelector {
        if (!(latencySeconds >= 0)) {
            throw new IllegalArgumentException(
                    "scheduleSelector: latencySeconds " + latencySeconds + " (expected: >= 0)");
        }
        if (!(secondsPerByte >= 0)) {
            throw new IllegalArgumentException(
                    "scheduleSelector: secondsPerByte " + secondsPerByte + " (expected: >= 0)");
        }
    }

    /** The schedule kind for blocks of {@code blockBytes} (0 when unknown) on {@code graph}. */
    public Schedule.Kind choose(DistGraph graph, long blockBytes) {
        Cartesianity c = graph.cartesianity();
        return c.isCartesian() ? cheaper(c, blockBytes, CombiningSchedule.forwardedBlocks(c)) : Schedule.Kind.DIRECT;
    }

    /**
     * The schedule kind for allgather and allreduce (one block of {@code blockBytes} for every
     * neighbour): combining costs {@code m*latency + e*b*perByte} with e the edges of the prefix
     * tree of V (e = |V| for a full cube, never more), so it wins whenever it saves messages.
     */
    public Schedule.Kind chooseAllgather(DistGraph graph, long blockBytes) {
        Cartesianity c = graph.cartesianity();
        return c.isCartesian() ? cheaper(c, blockBytes, PrefixTreeAllgather.treeEdges(c)) : Schedule.Kind.DIRECT;
    }

    /**
     * Direct costs {@code t*(latency + b*perByte)} for the t offsets; combining costs {@code
     * m*latency + moved*b*perByte} for its m phase messages moving {@code movedBlocks} blocks.
     */
    private Schedule.Kind cheaper(Cartesianity c, long blockBytes, int movedBlocks) {
        int t = c.offsets().size();
        int m = CombiningSchedule.phaseMessages(c);
        double b = Math.max(0, blockBytes);
        double direct = t * (latencySeconds + b * secondsPerByte);
        double combining = m * latencySeconds + movedBlocks * b * secondsPerByte;
        return combining < direct ? Schedule.Kind.COMBINING : Schedule.Kind.DIRECT;
    }
}
