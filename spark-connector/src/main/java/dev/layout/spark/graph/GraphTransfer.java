package dev.layout.spark.graph;

import dev.layout.autolink.GraphCodec;
import dev.layout.autolink.GraphExpander;
import dev.layout.autolink.GraphFormatException;
import dev.layout.autolink.Packet;
import dev.layout.collective.Collectives;
import dev.layout.comm.Communicator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * AutoLink's thin transfer part (Michel and Devaney 2000): object graphs over any communicator
 * operation. The communication-independent codec ({@link GraphCodec}) turns a graph into bounded
 * packets and back; this class only moves packets.
 *
 * <ul>
 *   <li>{@link #send}/{@link #recv}: one message per packet, so the receiver expands while packets
 *       arrive and neither side holds more than a packet beyond the graph;
 *   <li>{@link #bcast}, {@link #gather}, {@link #alltoall}: the packet stream of each graph as one
 *       length-prefixed block of the byte collectives (sizes first, then the blocks).
 * </ul>
 *
 * A stream that is malformed, truncated or ends before its graph is complete is a {@link
 * GraphFormatException}; no half-linked graph is ever returned.
 *
 * <pre>{@code
 * GraphTransfer t = GraphTransfer.of(GraphCodec.builder(TypeRegistry.of(Node.class)).allocator(a).build());
 * Node copy = t.bcast(comm, 0, comm.rank() == 0 ? tree : null, Node.class);
 * }</pre>
 */
public final class GraphTransfer {
    /** Largest packet accepted from a peer (bounds allocation on hostile input). */
    public static final int MAX_PACKET_BYTES = 1 << 28;

    private final GraphCodec codec;

    private GraphTransfer(GraphCodec codec) {
        this.codec = codec;
    }

    public static GraphTransfer of(GraphCodec codec) {
        if (codec == null) {
            throw new NullPointerException("graph transfer: codec is null");
        }
        return new GraphTransfer(codec);
    }

    /** Sends the graph reachable from {@code root} (null for the empty graph) to {@code dest}. */
    public void send(Communicator comm, int dest, int tag, Object root) {
        Iterator<Packet> it = codec.aggregate(root);
        while (it.hasNext()) {
            comm.send(dest, tag, it.next().bytes());
        }
    }

    /** Receives one graph from {@code source}, expanding packets as they arrive. */
    public <T> T recv(Communicator comm, int source, int tag, Class<T> rootType) {
        GraphExpander e = codec.expander();
        while (!e.isComplete()) {
            e.accept(Packet.wrap(comm.recv(source, tag)));
        }
        return rootType.cast(e.result());
    }

    /** Broadcasts the root's graph; every rank returns its own copy (the root returns {@code graph} itself). */
    public <T> T bcast(Communicator comm, int root, T graph, Class<T> rootType) {
        Collectives c = Collectives.on(comm);
        byte[] stream = comm.rank() == root ? encode(graph) : null;
        byte[] len = longBytes(stream == null ? 0 : stream.length);
        c.bcast(len, root);
        long n = ByteBuffer.wrap(len).order(ByteOrder.LITTLE_ENDIAN).getLong();
        if (n < 0 || n > Integer.MAX_VALUE - 8) {
            throw new GraphFormatException(
                    "bcast: stream length " + n + " (expected: 0.." + (Integer.MAX_VALUE - 8) + ")");
        }
        if (comm.rank() == root) {
            c.bcast(stream, root);
            return graph;
        }
        byte[] buf = new byte[(int) n];
        asAnnounced("bcast", () -> c.bcast(buf, root));
        return decode(buf, rootType);
    }

    /** Gathers every rank's graph at {@code root}: a list indexed by rank there, empty elsewhere. */
    public <T> List<T> gather(Communicator comm, int root, T graph, Class<T> rootType) {
        Collectives c = Collectives.on(comm);
        byte[] stream = encode(graph);
        int size = comm.size();
        byte[] lens = new byte[comm.rank() == root ? 4 * size : 0];
        c.gather(intBytes(stream.length), lens, root);
        if (comm.rank() != root) {
            c.gatherv(stream, new byte[0], new int[size], new int[size], root);
            return List.of();
        }
        int[] counts = ints(lens);
        int[] displs = displacements(counts, "gather");
        byte[] all = new byte[displs[size - 1] + counts[size - 1]];
        asAnnounced("gather", () -> c.gatherv(stream, all, counts, displs, root));
        List<T> out = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            out.add(decode(java.util.Arrays.copyOfRange(all, displs[r], displs[r] + counts[r]), rootType));
        }
        return out;
    }

    /** Sends {@code graphs.get(i)} to rank i and returns the graphs received, indexed by source rank. */
    public <T> List<T> alltoall(Communicator comm, List<T> graphs, Class<T> rootType) {
        int size = comm.size();
        if (graphs.size() != size) {
            throw new IllegalArgumentException(
                    "alltoall: graphs " + graphs.size() + " (expected: one per rank, " + size + ")");
        }
        Collectives c = Collectives.on(comm);
        byte[][] streams = new byte[size][];
        int[] sendCounts = new int[size];
        for (int r = 0; r < size; r++) {
            streams[r] = encode(graphs.get(r));
            sendCounts[r] = streams[r].length;
        }
        byte[] sendLens = new byte[4 * size];
        ByteBuffer sl = ByteBuffer.wrap(sendLens).order(ByteOrder.LITTLE_ENDIAN);
        for (int n : sendCounts) {
            sl.putInt(n);
        }
        byte[] recvLens = new byte[4 * size];
        c.alltoall(sendLens, recvLens, 4);
        int[] recvCounts = ints(recvLens);
        int[] sdispls = displacements(sendCounts, "alltoall");
        int[] rdispls = displacements(recvCounts, "alltoall");
        byte[] send = new byte[sdispls[size - 1] + sendCounts[size - 1]];
        for (int r = 0; r < size; r++) {
            System.arraycopy(streams[r], 0, send, sdispls[r], sendCounts[r]);
        }
        byte[] recv = new byte[rdispls[size - 1] + recvCounts[size - 1]];
        asAnnounced("alltoall", () -> c.alltoallv(send, sendCounts, sdispls, recv, recvCounts, rdispls));
        List<T> out = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            out.add(decode(java.util.Arrays.copyOfRange(recv, rdispls[r], rdispls[r] + recvCounts[r]), rootType));
        }
        return out;
    }

    /**
     * Runs the data phase of a collective whose receive buffers were sized from the lengths the
     * senders announced: a block of another size (the collective's {@code IllegalArgumentException},
     * nothing unpacked) is a sender whose stream disagrees with its announcement, a malformed stream.
     */
    private static void asAnnounced(String op, Runnable dataPhase) {
        try {
            dataPhase.run();
        } catch (GraphFormatException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new GraphFormatException(
                    "graph transfer: " + op + ": a stream of another length than announced (" + e.getMessage() + ")",
                    e);
        }
    }

    /** The graph's packets, each length-prefixed, in one array. */
    byte[] encode(Object root) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bos)) {
            Iterator<Packet> it = codec.aggregate(root);
            while (it.hasNext()) {
                it.next().writeTo(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bos.toByteArray();
    }

    <T> T decode(byte[] stream, Class<T> rootType) {
        GraphExpander e = codec.expander();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(stream));
        try {
            while (!e.isComplete()) {
                if (in.available() == 0) {
                    throw new GraphFormatException(
                            "graph transfer: stream of " + stream.length + " bytes ends before the graph is complete");
                }
                e.accept(Packet.readFrom(in, MAX_PACKET_BYTES));
            }
            if (in.available() != 0) {
                throw new GraphFormatException("graph transfer: " + in.available() + " bytes after a complete graph");
            }
        } catch (IOException ex) {
            throw new GraphFormatException("graph transfer: unreadable packet stream (" + ex.getMessage() + ")");
        }
        return rootType.cast(e.result());
    }

    private static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    private static byte[] intBytes(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    private static int[] ints(byte[] b) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int[] out = new int[b.length / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = bb.getInt();
            if (out[i] < 0) {
                throw new GraphFormatException(
                        "graph transfer: block length " + out[i] + " from rank " + i + " (expected: >= 0)");
            }
        }
        return out;
    }

    private static int[] displacements(int[] counts, String op) {
        int[] d = new int[counts.length];
        long at = 0;
        for (int i = 0; i < counts.length; i++) {
            d[i] = (int) at;
            at += counts[i];
            if (at > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(
                        op + ": total graph bytes " + at + " (expected: <= " + (Integer.MAX_VALUE - 8) + " per call)");
            }
        }
        return d;
    }
}
