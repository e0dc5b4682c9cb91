package dev.layout.autolink;

import static dev.layout.autolink.CompactEncoder.I16;
import static dev.layout.autolink.CompactEncoder.I32;
import static dev.layout.autolink.CompactEncoder.I64;
import static dev.layout.autolink.FieldOffsets.U;

import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Expansion of one {@link Packet.Kind#COMPACT} packet in one pass over its node records. A node of
 * a class type is created when the reference introducing it is read (so that every later reference
 * to it is linked at once); a record node when its own record is read, with references to it that
 * came earlier linked at the end. Numbers are checked as they come: a reference either names a node
 * met before, of the field's type, or the next new one. The node count is checked against the
 * packet's length before anything is allocated (every node but the entry costs the 4-byte
 * reference that introduces it), every length against the bytes left, and a packet that fails
 * anywhere yields no graph.
 */
final class CompactDecoder {
    private static final Object[] NO_NODES = {};
    private static final int[] NO_TYPES = {};

    private final TypeRegistry registry;
    private final NodeType[] byId;
    private final boolean raw;
    private final FlatCodec[] codecs; // by type id; null where a flat type has no generated codec
    private final Supplier<Object>[] factories; // by type id; null for records
    private boolean busy;
    private byte[] buf;
    private int pos;
    private Object[] nodes; // class nodes from their introduction on, record nodes once read
    private int[] types;
    private int limit; // nodes announced by the packet being read
    private int created;
    private int current; // the node whose record a generated codec is reading (messages)

    // Links to record nodes read after the reference: holder (node, array or list), field (null for
    // an element), element index, node number.
    private Object[] laterHolder = new Object[0];
    private NodeField[] laterField = new NodeField[0];
    private int[] laterIndex = new int[0];
    private int[] laterRef = new int[0];
    private int later;

    /**
     * A decoder for packets of {@code registry}'s types, reused by one thread ({@link GraphCodec}
     * keeps one per thread, with its type tables and deferred-link lists). Its node table is made
     * afresh for every packet and dropped after it: no reference to a decoded graph is kept.
     */
    CompactDecoder(TypeRegistry registry, boolean raw) {
        this.registry = registry;
        this.byId = new NodeType[registry.size()];
        for (int i = 0; i < byId.length; i++) {
            byId[i] = registry.type(i);
        }
        this.raw = raw && Columns.RAW;
        this.codecs = FlatRow.codecs(FlatRow.of(registry, this.raw));
        this.factories = factories(byId);
        this.nodes = NO_NODES;
        this.types = NO_TYPES;
    }

    @SuppressWarnings("unchecked")
    private static Supplier<Object>[] factories(NodeType[] byId) {
        Supplier<Object>[] out = new Supplier[byId.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = byId[i].factory;
        }
        return out;
    }

    /** The decoded graph: its entry node (null when empty) and node count. */
    record Graph(Object entry, int nodes) {}

    /**
     * Decodes packet {@code p} (at most {@code maxNodes} nodes). A call made while this decoder is
     * busy (the same thread, from inside a node's constructor) uses a decoder of its own.
     */
    Graph decode(Packet p, long maxNodes) {
        if (busy) {
            return new CompactDecoder(registry, raw).decode(p, maxNodes);
        }
        busy = true;
        try {
            buf = p.bytes();
            return run(maxNodes);
        } finally {
            nodes = NO_NODES; // keep no reference to the graph
            if (types.length > CompactEncoder.RETAINED_NODES) {
                types = NO_TYPES;
            }
            Arrays.fill(laterHolder, 0, later, null);
            Arrays.fill(laterField, 0, later, null);
            buf = null;
            created = 0;
            later = 0;
            busy = false;
        }
    }

    private Graph run(long maxNodes) {
        int len = buf.length;
        if (len < Packet.COMPACT_FIXED) {
            throw new GraphFormatException(
                    "expand: compact packet length " + len + " (expected: >= " + Packet.COMPACT_FIXED + ")");
        }
        long fp = (long) I64.get(buf, Packet.PREFIX);
        if (fp != registry.fingerprint()) {
            throw new GraphFormatException("expand: registry fingerprint " + Long.toHexString(fp) + " (expected: "
                    + Long.toHexString(registry.fingerprint())
                    + ", the same types registered in the same order on both sides)");
        }
        int n = (int) I32.get(buf, Packet.PREFIX + 8);
        int entryType = (int) I32.get(buf, Packet.PREFIX + 12);
        long fit = 1 + (len - Packet.COMPACT_FIXED) / 4L;
        if (n < 0 || n > maxNodes || n > fit) {
            throw new GraphFormatException("expand: node count " + n + " in a compact packet of " + len
                    + " bytes (expected: 0.." + Math.min(maxNodes, fit) + ", at most maxNodes " + maxNodes
                    + " and 1 + 4 bytes per further node)");
        }
        if (n == 0 ? entryType != -1 : (entryType < 0 || entryType >= registry.size())) {
            throw new GraphFormatException("expand: entry type " + entryType + " of " + n + " nodes (expected: "
                    + (n == 0 ? "-1 for an empty graph" : "0.." + (registry.size() - 1)) + ")");
        }
        // a fresh (young) node table every call: storing new nodes into a table kept between calls (old
        // by then) costs G1 a card mark per store, which made a 10^3-node tree 45% slower to decode;
        // the type ids are ints, kept
        nodes = new Object[n];
        if (types.length < n) {
            types = new int[n];
        }
        limit = n;
        pos = Packet.COMPACT_FIXED;
        try {
            if (n > 0) {
                introduce(entryType);
            }
            readRecords(n);
            if (pos != len) {
                throw new GraphFormatException("expand: compact packet of " + len + " bytes ends at " + pos
                        + " (expected: no trailing bytes)");
            }
            linkLater();
        } catch (GraphFormatException e) {
            throw e;
        } catch (IndexOutOfBoundsException e) {
            throw truncated(e);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new GraphFormatException("expand: cannot create a node: " + e, e);
        }
        return new Graph(n == 0 ? null : nodes[0], n);
    }

    /**
     * Reads the records of nodes 0..n-1: flat records ({@link FlatRow}) by their type's generated
     * {@link FlatCodec} after one bounds check for the whole record, the others field by field.
     */
    private void readRecords(int n) throws Throwable {
        final byte[] b = buf;
        final long end = FlatRow.BYTES + b.length;
        for (int i = 0; i < n; i++) {
            if (i >= created) {
                throw new GraphFormatException("expand: node " + i + " of " + n
                        + " is referenced by no node before it (expected: " + created
                        + " nodes, each introduced by a reference)");
            }
            int id = types[i];
            FlatCodec codec = codecs[id];
            if (codec == null) {
                NodeType t = byId[id];
                if (raw && t.direct) {
                    readDirect(i, t);
                } else {
                    read(i, t);
                }
                continue;
            }
            long p = FlatRow.BYTES + pos;
            if (codec.width > end - p) {
                throw truncated(null);
            }
            current = i;
            pos = (int) (codec.read(nodes[i], b, p, this, codec.row) - FlatRow.BYTES);
        }
    }

    /** Reads node i's record (of a {@link NodeType#direct} type t): the common kinds inline, the others through {@link #read}'s path. */
    private void readDirect(int i, NodeType t) throws Throwable {
        Object o = nodes[i];
        for (NodeField f : t.fieldArray) {
            long off = f.offset;
            switch (f.kind) {
                case INT -> {
                    U.putInt(o, off, (int) I32.get(buf, pos));
                    pos += 4;
                }
                case LONG -> {
                    U.putLong(o, off, (long) I64.get(buf, pos));
                    pos += 8;
                }
                case REF -> {
                    int r = reference(f, t, i);
                    Object target = r < 0 ? null : nodes[r];
                    U.putObject(o, off, target); // null too: a constructor may have set the field
                    if (target == null && r >= 0) {
                        defer(o, f, -1, r);
                    }
                }
                default -> field(o, i, t, f);
            }
        }
    }

    /** Reads node i's record: sets the values of the class node, or creates the record node. */
    private void read(int i, NodeType t) throws Throwable {
        NodeField[] fs = t.fieldArray;
        if (t.isRecord) {
            Object[] args = new Object[fs.length];
            for (int c = 0; c < fs.length; c++) {
                args[c] = value(fs[c], t);
            }
            nodes[i] = (Object) t.constructor.invokeExact(args);
            return;
        }
        Object o = nodes[i];
        for (NodeField f : fs) {
            field(o, i, t, f);
        }
    }

    /** Reads field f of class node o (number i, type t). */
    private void field(Object o, int i, NodeType t, NodeField f) throws Throwable {
        byte[] b = buf;
        {
            if (raw && f.offset >= 0) {
                long off = f.offset;
                switch (f.kind) {
                    case BOOLEAN -> U.putBoolean(o, off, bool(b[pos++]));
                    case BYTE -> U.putByte(o, off, b[pos++]);
                    case SHORT -> {
                        U.putShort(o, off, (short) I16.get(b, pos));
                        pos += 2;
                    }
                    case CHAR -> {
                        U.putChar(o, off, (char) (short) I16.get(b, pos));
                        pos += 2;
                    }
                    case INT -> {
                        U.putInt(o, off, (int) I32.get(b, pos));
                        pos += 4;
                    }
                    case FLOAT -> {
                        U.putFloat(o, off, Float.intBitsToFloat((int) I32.get(b, pos)));
                        pos += 4;
                    }
                    case LONG -> {
                        U.putLong(o, off, (long) I64.get(b, pos));
                        pos += 8;
                    }
                    case DOUBLE -> {
                        U.putDouble(o, off, Double.longBitsToDouble((long) I64.get(b, pos)));
                        pos += 8;
                    }
                    case REF -> {
                        int r = reference(f, t, i);
                        Object target = r < 0 ? null : nodes[r];
                        U.putObject(o, off, target); // null too: a constructor may have set the field
                        if (target == null && r >= 0) {
                            defer(o, f, -1, r);
                        }
                    }
                    default -> U.putObject(o, off, value(f, t));
                }
            } else {
                switch (f.kind) {
                    case BOOLEAN -> f.setter.invokeExact(o, bool(b[pos++]));
                    case BYTE -> f.setter.invokeExact(o, b[pos++]);
                    case SHORT -> {
                        f.setter.invokeExact(o, (short) I16.get(b, pos));
                        pos += 2;
                    }
                    case CHAR -> {
                        f.setter.invokeExact(o, (char) (short) I16.get(b, pos));
                        pos += 2;
                    }
                    case INT -> {
                        f.setter.invokeExact(o, (int) I32.get(b, pos));
                        pos += 4;
                    }
                    case FLOAT -> {
                        f.setter.invokeExact(o, Float.intBitsToFloat((int) I32.get(b, pos)));
                        pos += 4;
                    }
                    case LONG -> {
                        f.setter.invokeExact(o, (long) I64.get(b, pos));
                        pos += 8;
                    }
                    case DOUBLE -> {
                        f.setter.invokeExact(o, Double.longBitsToDouble((long) I64.get(b, pos)));
                        pos += 8;
                    }
                    case REF -> {
                        int r = reference(f, t, i);
                        Object target = r < 0 ? null : nodes[r];
                        f.setter.invokeExact(o, target);
                        if (target == null && r >= 0) {
                            defer(o, f, -1, r);
                        }
                    }
                    default -> f.setter.invokeExact(o, value(f, t));
                }
            }
        }
    }

    /**
     * Field k of a flat row of node o, read by a generated codec: reference r is -1, a node met
     * before of the field's type, or the next new one, created now (anything else is refused); a
     * record node not read yet is linked later.
     */
    Object flatTarget(Object o, FlatRow row, int k, int r) throws Throwable {
        NodeField f = row.fields[k];
        int want = f.targetId;
        int c = created;
        Object target;
        if (r == c && r < limit) {
            types[r] = want;
            NodeType nt = byId[want];
            target = nt.isRecord ? null : nt.factory.get(); // a record is created when read
            nodes[r] = target;
            created = r + 1;
        } else if (r == -1) {
            return null;
        } else if (r < 0 || r >= c || types[r] != want) {
            throw badReference(f, row.type, current, r);
        } else {
            target = nodes[r];
        }
        if (target == null) {
            defer(o, f, -1, r);
        }
        return target;
    }

    /**
     * {@link #flatTarget} for a field whose target type (id {@code want}) is a class, read by a
     * generated codec: such a node exists from its introduction on, so nothing is linked later.
     */
    Object classTarget(int r, int want, FlatRow row, int k) {
        int c = created;
        if (r == c && r < limit) {
            types[r] = want;
            Object target = factories[want].get();
            nodes[r] = target;
            created = r + 1;
            return target;
        }
        if (r == -1) {
            return null;
        }
        if (r < 0 || r >= c || types[r] != want) {
            throw badReference(row.fields[k], row.type, current, r);
        }
        return nodes[r];
    }

    static boolean bool(byte v) {
        if (v != 0 && v != 1) {
            throw new GraphFormatException("expand: boolean byte " + v + " (expected: 0 or 1)");
        }
        return v == 1;
    }

    /**
     * A field value as an object: primitives boxed (records), strings and byte arrays read, arrays
     * and lists of references created and filled (elements that are records not read yet linked later).
     */
    private Object value(NodeField f, NodeType t) throws Throwable {
        byte[] b = buf;
        switch (f.kind) {
            case BOOLEAN:
                return bool(b[pos++]);
            case BYTE:
                return b[pos++];
            case SHORT:
                pos += 2;
                return (short) I16.get(b, pos - 2);
            case CHAR:
                pos += 2;
                return (char) (short) I16.get(b, pos - 2);
            case INT:
                pos += 4;
                return (int) I32.get(b, pos - 4);
            case FLOAT:
                pos += 4;
                return Float.intBitsToFloat((int) I32.get(b, pos - 4));
            case LONG:
                pos += 8;
                return (long) I64.get(b, pos - 8);
            case DOUBLE:
                pos += 8;
                return Double.longBitsToDouble((long) I64.get(b, pos - 8));
            case STRING, BYTES: {
                int len = length(f, t, 1);
                if (len < 0) {
                    return null;
                }
                byte[] v = Arrays.copyOfRange(b, pos, pos + len);
                pos += len;
                return f.kind == NodeField.Kind.STRING ? new String(v, StandardCharsets.UTF_8) : v;
            }
            case REF:
                throw new GraphFormatException("expand: single reference " + t.type.getSimpleName() + "." + f.name
                        + " in a record"); // not registrable
            default: { // REF_ARRAY, REF_LIST
                int len = length(f, t, 4);
                if (len < 0) {
                    return null;
                }
                if (f.kind == NodeField.Kind.REF_ARRAY) {
                    Object[] a = (Object[]) Array.newInstance(f.target, len);
                    for (int k = 0; k < len; k++) {
                        int r = reference(f, t, -1);
                        a[k] = r < 0 ? null : nodes[r];
                        if (a[k] == null && r >= 0) {
                            defer(a, null, k, r);
                        }
                    }
                    return a;
                }
                List<Object> a = new ArrayList<>(len);
                for (int k = 0; k < len; k++) {
                    int r = reference(f, t, -1);
                    Object x = r < 0 ? null : nodes[r];
                    a.add(x);
                    if (x == null && r >= 0) {
                        defer(a, null, k, r);
                    }
                }
                return a;
            }
        }
    }

    /** A length prefix: -1 (null) or a length whose {@code width}-byte elements lie in the packet. */
    private int length(NodeField f, NodeType t, int width) {
        int len = (int) I32.get(buf, pos);
        pos += 4;
        long left = buf.length - (long) pos;
        if (len < -1 || (long) len * width > left) {
            throw new GraphFormatException("expand: " + t.type.getSimpleName() + "." + f.name + " length " + len
                    + " (expected: -1.." + left / width + ", what the packet holds)");
        }
        return len;
    }

    private GraphFormatException truncated(Throwable cause) {
        return new GraphFormatException(
                "expand: compact packet truncated at byte " + pos + " of " + buf.length
                        + " (expected: complete node records)",
                cause);
    }

    /** Reads and checks one reference of field f (of a node of type t), introducing the node it names if new; returns it. */
    private int reference(NodeField f, NodeType t, int row) throws Throwable {
        int r = (int) I32.get(buf, pos);
        pos += 4;
        if (r == created && r < limit) {
            introduce(f.targetId);
        } else if (r != -1 && (r < 0 || r >= created || types[r] != f.targetId)) {
            throw badReference(f, t, row, r);
        }
        return r;
    }

    /** Numbers the next node, of type id {@code type}; a class node is created now, a record when read. */
    private void introduce(int type) throws Throwable {
        int r = created;
        types[r] = type;
        NodeType nt = byId[type];
        if (!nt.isRecord) {
            nodes[r] = nt.factory.get();
        }
        created = r + 1;
    }

    private GraphFormatException badReference(NodeField f, NodeType t, int row, int r) {
        return new GraphFormatException(
                "expand: " + t.type.getSimpleName() + "." + f.name + (row >= 0 ? " of node " + row : "")
                        + " reference " + r
                        + (r >= 0 && r < created
                                ? " to a " + registry.type(types[r]).type.getSimpleName()
                                : "")
                        + " (expected: -1, a " + f.target.getSimpleName() + " among nodes 0.." + (created - 1)
                        + ", or the next new node "
                        + (created < limit ? created : "(none: all " + limit + " announced nodes exist)") + ")");
    }

    /** Remembers a link to record node r, not read yet: field f of holder, or element index of holder (f null). */
    private void defer(Object holder, NodeField f, int index, int r) {
        if (later == laterRef.length) {
            int len = Math.max(16, later * 2);
            laterHolder = Arrays.copyOf(laterHolder, len);
            laterField = Arrays.copyOf(laterField, len);
            laterIndex = Arrays.copyOf(laterIndex, len);
            laterRef = Arrays.copyOf(laterRef, len);
        }
        laterHolder[later] = holder;
        laterField[later] = f;
        laterIndex[later] = index;
        laterRef[later] = r;
        later++;
    }

    /** Links the deferred references; every record node exists now. */
    @SuppressWarnings("unchecked")
    private void linkLater() throws Throwable {
        for (int k = 0; k < later; k++) {
            Object target = nodes[laterRef[k]];
            Object h = laterHolder[k];
            NodeField f = laterField[k];
            if (f != null) {
                if (raw && f.offset >= 0) {
                    U.putObject(h, f.offset, target);
                } else {
                    f.setter.invokeExact(h, target);
                }
            } else if (h instanceof Object[] a) {
                a[laterIndex[k]] = target;
            } else {
                ((List<Object>) h).set(laterIndex[k], target);
            }
        }
    }
}
