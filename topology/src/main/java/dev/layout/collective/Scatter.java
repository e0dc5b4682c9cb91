package dev.layout.collective;

import dev.layout.topology.TopologyKind;
import java.util.ArrayDeque;

/** The scatter and scatterv: every byte and typed form reduced to one block-per-receiver scatterv. */
final class Scatter extends CollectiveAlgorithm {
    Scatter(Collectives owner) {
        super(owner);
    }

    Prepared prepareScatter(byte[] send, byte[] recv, int root) {
        String op = "scatter";
        checkRoot(op, root);
        if (!isRoot(root)) {
            return prepareScattervBytes(op, send, null, null, recv, root);
        }
        notNull(op, "send", send);
        int n = rootBlockCount(true);
        if (n > 0 && send.length % n != 0) {
            throw new IllegalArgumentException(
                    op + ": send length " + send.length + " (expected: a multiple of the block count " + n + ")");
        }
        int bs = n == 0 ? 0 : send.length / n;
        return prepareScattervBytes(op, send, uniform(n, bs), displacements(n, bs), recv, root);
    }

    Prepared prepareScatterTyped(BlockSpec send, Block recv, int root) {
        String op = "scatter";
        checkRoot(op, root);
        Block[] blocks = null;
        if (isRoot(root)) {
            need(op, "send", send, "a BlockSpec");
            blocks = consecutive(send, rootBlockCount(true));
        }
        return prepareScatterv(op, blocks, recv, root);
    }

    Prepared prepareScattervBytes(String op, byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
        checkRoot(op, root);
        Block[] blocks = null;
        if (isRoot(root)) {
            checkLayout(op, "send", send, "sendCounts", sendCounts, displs, rootBlockCount(true));
            blocks = byteBlocks(send, sendCounts, displs);
        }
        boolean receives = comm.kind() != TopologyKind.INTER || root >= 0;
        if (receives) {
            notNull(op, "recv", recv);
        }
        return prepareScatterv(op, blocks, recv == null ? null : ByteBlock.of(recv), root);
    }

    Prepared prepareScatterv(String op, Block[] send, Block recv, int root) {
        checkRoot(op, root);
        int me = comm.rank();
        boolean atRoot = isRoot(root);
        if (atRoot) {
            checkBlocks(op, "send", send, rootBlockCount(true));
        }
        boolean receives = comm.kind() != TopologyKind.INTER || root >= 0;
        if (receives) {
            need(op, "recv", recv, "a Block");
        }
        Block[] sb = send == null ? null : send.clone();
        return switch (comm.kind()) {
            case FULL ->
                new Prepared(op, seq -> {
                    if (atRoot) {
                        for (int q = 0; q < comm.size(); q++) {
                            byte[] b = sb[q].pack();
                            if (q == me) {
                                receiveInto(op, "recv", recv, b, q);
                            } else {
                                ch.send(op, seq, q, b);
                            }
                        }
                    } else {
                        receiveInto(op, "recv", recv, ch.receive(op, seq, root), root);
                    }
                });
            case INTER ->
                new Prepared(op, seq -> {
                    if (atRoot) {
                        for (int q = 0; q < comm.remoteSize(); q++) {
                            ch.send(op, seq, q, sb[q].pack());
                        }
                    } else if (root >= 0) {
                        receiveInto(op, "recv", recv, ch.receive(op, seq, root), root);
                    }
                });
            case GRAPH -> {
                int[] s = graph().sources();
                int[] t = graph().destinations();
                yield new Prepared(op, seq -> {
                    ArrayDeque<byte[]> self = new ArrayDeque<>();
                    if (atRoot) {
                        for (int i = 0; i < t.length; i++) {
                            byte[] b = sb[i].pack();
                            if (t[i] == me) {
                                self.addLast(b);
                            } else {
                                ch.send(op, seq, t[i], b);
                            }
                        }
                    }
                    java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
                    int blocks = 0;
                    for (int q : s) {
                        if (q != root) {
                            continue;
                        }
                        byte[] b = q == me ? self.pollFirst() : ch.receive(op, seq, root);
                        if (b == null || got.size() + b.length > recv.byteSize()) {
                            throw new IllegalArgumentException(op + ": recv length " + recv.byteSize()
                                    + " (expected: room for block " + blocks + " from root " + root + ")");
                        }
                        got.writeBytes(b);
                        blocks++;
                    }
                    if (blocks > 0) {
                        unpackPrefix(op, recv, got.toByteArray(), root);
                    }
                });
            }
        };
    }

    /** Unpacks the first data.length bytes of recv's packed stream (the consecutive blocks of a graph scatter). */
    private void unpackPrefix(String op, Block recv, byte[] data, int root) {
        if (data.length == recv.byteSize()) {
            recv.unpack(data);
        } else if (recv instanceof ByteBlock b) {
            new ByteBlock(b.buffer(), b.byteOffset(), data.length).unpack(data);
        } else if (recv instanceof BlockSpec b) {
            b.unpackPrefix(data);
        } else {
            throw new IllegalArgumentException(op + ": recv size " + recv.byteSize() + " (expected: the " + data.length
                    + " bytes of the blocks from root " + root + ")");
        }
    }
}
