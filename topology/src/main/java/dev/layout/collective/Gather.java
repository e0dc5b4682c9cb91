package dev.layout.collective;

import dev.layout.topology.TopologyKind;

/** The gather and gatherv: every byte and typed form reduced to one block-per-sender gatherv. */
final class Gather extends CollectiveAlgorithm {
    Gather(Collectives owner) {
        super(owner);
    }

    Prepared prepareGather(byte[] send, byte[] recv, int root) {
        String op = "gather";
        checkRoot(op, root);
        if (!isRoot(root)) {
            return prepareGathervBytes(op, send, recv, null, null, root);
        }
        int n = rootBlockCount(false);
        int bs;
        if (comm.kind() == TopologyKind.INTER) {
            notNull(op, "recv", recv);
            bs = n == 0 ? 0 : recv.length / n;
        } else {
            notNull(op, "send", send);
            bs = send.length;
        }
        return prepareGathervBytes(op, send, recv, uniform(n, bs), displacements(n, bs), root);
    }

    Prepared prepareGatherTyped(Block send, BlockSpec recv, int root) {
        String op = "gather";
        checkRoot(op, root);
        Block[] blocks = null;
        if (isRoot(root)) {
            need(op, "recv", recv, "a BlockSpec");
            blocks = consecutive(recv, rootBlockCount(false));
        }
        return prepareGatherv(op, "recv", send, blocks, root);
    }

    Prepared prepareGathervBytes(String op, byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
        checkRoot(op, root);
        Block[] blocks = null;
        if (isRoot(root)) {
            int n = rootBlockCount(false);
            checkLayout(op, "recv", recv, "recvCounts", recvCounts, displs, n);
            blocks = byteBlocks(recv, recvCounts, displs);
        }
        boolean sends = comm.kind() != TopologyKind.INTER || root >= 0;
        if (sends) {
            notNull(op, "send", send);
        }
        return prepareGatherv(op, "recvCounts", send == null ? null : ByteBlock.of(send), blocks, root);
    }

    Prepared prepareGatherv(String op, String recvName, Block send, Block[] recv, int root) {
        checkRoot(op, root);
        int me = comm.rank();
        boolean atRoot = isRoot(root);
        if (atRoot) {
            checkBlocks(op, recvName, recv, rootBlockCount(false));
        }
        if (comm.kind() != TopologyKind.INTER || root >= 0) {
            need(op, "send", send, "a Block");
        }
        Block[] rb = recv == null ? null : recv.clone();
        return switch (comm.kind()) {
            case FULL ->
                new Prepared(op, seq -> {
                    if (atRoot) {
                        for (int q = 0; q < comm.size(); q++) {
                            byte[] b = q == me ? send.pack() : ch.receive(op, seq, q);
                            receiveInto(op, recvName + "[" + q + "]", rb[q], b, q);
                        }
                    } else {
                        ch.send(op, seq, root, send.pack());
                    }
                });
            case INTER ->
                new Prepared(op, seq -> {
                    if (atRoot) {
                        for (int q = 0; q < comm.remoteSize(); q++) {
                            receiveInto(op, recvName + "[" + q + "]", rb[q], ch.receive(op, seq, q), q);
                        }
                    } else if (root >= 0) {
                        ch.send(op, seq, root, send.pack());
                    }
                });
            case GRAPH -> {
                int[] s = graph().sources();
                int[] t = graph().destinations();
                yield new Prepared(op, seq -> {
                    if (atRoot) {
                        for (int k = 0; k < s.length; k++) {
                            byte[] b = s[k] == me ? send.pack() : ch.receive(op, seq, s[k]);
                            receiveInto(op, recvName + "[" + k + "]", rb[k], b, s[k]);
                        }
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
