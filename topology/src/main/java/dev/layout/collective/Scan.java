package dev.layout.collective;

import dev.layout.topology.TopologyKind;

/** The scan and exscan: prefix reductions in rank order (refused on graphs and inter-communicators). */
final class Scan extends CollectiveAlgorithm {
    Scan(Collectives owner) {
        super(owner);
    }

    Prepared prepareScanBytes(String op, byte[] send, byte[] recv, ReduceOp rop, boolean exclusive) {
        refuseScan(op);
        checkOp(op, rop);
        checkOperand(op, "send", send, rop);
        checkOperand(op, "recv", recv, rop);
        return prepareScan(op, ByteBlock.of(send), ByteBlock.of(recv), rop, exclusive);
    }

    private void refuseScan(String op) {
        refuseOnGraph(op);
        if (comm.kind() == TopologyKind.INTER) {
            throw new UnsupportedOperationException(op + ": undefined on a bipartite (inter) topology");
        }
    }

    Prepared prepareScan(String op, Block send, Block recv, ReduceOp rop, boolean exclusive) {
        refuseScan(op);
        checkOp(op, rop);
        checkOperand(op, "send", send, rop);
        checkOperand(op, "recv", recv, rop);
        int len = send.byteSize();
        if (len != recv.byteSize()) {
            throw new IllegalArgumentException(
                    op + ": recv length " + recv.byteSize() + " (expected: send length " + len + ")");
        }
        int me = comm.rank();
        int p = comm.size();
        return new Prepared(op, seq -> {
            byte[] partial = send.pack();
            if (me > 0) {
                byte[] before = ch.receive(op, seq, me - 1);
                if (before.length != len) {
                    throw new IllegalArgumentException(op + ": partial from rank " + (me - 1) + " has " + before.length
                            + " bytes (expected: " + len + ")");
                }
                if (exclusive) {
                    recv.unpack(before.clone());
                }
                rop.combine(before, partial);
                partial = before;
            }
            if (me + 1 < p) {
                ch.send(op, seq, me + 1, partial);
            }
            if (!exclusive) {
                recv.unpack(partial);
            }
        });
    }
}
