package dev.layout.collective;

/** The alltoall, alltoallv and alltoallw: every form reduced to alltoallw; on a graph the direct or the message-combining schedule. */
final class Alltoall extends CollectiveAlgorithm {
    Alltoall(Collectives owner) {
        super(owner);
    }

    Prepared prepareAlltoall(byte[] send, byte[] recv, int blockBytes) {
        String op = "alltoall";
        if (blockBytes < 0) {
            throw new IllegalArgumentException(op + ": blockBytes " + blockBytes + " (expected: >= 0)");
        }
        int ns = sendBlockCount();
        int nr = recvBlockCount();
        return prepareAlltoallv(
                op,
                send,
                uniform(ns, blockBytes),
                displacements(ns, blockBytes),
                recv,
                uniform(nr, blockBytes),
                displacements(nr, blockBytes),
                blockBytes);
    }

    Prepared prepareAlltoallTyped(BlockSpec send, BlockSpec recv) {
        String op = "alltoall";
        need(op, "send", send, "a BlockSpec");
        need(op, "recv", recv, "a BlockSpec");
        return prepareAlltoallw(
                op, consecutive(send, sendBlockCount()), consecutive(recv, recvBlockCount()), send.byteSize());
    }

    Prepared prepareAlltoallv(
            String op,
            byte[] send,
            int[] sendCounts,
            int[] sdispls,
            byte[] recv,
            int[] recvCounts,
            int[] rdispls,
            long blockHint) {
        int ns = sendBlockCount();
        int nr = recvBlockCount();
        checkLayout(op, "send", send, "sendCounts", sendCounts, sdispls, ns);
        checkLayout(op, "recv", recv, "recvCounts", recvCounts, rdispls, nr);
        return prepareAlltoallw(
                op, byteBlocks(send, sendCounts, sdispls), byteBlocks(recv, recvCounts, rdispls), blockHint);
    }

    Prepared prepareAlltoallw(String op, Block[] send, Block[] recv, long blockHint) {
        int ns = sendBlockCount();
        int nr = recvBlockCount();
        checkBlocks(op, "send", send, ns);
        checkBlocks(op, "recv", recv, nr);
        Block[] sb = send.clone();
        Block[] rb = recv.clone();
        int me = comm.rank();
        return switch (comm.kind()) {
            case FULL ->
                new Prepared(op, seq -> {
                    byte[][] packed = packAll(sb);
                    for (int q = 0; q < ns; q++) {
                        if (q != me) {
                            send(op, seq, q, sb[q], packed[q]);
                        }
                    }
                    for (int q = 0; q < nr; q++) {
                        unpackExact(op, rb[q], q == me ? packed[q] : ch.receive(op, seq, q), q, q);
                    }
                });
            case INTER ->
                new Prepared(op, seq -> {
                    byte[][] packed = packAll(sb);
                    for (int q = 0; q < ns; q++) {
                        send(op, seq, q, sb[q], packed[q]);
                    }
                    for (int q = 0; q < nr; q++) {
                        unpackExact(op, rb[q], ch.receive(op, seq, q), q, q);
                    }
                });
            case GRAPH -> {
                Schedule sched = schedule(blockHint, false);
                int[] s = graph().sources();
                yield new Prepared(
                        op,
                        seq -> {
                            byte[][] in = sched.exchange(ch, op, seq, packAll(sb));
                            for (int k = 0; k < nr; k++) {
                                unpackExact(op, rb[k], in[k], k, s[k]);
                            }
                        },
                        sched);
            }
        };
    }

    /**
     * Sends block {@code b}'s packed bytes to {@code q}: the library's own blocks pack into a new
     * array that nothing else holds, so it is handed over to the transport without a copy; an
     * application's {@link Block} might return an array it keeps, which is sent with a copy.
     */
    private void send(String op, int seq, int q, Block b, byte[] packed) {
        if (b instanceof ByteBlock || b instanceof BlockSpec) {
            ch.sendOwned(op, seq, q, packed);
        } else {
            ch.send(op, seq, q, packed);
        }
    }

    private static byte[][] packAll(Block[] blocks) {
        byte[][] out = new byte[blocks.length][];
        for (int i = 0; i < blocks.length; i++) {
            out[i] = blocks[i].pack();
        }
        return out;
    }
}
