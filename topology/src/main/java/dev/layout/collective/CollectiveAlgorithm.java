package dev.layout.collective;

import dev.layout.comm.CollectiveChannel;
import dev.layout.comm.Communicator;
import dev.layout.datatype.Primitive;
import dev.layout.topology.DistGraph;
import dev.layout.topology.TopologyKind;

/**
 * What the collective algorithms share: the communicator and its collective channel, the schedule
 * of a graph communicator (from the {@link Collectives} that owns them), and the argument checks
 * and block helpers every operation uses. Each subclass prepares one family of operations: checks
 * the arguments once and returns the {@link Prepared} body that the blocking, non-blocking and
 * persistent forms run.
 */
abstract class CollectiveAlgorithm {
    final Communicator comm;
    final CollectiveChannel ch;
    private final GraphSchedules schedules;

    CollectiveAlgorithm(Collectives owner) {
        this.schedules = owner.schedules();
        this.comm = owner.communicator();
        this.ch = comm.channel();
    }

    /** The schedule of this graph communicator for blocks of blockBytes (see {@link GraphSchedules#choose}). */
    Schedule schedule(long blockBytes, boolean sameBlock) {
        return schedules.choose(blockBytes, sameBlock);
    }

    DistGraph graph() {
        return (DistGraph) comm.topology();
    }

    boolean isRoot(int root) {
        return comm.kind() == TopologyKind.INTER ? root == Communicator.ROOT : comm.rank() == root;
    }

    /** Blocks at the root: p, indegree (gather) / outdegree (scatter), or the remote size. */
    int rootBlockCount(boolean outgoing) {
        return switch (comm.kind()) {
            case FULL -> comm.size();
            case INTER -> comm.remoteSize();
            case GRAPH -> outgoing ? graph().outdegree() : graph().indegree();
        };
    }

    int sendBlockCount() {
        return switch (comm.kind()) {
            case FULL -> comm.size();
            case INTER -> comm.remoteSize();
            case GRAPH -> graph().outdegree();
        };
    }

    int recvBlockCount() {
        return switch (comm.kind()) {
            case FULL -> comm.size();
            case INTER -> comm.remoteSize();
            case GRAPH -> graph().indegree();
        };
    }

    void unpackExact(String op, Block block, byte[] data, int index, int from) {
        if (data.length != block.byteSize()) {
            throw new IllegalArgumentException(op + ": block " + index + " from rank " + from + " has " + data.length
                    + " bytes (expected: " + block.byteSize() + " at rank " + comm.rank() + ")");
        }
        block.unpack(data);
    }

    /** The per-primitive operation for typed reductions, checking both sides' signatures. */
    static ReduceOp typedOp(String op, BlockSpec send, BlockSpec recv, Reduction r) {
        if (r == null) {
            throw new IllegalArgumentException(op + ": op null (expected: a Reduction)");
        }
        if (send == null && recv == null) {
            // nothing to reduce at this rank (an INTER rank outside the root's group passing PROC_NULL);
            // any other rank is refused by the operation's own null checks
            return r.on(Primitive.INT64);
        }
        ReduceOp sendOp = send == null ? null : r.forDatatype(op, "send", send.datatype());
        ReduceOp recvOp = recv == null ? null : r.forDatatype(op, "recv", recv.datatype());
        if (sendOp != null
                && recvOp != null
                && send.datatype().homogeneousPrimitive() != recv.datatype().homogeneousPrimitive()) {
            throw new IllegalArgumentException(op + ": recv primitive "
                    + recv.datatype().homogeneousPrimitive().notationName() + " (expected: "
                    + send.datatype().homogeneousPrimitive().notationName() + " as send)");
        }
        return sendOp != null ? sendOp : recvOp;
    }

    void refuseOnGraph(String op) {
        if (comm.kind() == TopologyKind.GRAPH) {
            throw new UnsupportedOperationException(op + ": undefined on a graph topology");
        }
    }

    void checkRoot(String op, int root) {
        switch (comm.kind()) {
            case FULL, GRAPH -> {
                if (root < 0 || root >= comm.size()) {
                    throw new IllegalArgumentException(
                            op + ": root " + root + " (expected: 0.." + (comm.size() - 1) + ")");
                }
            }
            case INTER -> {
                if (root != Communicator.ROOT
                        && root != Communicator.PROC_NULL
                        && (root < 0 || root >= comm.remoteSize())) {
                    throw new IllegalArgumentException(op + ": root " + root
                            + " (expected: ROOT, PROC_NULL or a remote rank 0.." + (comm.remoteSize() - 1) + ")");
                }
            }
        }
    }

    static void checkOp(String op, ReduceOp rop) {
        if (rop == null) {
            throw new IllegalArgumentException(op + ": op null (expected: a ReduceOp)");
        }
    }

    static void checkOperand(String op, String arg, byte[] b, ReduceOp rop) {
        notNull(op, arg, b);
        if (b.length % rop.elementByteSize() != 0) {
            throw new IllegalArgumentException(op + ": " + arg + " length " + b.length + " (expected: a multiple of "
                    + rop.elementByteSize() + ")");
        }
    }

    static void checkOperand(String op, String arg, Block b, ReduceOp rop) {
        need(op, arg, b, "a Block");
        if (b.byteSize() % rop.elementByteSize() != 0) {
            throw new IllegalArgumentException(op + ": " + arg + " length " + b.byteSize()
                    + " (expected: a multiple of " + rop.elementByteSize() + ")");
        }
    }

    static void need(String op, String arg, Object o, String expected) {
        if (o == null) {
            throw new IllegalArgumentException(op + ": " + arg + " null (expected: " + expected + ")");
        }
    }

    /** The whole array as a block, refusing null. */
    static Block whole(String op, String arg, byte[] b) {
        notNull(op, arg, b);
        return ByteBlock.of(b);
    }

    /** Contiguous blocks of a checked (counts, displs) layout. */
    static Block[] byteBlocks(byte[] buf, int[] counts, int[] displs) {
        Block[] out = new Block[counts.length];
        for (int i = 0; i < counts.length; i++) {
            out[i] = new ByteBlock(buf, displs[i], counts[i]);
        }
        return out;
    }

    /** MPI's non-v layout: block i is {@code first} shifted by i * count extents. */
    static Block[] consecutive(BlockSpec first, int n) {
        Block[] out = new Block[n];
        for (int i = 0; i < n; i++) {
            out[i] = first.shifted(i);
        }
        return out;
    }

    /** Unpacks a received block, naming the expectation {@code what} on a size mismatch. */
    void receiveInto(String op, String what, Block block, byte[] data, int from) {
        if (data.length != block.byteSize()) {
            throw new IllegalArgumentException(op + ": block from rank " + from + " has " + data.length
                    + " bytes (expected: " + what + " " + block.byteSize() + " at rank " + comm.rank() + ")");
        }
        block.unpack(data);
    }

    static void notNull(String op, String arg, Object o) {
        if (o == null) {
            throw new IllegalArgumentException(op + ": " + arg + " null (expected: an array)");
        }
    }

    static void checkBlocks(String op, String arg, Block[] blocks, int n) {
        if (blocks == null || blocks.length != n) {
            throw new IllegalArgumentException(op + ": " + arg + " blocks " + (blocks == null ? "null" : blocks.length)
                    + " (expected: " + n + ")");
        }
        for (int i = 0; i < n; i++) {
            if (blocks[i] == null) {
                throw new IllegalArgumentException(op + ": " + arg + "[" + i + "] null (expected: a Block)");
            }
        }
    }

    static void checkLayout(
            String op, String bufName, byte[] buf, String countsName, int[] counts, int[] displs, int n) {
        notNull(op, bufName, buf);
        if (counts == null || counts.length != n) {
            throw new IllegalArgumentException(op + ": " + countsName + " length "
                    + (counts == null ? "null" : counts.length) + " (expected: " + n + ")");
        }
        if (displs == null || displs.length != n) {
            throw new IllegalArgumentException(
                    op + ": displs length " + (displs == null ? "null" : displs.length) + " (expected: " + n + ")");
        }
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0) {
                throw new IllegalArgumentException(
                        op + ": " + countsName + "[" + i + "] " + counts[i] + " (expected: >= 0)");
            }
            if (displs[i] < 0) {
                throw new IllegalArgumentException(op + ": displs[" + i + "] " + displs[i] + " (expected: >= 0)");
            }
            long end = (long) displs[i] + counts[i];
            if (end > buf.length) {
                throw new IllegalArgumentException(op + ": displs[" + i + "]+" + countsName + "[" + i + "] " + end
                        + " (expected: <= " + bufName + " length " + buf.length + ")");
            }
        }
    }

    static int[] uniform(int n, int value) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, value);
        return a;
    }

    static int[] displacements(int n, int blockBytes) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = Math.multiplyExact(i, blockBytes);
        }
        return a;
    }

    static byte[] slice(byte[] b, int off, int len) {
        byte[] out = new byte[len];
        System.arraycopy(b, off, out, 0, len);
        return out;
    }
}
