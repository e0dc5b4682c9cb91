package dev.layout.autolink;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Expansion, push-style: {@link #accept} each packet as it arrives, {@link #result()} once {@link
 * #isComplete()}. A compact packet is the whole graph ({@link CompactDecoder}); columnar packets
 * follow a header: nodes are allocated per type as their rows arrive (never from the announced
 * counts alone; {@link ColumnarBatchReader} reads each packet), reference indices are kept pending
 * and checked and linked in {@link #result()}, so a failing stream never yields a graph.
 */
public final class GraphExpander {
    private final TypeRegistry registry;
    private final long maxNodes;
    private final ThreadLocal<CompactDecoder>
            compact; // the accepting thread's decoder (an expander may change threads)
    private final ColumnarBatchReader batches;

    private boolean header;
    private boolean failed;
    private int[] counts;
    private int[] received;
    private NodeTable[] nodes;
    private IntList[][] pendingRefs; // [type][field]: REF indices per row; REF_ARRAY/LIST flattened indices
    private IntList[][] pendingLens; // [type][field]: REF_ARRAY/LIST length per row, -1 for null
    private int entryType;
    private int entryIndex;
    private long expected;
    private long receivedTotal;
    private Object result;
    private boolean linked;

    GraphExpander(
            TypeRegistry registry,
            BufferAllocator allocator,
            long maxNodes,
            long maxPacketBytes,
            boolean raw,
            ThreadLocal<CompactDecoder> compact) {
        this.registry = registry;
        this.maxNodes = maxNodes;
        this.compact = compact;
        this.batches = new ColumnarBatchReader(allocator, maxPacketBytes, raw && Columns.RAW);
    }

    public boolean hasHeader() {
        return header;
    }

    public boolean isComplete() {
        return header && receivedTotal == expected;
    }

    public long expectedNodes() {
        return expected;
    }

    public long receivedNodes() {
        return receivedTotal;
    }

    /** Consumes one packet; returns {@link #isComplete()}. */
    public boolean accept(Packet p) {
        if (failed) {
            throw new GraphFormatException("expand: an earlier packet failed (expected: a new expander)");
        }
        try {
            if (p == null) {
                throw new GraphFormatException("expand: packet null (expected: a packet)");
            }
            switch (p.kind()) {
                case HEADER -> acceptHeader(p);
                case DATA -> acceptData(p);
                case COMPACT -> acceptCompact(p);
            }
            return isComplete();
        } catch (GraphFormatException e) {
            fail();
            throw e;
        } catch (RuntimeException e) {
            fail();
            throw new GraphFormatException("expand: malformed packet " + p + ": " + e.getMessage(), e);
        }
    }

    private void fail() {
        failed = true;
        nodes = null;
        pendingRefs = null;
        pendingLens = null;
    }

    private void acceptHeader(Packet p) {
        if (header) {
            throw new GraphFormatException("expand: second header packet (expected: data packets)");
        }
        int n = registry.size();
        ByteBuffer b = p.buffer();
        if (p.byteSize() < Packet.HEADER_FIXED) {
            throw new GraphFormatException(
                    "expand: header length " + p.byteSize() + " (expected: >= " + Packet.HEADER_FIXED + ")");
        }
        long fp = b.getLong(Packet.PREFIX);
        if (fp != registry.fingerprint()) {
            throw new GraphFormatException("expand: registry fingerprint " + Long.toHexString(fp) + " (expected: "
                    + Long.toHexString(registry.fingerprint())
                    + ", the same types registered in the same order on both sides)");
        }
        int typeCount = b.getInt(Packet.PREFIX + 8);
        if (typeCount != n) {
            throw new GraphFormatException("expand: type count " + typeCount + " (expected: " + n + ")");
        }
        if (p.byteSize() != Packet.HEADER_FIXED + 4L * n) {
            throw new GraphFormatException(
                    "expand: header length " + p.byteSize() + " (expected: " + (Packet.HEADER_FIXED + 4L * n) + ")");
        }
        int[] c = new int[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            c[i] = b.getInt(Packet.HEADER_FIXED + 4 * i);
            if (c[i] < 0 || c[i] > Integer.MAX_VALUE - 8) {
                throw new GraphFormatException(
                        "expand: count[" + i + "] " + c[i] + " (expected: 0.." + (Integer.MAX_VALUE - 8) + ")");
            }
            total += c[i];
        }
        if (total > maxNodes) {
            throw new GraphFormatException("expand: node count " + total + " (expected: <= maxNodes " + maxNodes + ")");
        }
        int et = b.getInt(Packet.PREFIX + 12);
        int ei = b.getInt(Packet.PREFIX + 16);
        if (et == -1 ? (ei != -1 || total != 0) : (et < 0 || et >= n || ei < 0 || ei >= c[et])) {
            throw new GraphFormatException("expand: entry node (" + et + ", " + ei
                    + ") (expected: a node of the graph, or (-1, -1) for an empty graph)");
        }
        counts = c;
        received = new int[n];
        nodes = new NodeTable[n];
        pendingRefs = new IntList[n][];
        pendingLens = new IntList[n][];
        for (int t = 0; t < n; t++) {
            nodes[t] = new NodeTable();
            List<NodeField> fs = registry.type(t).fields;
            pendingRefs[t] = new IntList[fs.size()];
            pendingLens[t] = new IntList[fs.size()];
            for (int f = 0; f < fs.size(); f++) {
                if (fs.get(f).kind.isReference()) {
                    pendingRefs[t][f] = new IntList();
                    if (fs.get(f).kind != NodeField.Kind.REF) {
                        pendingLens[t][f] = new IntList();
                    }
                }
            }
        }
        entryType = et;
        entryIndex = ei;
        expected = total;
        header = true;
    }

    /** A whole graph in one packet: decoded and linked at once (nothing is kept if it fails). */
    private void acceptCompact(Packet p) {
        if (header) {
            throw new GraphFormatException("expand: compact packet after a header (expected: data packets)");
        }
        CompactDecoder.Graph g = compact.get().decode(p, maxNodes);
        header = true;
        expected = g.nodes();
        receivedTotal = g.nodes();
        result = g.entry();
        linked = true;
    }

    private void acceptData(Packet p) {
        if (!header) {
            throw new GraphFormatException("expand: data packet before the header (expected: the header first)");
        }
        if (isComplete()) {
            throw new GraphFormatException(
                    "expand: data packet after the graph is complete (expected: no more packets)");
        }
        if (p.byteSize() < Packet.DATA_FIXED + 8) {
            throw new GraphFormatException(
                    "expand: data packet length " + p.byteSize() + " (expected: >= " + (Packet.DATA_FIXED + 8) + ")");
        }
        ByteBuffer b = p.buffer();
        int t = b.getInt(Packet.PREFIX);
        int first = b.getInt(Packet.PREFIX + 4);
        int rows = b.getInt(Packet.PREFIX + 8);
        if (t < 0 || t >= counts.length) {
            throw new GraphFormatException("expand: type id " + t + " (expected: 0.." + (counts.length - 1) + ")");
        }
        if (first != received[t]) {
            throw new GraphFormatException("expand: first row " + first + " of type " + t + " (expected: " + received[t]
                    + ", packets of a type in order)");
        }
        if (rows < 1 || (long) first + rows > counts[t]) {
            throw new GraphFormatException(
                    "expand: row count " + rows + " of type " + t + " (expected: 1.." + (counts[t] - first) + ")");
        }
        batches.read(p, registry.type(t), first, rows, nodes[t], pendingRefs[t], pendingLens[t]);
        received[t] += rows;
        receivedTotal += rows;
    }

    /** Links the references (checking every index) and returns the entry node; null for an empty graph. */
    public Object result() {
        if (failed) {
            throw new GraphFormatException("expand: an earlier packet failed (expected: a new expander)");
        }
        if (!isComplete()) {
            throw new GraphFormatException("expand: graph incomplete, " + receivedTotal + " of "
                    + (header ? expected : "?") + " nodes received (expected: all packets before result())");
        }
        if (linked) {
            return result;
        }
        try {
            link();
        } catch (GraphFormatException e) {
            fail();
            throw e;
        } catch (RuntimeException e) {
            fail();
            throw new GraphFormatException("expand: cannot link graph: " + e, e);
        }
        linked = true;
        result = entryType < 0 ? null : nodes[entryType].get(entryIndex);
        nodes = null;
        pendingRefs = null;
        pendingLens = null;
        return result;
    }

    private Object target(NodeField f, NodeType from, int row, int idx) {
        if (idx == -1) {
            return null;
        }
        int tt = f.targetId;
        if (idx < 0 || idx >= counts[tt]) {
            throw new GraphFormatException("expand: " + from.type.getSimpleName() + "." + f.name + " of node " + row
                    + " index " + idx + " (expected: -1.." + (counts[tt] - 1) + ")");
        }
        return nodes[tt].get(idx);
    }

    @SuppressWarnings("unchecked")
    private void link() {
        for (int t = 0; t < counts.length; t++) {
            NodeType type = registry.type(t);
            NodeTable objs = nodes[t];
            int n = counts[t];
            for (int c = 0; c < type.fields.size(); c++) {
                NodeField f = type.fields.get(c);
                if (!f.kind.isReference()) {
                    continue;
                }
                int[] refs = pendingRefs[t][c].array();
                try {
                    if (f.kind == NodeField.Kind.REF) {
                        for (int i = 0; i < n; i++) {
                            Object target = target(f, type, i, refs[i]);
                            if (f.offset >= 0) {
                                FieldOffsets.U.putObject(
                                        objs.get(i),
                                        f.offset,
                                        target); // null too: a constructor may have set the field
                            } else {
                                f.setter.invokeExact(objs.get(i), target);
                            }
                        }
                    } else {
                        int[] lens = pendingLens[t][c].array();
                        int k = 0;
                        for (int i = 0; i < n; i++) {
                            int len = lens[i];
                            if (len < 0) {
                                continue;
                            }
                            Object container = (Object) f.getter.invokeExact(objs.get(i));
                            if (f.kind == NodeField.Kind.REF_ARRAY) {
                                Object[] arr = (Object[]) container;
                                for (int j = 0; j < len; j++) {
                                    arr[j] = target(f, type, i, refs[k++]);
                                }
                            } else {
                                List<Object> list = (List<Object>) container;
                                for (int j = 0; j < len; j++) {
                                    list.add(target(f, type, i, refs[k++]));
                                }
                            }
                        }
                    }
                } catch (RuntimeException e) {
                    throw e;
                } catch (Throwable e) {
                    throw new GraphFormatException(
                            "expand: cannot link " + type.type.getSimpleName() + "." + f.name + ": " + e, e);
                }
            }
        }
    }
}
