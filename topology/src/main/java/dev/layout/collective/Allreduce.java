package dev.layout.collective;

/** The allreduce: reduce then bcast on FULL and INTER; on a graph each rank folds its in-neighbours' blocks, directly or along the combining schedule. */
final class Allreduce extends CollectiveAlgorithm {
    Allreduce(Collectives owner) {
        super(owner);
    }

    Prepared prepareAllreduceBytes(byte[] send, byte[] recv, ReduceOp rop) {
        String op = "allreduce";
        checkOp(op, rop);
        checkOperand(op, "send", send, rop);
        checkOperand(op, "recv", recv, rop);
        return prepareAllreduce(ByteBlock.of(send), ByteBlock.of(recv), rop);
    }

    Prepared prepareAllreduce(Block send, Block recv, ReduceOp rop) {
        String op = "allreduce";
        checkOp(op, rop);
        checkOperand(op, "send", send, rop);
        checkOperand(op, "recv", recv, rop);
        if (send.byteSize() != recv.byteSize()) {
            throw new IllegalArgumentException(
                    op + ": recv length " + recv.byteSize() + " (expected: send length " + send.byteSize() + ")");
        }
        int me = comm.rank();
        int len = recv.byteSize();
        return switch (comm.kind()) {
            case FULL ->
                new Prepared(op, seq -> {
                    if (me == 0) {
                        Fold f = new Fold(op, rop, len);
                        for (int q = 0; q < comm.size(); q++) {
                            f.add(q == 0 ? send.pack() : ch.receive(op, seq, q), q);
                        }
                        byte[] result = f.result();
                        for (int q = 1; q < comm.size(); q++) {
                            ch.send(op, seq, q, result);
                        }
                        recv.unpack(result);
                    } else {
                        ch.send(op, seq, 0, send.pack());
                        receiveInto(op, "recv", recv, ch.receive(op, seq, 0), 0);
                    }
                });
            case INTER ->
                new Prepared(op, seq -> {
                    byte[] data = send.pack();
                    for (int q = 0; q < comm.remoteSize(); q++) {
                        ch.send(op, seq, q, data);
                    }
                    Fold f = new Fold(op, rop, len);
                    for (int q = 0; q < comm.remoteSize(); q++) {
                        f.add(ch.receive(op, seq, q), q);
                    }
                    f.writeTo(recv);
                });
            case GRAPH -> {
                Schedule sched = schedule(len, true);
                int[] s = graph().sources();
                yield new Prepared(
                        op,
                        seq -> {
                            byte[][] in = sched.allgather(ch, op, seq, send.pack());
                            Fold f = new Fold(op, rop, len);
                            for (int k = 0; k < in.length; k++) {
                                f.add(in[k], s[k]);
                            }
                            f.writeTo(recv);
                        },
                        sched);
            }
        };
    }
}
