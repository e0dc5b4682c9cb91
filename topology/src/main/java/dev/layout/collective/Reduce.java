package dev.layout.collective;

import dev.layout.topology.TopologyKind;

/** The reduce: operands folded in rank order (FULL), from the remote group (INTER) or in in-neighbour order (GRAPH) at the root. */
final class Reduce extends CollectiveAlgorithm {
    Reduce(Collectives owner) {
        super(owner);
    }

    Prepared prepareReduceBytes(byte[] send, byte[] recv, ReduceOp rop, int root) {
        String op = "reduce";
        checkRoot(op, root);
        checkOp(op, rop);
        boolean sends = comm.kind() != TopologyKind.INTER || root >= 0;
        if (sends) {
            checkOperand(op, "send", send, rop);
        }
        if (isRoot(root)) {
            checkOperand(op, "recv", recv, rop);
        }
        return prepareReduce(
                send == null ? null : ByteBlock.of(send), recv == null ? null : ByteBlock.of(recv), rop, root);
    }

    Prepared prepareReduce(Block send, Block recv, ReduceOp rop, int root) {
        String op = "reduce";
        checkRoot(op, root);
        checkOp(op, rop);
        int me = comm.rank();
        boolean atRoot = isRoot(root);
        boolean sends = comm.kind() != TopologyKind.INTER || root >= 0;
        if (sends) {
            checkOperand(op, "send", send, rop);
        }
        if (atRoot) {
            checkOperand(op, "recv", recv, rop);
            if (send != null && comm.kind() != TopologyKind.INTER && send.byteSize() != recv.byteSize()) {
                throw new IllegalArgumentException(
                        op + ": recv length " + recv.byteSize() + " (expected: send length " + send.byteSize() + ")");
            }
        }
        return switch (comm.kind()) {
            case FULL ->
                new Prepared(op, seq -> {
                    if (atRoot) {
                        Fold f = new Fold(op, rop, recv.byteSize());
                        for (int q = 0; q < comm.size(); q++) {
                            f.add(q == me ? send.pack() : ch.receive(op, seq, q), q);
                        }
                        f.writeTo(recv);
                    } else {
                        ch.send(op, seq, root, send.pack());
                    }
                });
            case INTER ->
                new Prepared(op, seq -> {
                    if (atRoot) {
                        Fold f = new Fold(op, rop, recv.byteSize());
                        for (int q = 0; q < comm.remoteSize(); q++) {
                            f.add(ch.receive(op, seq, q), q);
                        }
                        f.writeTo(recv);
                    } else if (root >= 0) {
                        ch.send(op, seq, root, send.pack());
                    }
                });
            case GRAPH -> {
                int[] s = graph().sources();
                int[] t = graph().destinations();
                yield new Prepared(op, seq -> {
                    if (atRoot) {
                        Fold f = new Fold(op, rop, recv.byteSize());
                        byte[] own = null;
                        for (int q : s) {
                            if (q == me && own == null) {
                                own = send.pack();
                            }
                            f.add(q == me ? own : ch.receive(op, seq, q), q);
                        }
                        f.writeTo(recv);
                    } else {
                        byte[] data = null;
                        for (int q : t) {
                            if (q == root) {
                                if (data == null) {
                                    data = send.pack();
                                }
                                ch.send(op, seq, root, data);
                            }
                        }
                    }
                });
            }
        };
    }
}
