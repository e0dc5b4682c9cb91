package dev.layout.collective;

import dev.layout.topology.TopologyKind;

/** The reduce_scatter_block: a reduce whose result is cut into equal blocks, block i to rank i (refused on graphs). */
final class ReduceScatterBlock extends CollectiveAlgorithm {
    ReduceScatterBlock(Collectives owner) {
        super(owner);
    }

    Prepared prepareReduceScatterBlockBytes(byte[] send, byte[] recv, ReduceOp rop) {
        String op = "reduceScatterBlock";
        refuseOnGraph(op);
        checkOp(op, rop);
        checkOperand(op, "recv", recv, rop);
        notNull(op, "send", send);
        return prepareReduceScatterBlock(ByteBlock.of(send), ByteBlock.of(recv), rop);
    }

    Prepared prepareReduceScatterBlock(Block send, Block recv, ReduceOp rop) {
        String op = "reduceScatterBlock";
        refuseOnGraph(op);
        checkOp(op, rop);
        checkOperand(op, "recv", recv, rop);
        need(op, "send", send, "a Block");
        int peers = sendBlockCount();
        int bs = recv.byteSize();
        if ((long) peers * bs != send.byteSize()) {
            throw new IllegalArgumentException(op + ": send length " + send.byteSize() + " (expected: " + peers
                    + " blocks of recv length " + bs + ")");
        }
        int me = comm.rank();
        boolean inter = comm.kind() == TopologyKind.INTER;
        return new Prepared(op, seq -> {
            byte[] packed = send.pack();
            for (int q = 0; q < peers; q++) {
                if (inter || q != me) {
                    ch.send(op, seq, q, slice(packed, q * bs, bs));
                }
            }
            Fold f = new Fold(op, rop, bs);
            for (int q = 0; q < peers; q++) {
                f.add(!inter && q == me ? slice(packed, me * bs, bs) : ch.receive(op, seq, q), q);
            }
            f.writeTo(recv);
        });
    }
}
