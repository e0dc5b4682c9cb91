package dev.layout.comm;

import dev.layout.topology.RankExchange;

/**
 * The {@link RankExchange} of communicator creation: simple linear algorithms over a communicator's
 * collective channel (fully connected or graph; the channel ignores adjacency).
 */
final class Bootstrap implements RankExchange {

    private final CollectiveChannel ch;
    private final String op;

    Bootstrap(CollectiveChannel ch, String op) {
        this.ch = ch;
        this.op = op;
    }

    @Override
    public int rank() {
        return ch.rank();
    }

    @Override
    public int size() {
        return ch.size();
    }

    @Override
    public byte[] bcast(byte[] data, int root) {
        int seq = ch.nextSequence();
        if (rank() == root) {
            for (int q = 0; q < size(); q++) {
                if (q != root) {
                    ch.send(op, seq, q, data);
                }
            }
            return data.clone();
        }
        return ch.receive(op, seq, root);
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        int seq = ch.nextSequence();
        if (rank() != root) {
            ch.send(op, seq, root, data);
            return null;
        }
        byte[][] all = new byte[size()][];
        for (int q = 0; q < size(); q++) {
            all[q] = q == root ? data.clone() : ch.receive(op, seq, q);
        }
        return all;
    }

    @Override
    public byte[][] allgather(byte[] data) {
        byte[][] toEach = new byte[size()][];
        java.util.Arrays.fill(toEach, data);
        return alltoall(toEach);
    }

    @Override
    public byte[][] alltoall(byte[][] toEach) {
        int seq = ch.nextSequence();
        int me = rank();
        for (int q = 0; q < size(); q++) {
            if (q != me) {
                ch.send(op, seq, q, toEach[q]);
            }
        }
        byte[][] all = new byte[size()][];
        for (int q = 0; q < size(); q++) {
            all[q] = q == me ? toEach[q].clone() : ch.receive(op, seq, q);
        }
        return all;
    }
}
