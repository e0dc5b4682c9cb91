package dev.layout.collective;

/** The barrier: FULL gathers at rank 0 and releases everyone; INTER every rank with every remote rank; GRAPH waits for the in-neighbours. */
final class Barrier extends CollectiveAlgorithm {
    Barrier(Collectives owner) {
        super(owner);
    }

    Prepared prepareBarrier() {
        String op = "barrier";
        byte[] empty = new byte[0];
        int me = comm.rank();
        return switch (comm.kind()) {
            case FULL ->
                new Prepared(op, seq -> {
                    if (me == 0) {
                        for (int q = 1; q < comm.size(); q++) {
                            ch.receive(op, seq, q);
                        }
                        for (int q = 1; q < comm.size(); q++) {
                            ch.send(op, seq, q, empty);
                        }
                    } else {
                        ch.send(op, seq, 0, empty);
                        ch.receive(op, seq, 0);
                    }
                });
            case INTER ->
                new Prepared(op, seq -> {
                    for (int q = 0; q < comm.remoteSize(); q++) {
                        ch.send(op, seq, q, empty);
                    }
                    for (int q = 0; q < comm.remoteSize(); q++) {
                        ch.receive(op, seq, q);
                    }
                });
            case GRAPH -> {
                int[] s = graph().sources();
                int[] t = graph().destinations();
                yield new Prepared(op, seq -> {
                    for (int q : t) {
                        if (q != me) {
                            ch.send(op, seq, q, empty);
                        }
                    }
                    for (int q : s) {
                        if (q != me) {
                            ch.receive(op, seq, q);
                        }
                    }
                });
            }
        };
    }
}
