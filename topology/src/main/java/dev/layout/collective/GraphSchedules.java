package dev.layout.collective;

import dev.layout.comm.Communicator;
import dev.layout.topology.DistGraph;
import dev.layout.topology.TopologyKind;

/**
 * Which {@link Schedule} the neighbourhood exchanges of one graph communicator run: the policy
 * decides (AUTO asks the {@link ScheduleSelector} for the block size at hand), and each of the two
 * schedules is computed once, on first use, and kept.
 */
final class GraphSchedules {
    private final Communicator comm;
    private final SchedulePolicy policy;
    private final ScheduleSelector selector;
    private Schedule direct;
    private Schedule combining;

    GraphSchedules(Communicator comm, SchedulePolicy policy, ScheduleSelector selector) {
        this.comm = comm;
        this.policy = policy;
        this.selector = selector;
    }

    SchedulePolicy policy() {
        return policy;
    }

    ScheduleSelector selector() {
        return selector;
    }

    /**
     * The schedule for blocks of {@code blockBytes} (0 if unknown); {@code sameBlock}: every
     * neighbour gets the same block (allgather, allreduce), for which AUTO asks {@link
     * ScheduleSelector#chooseAllgather}.
     *
     * @throws IllegalArgumentException if the communicator is not a graph, or COMBINING is forced on
     *     a general graph
     */
    Schedule choose(long blockBytes, boolean sameBlock) {
        if (comm.kind() != TopologyKind.GRAPH) {
            throw new IllegalArgumentException("schedule: topology " + comm.kind() + " (expected: GRAPH)");
        }
        DistGraph g = (DistGraph) comm.topology();
        Schedule.Kind kind =
                switch (policy) {
                    case DIRECT -> Schedule.Kind.DIRECT;
                    case COMBINING -> Schedule.Kind.COMBINING;
                    case AUTO -> sameBlock ? selector.chooseAllgather(g, blockBytes) : selector.choose(g, blockBytes);
                };
        synchronized (this) {
            if (kind == Schedule.Kind.DIRECT) {
                if (direct == null) {
                    direct = Schedule.direct(g, comm.rank());
                }
                return direct;
            }
            if (combining == null) {
                combining = Schedule.combining(g, comm.rank());
            }
            return combining;
        }
    }
}
