package dev.layout.collective;

import dev.layout.comm.CollectiveChannel;
import dev.layout.naming.CartesianNaming;
import dev.layout.topology.Cartesianity;
import dev.layout.topology.DistGraph;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The message-combining allgather of a Cartesian neighbourhood (Träff and Hunold, ICPP 2019):
 * every rank's block travels along the prefix tree of the offsets V, in d phases, and a shared
 * prefix is sent once. Tree node {@code q = (v_0..v_j, 0..0)} of depth j+1 is reached in phase j
 * by one copy of the origin's block, sent from the holder of its parent {@code q - v_j e_j}
 * (reached in an earlier phase, or the origin itself); a node that is an offset of V is a
 * delivery. A rank sends in phase j one message per distinct non-zero value c of dimension j,
 * carrying one block per tree node ending in c whose origin exists and has a target below the
 * node (on non-periodic grids origins at borders lack offsets). For a full cube the volume equals
 * the direct algorithm's (one copy per tree edge = |V| blocks) while messages drop to 2d.
 *
 * <p>Sender and receiver compute a message's contents from V and the naming alone, so a message
 * is the blocks in tree-node order, each with a 4-byte length, and empty messages are not sent.
 */
final class PrefixTreeAllgather {

    /** One block of a message: the origin's rank, the node it reaches, and its parent. */
    private record Entry(int origin, List<Integer> node, List<Integer> parent) {}

    /** (origin, node) -> held block. */
    private record Key(int origin, List<Integer> node) {}

    /** One message of one phase: partner rank and its entries in order. */
    private record Message(int partner, List<Entry> entries) {}

    private final int rank;
    private final int d;
    private final int inCount;
    /** Per phase, the messages sent and received (non-empty ones only). */
    private final List<List<Message>> sends = new ArrayList<>();

    private final List<List<Message>> receives = new ArrayList<>();
    /** Delivery slots of each offset (canonical, as seen from the origin). */
    private final Map<List<Integer>, List<Integer>> slotsOf = new HashMap<>();

    private final int messages;
    private final int blocks;

    PrefixTreeAllgather(DistGraph g, int rank) {
        Cartesianity c = g.cartesianity();
        if (!c.isCartesian()) {
            throw new IllegalArgumentException(
                    "combining: neighbourhood general (expected: a Cartesian neighbourhood; create the graph on a Cartesian-named communicator)");
        }
        CartesianNaming naming = c.naming();
        this.rank = rank;
        this.d = naming.d();
        TreeSet<List<Integer>> targets = new TreeSet<>(PrefixTreeAllgather::compare);
        for (int[] v : c.offsets()) {
            targets.add(boxed(v));
        }
        for (int k = 0; k < g.indegree(); k++) {
            int[] u = c.inOffset(k);
            int[] v = new int[d];
            for (int j = 0; j < d; j++) {
                v[j] = -u[j];
            }
            slotsOf.computeIfAbsent(boxed(naming.canonicalOffset(v)), x -> new ArrayList<>())
                    .add(k);
        }
        this.inCount = g.indegree();
        int m = 0;
        int b = 0;
        for (int j = 0; j < d; j++) {
            // tree nodes of depth j+1 with a non-zero last coordinate, grouped by that value
            TreeMap<Integer, TreeSet<List<Integer>>> nodes = new TreeMap<>();
            for (List<Integer> v : targets) {
                if (v.get(j) != 0) {
                    nodes.computeIfAbsent(v.get(j), x -> new TreeSet<>(PrefixTreeAllgather::compare))
                            .add(prefix(v, j));
                }
            }
            List<Message> out = new ArrayList<>();
            List<Message> in = new ArrayList<>();
            for (Map.Entry<Integer, TreeSet<List<Integer>>> e : nodes.entrySet()) {
                int value = e.getKey();
                int dest = naming.relative(rank, unit(j, value));
                if (dest != CartesianNaming.PROC_NULL) {
                    List<Entry> entries = entries(naming, targets, e.getValue(), dest, j);
                    if (!entries.isEmpty()) {
                        out.add(new Message(dest, entries));
                        m++;
                        b += entries.size();
                    }
                }
                int source = naming.relative(rank, unit(j, -value));
                if (source != CartesianNaming.PROC_NULL) {
                    List<Entry> entries = entries(naming, targets, e.getValue(), rank, j);
                    if (!entries.isEmpty()) {
                        in.add(new Message(source, entries));
                    }
                }
            }
            sends.add(out);
            receives.add(in);
        }
        this.messages = m;
        this.blocks = b;
    }

    /** The entries of the message of phase j that {@code receiver} gets for the given nodes. */
    private List<Entry> entries(
            CartesianNaming naming, TreeSet<List<Integer>> targets, TreeSet<List<Integer>> nodes, int receiver, int j) {
        List<Entry> out = new ArrayList<>();
        for (List<Integer> q : nodes) {
            int origin = naming.relative(receiver, negate(q));
            if (origin == CartesianNaming.PROC_NULL || !hasTargetBelow(naming, targets, origin, q, j)) {
                continue;
            }
            List<Integer> parent = new ArrayList<>(q);
            parent.set(j, 0);
            out.add(new Entry(origin, q, parent));
        }
        return out;
    }

    /** Whether some offset of V extending q's first j+1 coordinates leads from origin onto the grid. */
    private boolean hasTargetBelow(
            CartesianNaming naming, TreeSet<List<Integer>> targets, int origin, List<Integer> q, int j) {
        for (List<Integer> v : targets) {
            if (v.subList(0, j + 1).equals(q.subList(0, j + 1))
                    && naming.relative(origin, unboxed(v)) != CartesianNaming.PROC_NULL) {
                return true;
            }
        }
        return false;
    }

    int messagesPerCall() {
        return messages;
    }

    int blocksPerCall() {
        return blocks;
    }

    /** Runs the exchange: {@code block} reaches every out-neighbour; returns each in-neighbour's block. */
    byte[][] exchange(CollectiveChannel ch, String op, int seq, byte[] block) {
        byte[][] recv = new byte[inCount][];
        Map<Key, byte[]> held = new HashMap<>();
        List<Integer> zero = boxed(new int[d]);
        held.put(new Key(rank, zero), block);
        deliver(op, recv, zero, block);
        for (int j = 0; j < d; j++) {
            for (Message msg : sends.get(j)) {
                List<byte[]> parts = new ArrayList<>(msg.entries.size());
                for (Entry e : msg.entries) {
                    byte[] data = held.get(new Key(e.origin, e.parent));
                    if (data == null) {
                        throw new IllegalStateException(op + ": rank " + rank + " holds no block of rank " + e.origin
                                + " at prefix " + e.parent);
                    }
                    parts.add(data);
                }
                ch.send(op, seq, msg.partner, encode(parts));
            }
            for (Message msg : receives.get(j)) {
                List<byte[]> parts = decode(op, ch.receive(op, seq, msg.partner), msg.entries.size(), msg.partner);
                for (int i = 0; i < parts.size(); i++) {
                    Entry e = msg.entries.get(i);
                    held.put(new Key(e.origin, e.node), parts.get(i));
                    deliver(op, recv, e.node, parts.get(i));
                }
            }
        }
        for (int k = 0; k < inCount; k++) {
            if (recv[k] == null) {
                throw new IllegalStateException(
                        op + ": prefix-tree allgather left in-slot " + k + " of rank " + rank + " empty");
            }
        }
        return recv;
    }

    /** A block reaching node q is the block of the in-neighbour at -q, if q is one of our offsets. */
    private void deliver(String op, byte[][] recv, List<Integer> node, byte[] data) {
        List<Integer> slots = slotsOf.get(node);
        if (slots == null) {
            return;
        }
        for (int k : slots) {
            if (recv[k] != null) {
                throw new IllegalStateException(op + ": rank " + rank + " got in-slot " + k + " twice");
            }
            recv[k] = data.clone();
        }
    }

    private static byte[] encode(List<byte[]> parts) {
        int size = 0;
        for (byte[] p : parts) {
            size += 4 + p.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        for (byte[] p : parts) {
            b.putInt(p.length).put(p);
        }
        return b.array();
    }

    private List<byte[]> decode(String op, byte[] msg, int n, int from) {
        ByteBuffer b = ByteBuffer.wrap(msg);
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (b.remaining() < 4) {
                throw new IllegalStateException(op + ": message from rank " + from + " has " + i + " blocks (expected: "
                        + n + " at rank " + rank + ")");
            }
            int len = b.getInt();
            if (len < 0 || len > b.remaining()) {
                throw new IllegalStateException(op + ": block " + i + " from rank " + from + " has length " + len
                        + " (expected: 0.." + b.remaining() + ")");
            }
            byte[] data = new byte[len];
            b.get(data);
            out.add(data);
        }
        if (b.hasRemaining()) {
            throw new IllegalStateException(op + ": message from rank " + from + " has " + b.remaining()
                    + " extra bytes (expected: " + n + " blocks)");
        }
        return out;
    }

    /** Blocks sent per call on a torus: the non-root nodes of the prefix tree of V. */
    static int treeEdges(Cartesianity c) {
        TreeSet<List<Integer>> nodes = new TreeSet<>(PrefixTreeAllgather::compare);
        int d = c.naming().d();
        for (int[] v : c.offsets()) {
            List<Integer> b = boxed(v);
            for (int j = 0; j < d; j++) {
                if (v[j] != 0) {
                    nodes.add(prefix(b, j));
                }
            }
        }
        return nodes.size();
    }

    private static List<Integer> prefix(List<Integer> v, int j) {
        List<Integer> q = new ArrayList<>(v);
        for (int i = j + 1; i < q.size(); i++) {
            q.set(i, 0);
        }
        return List.copyOf(q);
    }

    private static int compare(List<Integer> a, List<Integer> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = Integer.compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static List<Integer> boxed(int[] v) {
        List<Integer> l = new ArrayList<>(v.length);
        for (int x : v) {
            l.add(x);
        }
        return List.copyOf(l);
    }

    private static int[] unboxed(List<Integer> v) {
        return v.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int[] negate(List<Integer> v) {
        return v.stream().mapToInt(x -> -x).toArray();
    }

    private int[] unit(int j, int c) {
        int[] e = new int[d];
        e[j] = c;
        return e;
    }

    @Override
    public String toString() {
        return "prefix-tree allgather(" + messages + " messages, " + blocks + " blocks)";
    }
}
