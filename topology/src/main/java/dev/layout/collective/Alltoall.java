package dev.layout.collective;

import dev.layout.transport.Transport;
import dev.layout.transport.TypedRegion;

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
            case FULL -> new Prepared(op, seq -> exchange(op, seq, sb, rb, me));
            case INTER -> new Prepared(op, seq -> exchange(op, seq, sb, rb, -1));
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
     * One round on a full or bipartite communicator, receiver-posted: every rank first posts a receive
     * for each peer's block (never blocking), then sends each of its blocks to the receive its peer
     * posted, then waits for its own receives. A transport within one JVM copies each block straight
     * from the sender's memory into the receiver's with one engine pass; a network transport packs,
     * sends and unpacks ({@link dev.layout.transport.Transport#postReceive}). Blocks that are not
     * {@link TypedBlock}s go through an array. {@code self} is this rank's own block index (-1: none).
     *
     * <p>A block of zero bytes is no message, as in MPICH's alltoallw: MPI requires both sides of a
     * pair to agree on its size, so both skip it alike, and no sender waits for a receiver that
     * expects nothing from it (in two-phase I/O most pairs of a round are empty).
     *
     * <p>A failure at one step (a post, a send whose copy throws, the own block) is kept and thrown
     * at the end, after every other step was still taken: each peer waits for its own block, and
     * the receives are awaited in full, so no sender writes into this rank's memory after the call.
     */
    private void exchange(String op, int seq, Block[] sb, Block[] rb, int self) {
        int ns = sb.length;
        int nr = rb.length;
        byte[][] staged = new byte[nr][]; // the receive arrays of blocks that are not TypedBlocks
        Transport.PostedReceive[] posted = new Transport.PostedReceive[nr];
        RuntimeException failure = null;
        // Every step is tried for every peer whatever failed before: each peer waits for its own
        // block, and a peer left without one would wait for the communicator's timeout.
        for (int q = 0; q < nr; q++) {
            if (q != self && rb[q].byteSize() > 0) {
                try {
                    TypedRegion into;
                    if (rb[q] instanceof TypedBlock t) {
                        into = t.region();
                    } else {
                        staged[q] = new byte[rb[q].byteSize()];
                        into = TypedRegion.ofArray(staged[q]);
                    }
                    posted[q] = ch.postReceive(op, seq, q, into);
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
        }
        for (int q = 0; q < ns; q++) {
            if (q != self && sb[q].byteSize() > 0) {
                try {
                    ch.sendToPosted(
                            op, seq, q, sb[q] instanceof TypedBlock t ? t.region() : TypedRegion.ofArray(sb[q].pack()));
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
        }
        if (self >= 0) {
            try {
                if (sb[self] instanceof TypedBlock s
                        && rb[self] instanceof TypedBlock r
                        && s.byteSize() == r.byteSize()) {
                    TypedRegion.copy(s.region(), r.region());
                } else {
                    unpackExact(op, rb[self], sb[self].pack(), self, self);
                }
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        // wait for every posted receive (its sender is in this round too), so that no sender writes
        // into this rank's memory after the call
        for (int q = 0; q < nr; q++) {
            if (posted[q] == null) {
                continue;
            }
            try {
                long got = ch.await(op, q, posted[q]);
                if (got != rb[q].byteSize()) {
                    throw new IllegalArgumentException(op + ": block " + q + " from rank " + q + " has " + got
                            + " bytes (expected: " + rb[q].byteSize() + " at rank " + comm.rank()
                            + (got == 0
                                    ? "; rank " + q + " sent an empty block: it failed, or the sizes disagree)"
                                    : ")"));
                }
                if (staged[q] != null) {
                    rb[q].unpack(staged[q]);
                }
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
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
