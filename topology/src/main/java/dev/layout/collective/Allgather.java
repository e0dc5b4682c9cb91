package dev.layout.collective;

/**
 * The allgather and allgatherv: every form reduced to one block-per-peer allgatherv; on a graph the
 * direct or the prefix-tree schedule. And allgatherAny, whose arrays carry their own lengths.
 */
final class Allgather extends CollectiveAlgorithm {
    Allgather(Collectives owner) {
        super(owner);
    }

    Prepared prepareAllgather(byte[] send, byte[] recv) {
        notNull("allgather", "send", send);
        int n = recvBlockCount();
        return prepareAllgathervBytes(
                "allgather", send, recv, uniform(n, send.length), displacements(n, send.length), send.length);
    }

    Prepared prepareAllgatherTyped(Block send, BlockSpec recv) {
        String op = "allgather";
        need(op, "send", send, "a Block");
        need(op, "recv", recv, "a BlockSpec");
        return prepareAllgatherv(op, send, consecutive(recv, recvBlockCount()), send.byteSize());
    }

    Prepared prepareAllgathervBytes(
            String op, byte[] send, byte[] recv, int[] recvCounts, int[] displs, long blockHint) {
        notNull(op, "send", send);
        int n = recvBlockCount();
        checkLayout(op, "recv", recv, "recvCounts", recvCounts, displs, n);
        return prepareAllgatherv(op, ByteBlock.of(send), byteBlocks(recv, recvCounts, displs), blockHint);
    }

    Prepared prepareAllgatherv(String op, Block send, Block[] recv, long blockHint) {
        need(op, "send", send, "a Block");
        int nr = recvBlockCount();
        checkBlocks(op, "recv", recv, nr);
        Block[] rb = recv.clone();
        int me = comm.rank();
        return switch (comm.kind()) {
            case FULL ->
                new Prepared(op, seq -> {
                    byte[] data = send.pack();
                    for (int q = 0; q < comm.size(); q++) {
                        if (q != me) {
                            ch.send(op, seq, q, data);
                        }
                    }
                    for (int q = 0; q < nr; q++) {
                        unpackExact(op, rb[q], q == me ? data : ch.receive(op, seq, q), q, q);
                    }
                });
            case INTER ->
                new Prepared(op, seq -> {
                    byte[] data = send.pack();
                    for (int q = 0; q < comm.remoteSize(); q++) {
                        ch.send(op, seq, q, data);
                    }
                    for (int q = 0; q < nr; q++) {
                        unpackExact(op, rb[q], ch.receive(op, seq, q), q, q);
                    }
                });
            case GRAPH -> {
                Schedule sched = schedule(blockHint, true);
                int[] s = graph().sources();
                yield new Prepared(
                        op,
                        seq -> {
                            byte[][] in = sched.allgather(ch, op, seq, send.pack());
                            for (int k = 0; k < nr; k++) {
                                unpackExact(op, rb[k], in[k], k, s[k]);
                            }
                        },
                        sched);
            }
        };
    }

    /**
     * Every rank's whole array, of whatever length it sent, into {@code recv[i]}: one round, where
     * an allgatherv needs the counts agreed first (a transport message knows its own length). A
     * graph uses the direct schedule (the combining one merges blocks of one size).
     */
    Prepared prepareAllgatherAny(byte[] send, byte[][] recv) {
        String op = "allgatherAny";
        notNull(op, "send", send);
        int nr = recvBlockCount();
        if (recv == null || recv.length != nr) {
            throw new IllegalArgumentException(op + ": recv slots " + (recv == null ? "null" : recv.length)
                    + " (expected: " + nr + ", one per block received)");
        }
        int me = comm.rank();
        return switch (comm.kind()) {
            case FULL ->
                new Prepared(op, seq -> {
                    for (int q = 0; q < comm.size(); q++) {
                        if (q != me) {
                            ch.send(op, seq, q, send);
                        }
                    }
                    for (int q = 0; q < nr; q++) {
                        recv[q] = q == me ? send.clone() : ch.receive(op, seq, q);
                    }
                });
            case INTER ->
                new Prepared(op, seq -> {
                    for (int q = 0; q < nr; q++) {
                        ch.send(op, seq, q, send);
                    }
                    for (int q = 0; q < nr; q++) {
                        recv[q] = ch.receive(op, seq, q);
                    }
                });
            case GRAPH -> {
                Schedule direct = Schedule.direct(graph(), me);
                yield new Prepared(
                        op,
                        seq -> {
                            System.arraycopy(direct.allgather(ch, op, seq, send), 0, recv, 0, nr);
                        },
                        direct);
            }
        };
    }
}
