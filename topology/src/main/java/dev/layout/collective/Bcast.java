package dev.layout.collective;

import dev.layout.comm.Communicator;

/** The bcast: the root sends its packed block to every rank (FULL), the remote group (INTER) or its out-neighbours (GRAPH). */
final class Bcast extends CollectiveAlgorithm {
    Bcast(Collectives owner) {
        super(owner);
    }

    Prepared prepareBcast(Block buffer, int root) {
        String op = "bcast";
        checkRoot(op, root);
        need(op, "buffer", buffer, "a Block");
        int me = comm.rank();
        return switch (comm.kind()) {
            case FULL ->
                new Prepared(op, seq -> {
                    if (me == root) {
                        byte[] data = buffer.pack();
                        for (int q = 0; q < comm.size(); q++) {
                            if (q != me) {
                                ch.send(op, seq, q, data);
                            }
                        }
                    } else {
                        receiveInto(op, "buffer", buffer, ch.receive(op, seq, root), root);
                    }
                });
            case INTER ->
                new Prepared(op, seq -> {
                    if (root == Communicator.ROOT) {
                        byte[] data = buffer.pack();
                        for (int q = 0; q < comm.remoteSize(); q++) {
                            ch.send(op, seq, q, data);
                        }
                    } else if (root >= 0) {
                        receiveInto(op, "buffer", buffer, ch.receive(op, seq, root), root);
                    }
                });
            case GRAPH -> {
                int[] s = graph().sources();
                int[] t = graph().destinations();
                yield new Prepared(op, seq -> {
                    if (me == root) {
                        byte[] data = buffer.pack();
                        for (int q : t) {
                            if (q != me) {
                                ch.send(op, seq, q, data);
                            }
                        }
                    } else {
                        for (int q : s) {
                            if (q == root) {
                                receiveInto(op, "buffer", buffer, ch.receive(op, seq, root), root);
                            }
                        }
                    }
                });
            }
        };
    }
}
