package dev.layout.collective;

import dev.layout.comm.CollectiveChannel;
import dev.layout.topology.DistGraph;
import java.util.ArrayDeque;

/**
 * One message per out-neighbour; a rank listed k times gets k messages, matched in order (the
 * transport does not overtake). Self-loops are local copies.
 */
final class DirectSchedule implements Schedule {

    private final int[] sources;
    private final int[] destinations;
    private final int rank;
    private final int messages;

    DirectSchedule(DistGraph g, int rank) {
        this.sources = g.sources();
        this.destinations = g.destinations();
        this.rank = rank;
        int m = 0;
        for (int t : destinations) {
            if (t != rank) {
                m++;
            }
        }
        this.messages = m;
    }

    @Override
    public Kind kind() {
        return Kind.DIRECT;
    }

    @Override
    public int messagesPerCall() {
        return messages;
    }

    @Override
    public byte[][] exchange(CollectiveChannel ch, String op, int seq, byte[][] send) {
        ArrayDeque<byte[]> self = new ArrayDeque<>();
        for (int i = 0; i < destinations.length; i++) {
            if (destinations[i] == rank) {
                self.addLast(send[i]);
            } else {
                ch.send(op, seq, destinations[i], send[i]);
            }
        }
        byte[][] recv = new byte[sources.length][];
        for (int k = 0; k < sources.length; k++) {
            if (sources[k] == rank) {
                byte[] b = self.pollFirst();
                if (b == null) {
                    throw new IllegalStateException(
                            op + ": rank " + rank + " lists itself as in-neighbour more often than as out-neighbour");
                }
                recv[k] = b.clone();
            } else {
                recv[k] = ch.receive(op, seq, sources[k]);
            }
        }
        return recv;
    }

    @Override
    public byte[][] allgather(CollectiveChannel ch, String op, int seq, byte[] block) {
        byte[][] send = new byte[destinations.length][];
        java.util.Arrays.fill(send, block);
        return exchange(ch, op, seq, send);
    }

    @Override
    public int allgatherMessagesPerCall() {
        return messages;
    }

    @Override
    public int allgatherBlocksPerCall() {
        return messages;
    }

    @Override
    public String toString() {
        return "direct(" + messages + " messages)";
    }
}
