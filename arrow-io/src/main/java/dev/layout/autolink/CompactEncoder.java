package dev.layout.autolink;

import static dev.layout.autolink.FieldOffsets.U;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Aggregation of a small graph into one {@link Packet.Kind#COMPACT} packet (format in {@link
 * Packet}): one pass over the nodes in the order they are met, each node's fields written as it is
 * visited, references as node numbers. No Arrow vectors, no compression and no per-type tables:
 * for a graph of a thousand nodes those cost several times the traversal itself. Gives up (returns
 * null) as soon as the graph has more nodes or bytes than the caller's limits, and the caller then
 * builds columnar packets. An encoder is reused by one thread ({@link GraphCodec} keeps one per
 * thread), so that its buffer and tables of primitives have the size of the graphs it sees instead
 * of growing from scratch on every call; tables grown past {@link #RETAINED_NODES} nodes or a buffer
 * past {@link #RETAINED_BYTES} are dropped after the call. The table of the nodes themselves is
 * allocated per call (sized from the last one): storing references into an array kept between calls
 * (an old one by then) costs G1 a card-mark check with a memory fence per store, a young array's
 * stores only a compare.
 */
final class CompactEncoder {
    static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Largest graph, in nodes, whose tables an encoder keeps for its next call. */
    static final int RETAINED_NODES = 1 << 14;
    /** Largest packet buffer, in bytes, an encoder keeps for its next call. */
    static final int RETAINED_BYTES = 1 << 20;
    /** Largest buffer, in bytes, allocated at once from the last call's size (beyond, doubling costs little next to the data). */
    static final int MAX_BUFFER_HINT = 1 << 23;

    private final TypeRegistry registry;
    private final NodeType[] byId;
    private final boolean raw;
    private boolean busy;
    private byte[] buf;
    private int pos;

    private final FlatCodec[] codecs; // by type id; null where a flat type has no generated codec

    // Nodes in the order they were met (node number = position; a fresh array per call) and their type ids.
    private Object[] nodes = NO_NODES;
    private int[] typeIds;
    private int count;
    private int nodesHint; // the node table's length for the next call
    private int bufHint; // the buffer's and the identity table's lengths after a dropping call
    private int slotsHint;

    // Identity map object -> node number: open addressing on identity hash codes, slot = number + 1
    // (0 empty); nodes[number] is the key, so one int array is the whole table.
    private int[] slots;
    private int shift;

    private static final Object[] NO_NODES = {};
    private static final int[] NO_TYPE_IDS = {};

    CompactEncoder(TypeRegistry registry, boolean raw) {
        this.registry = registry;
        this.byId = new NodeType[registry.size()];
        for (int i = 0; i < byId.length; i++) {
            byId[i] = registry.type(i);
        }
        this.raw = raw && Columns.RAW;
        this.codecs = FlatRow.codecs(FlatRow.of(registry, this.raw));
        fresh();
    }

    private void fresh() {
        buf = new byte[4096];
        nodesHint = 256;
        typeIds = new int[256];
        slots = new int[1024];
        shift = 32 - 10;
    }

    /**
     * Drops the tables of a graph too large to keep them for, remembering their sizes: the next
     * call allocates them at once at that size instead of growing them from scratch (for a graph of
     * 10^5 nodes that is a dozen copies and rehashes of the whole table per call).
     */
    private void dropSizedFor(int nodes, int bytes) {
        buf = null;
        bufHint = Math.max(4096, bytes);
        slots = null;
        int want = (int) Math.min(1L << 30, 2L * nodes); // at most half full
        slotsHint = Math.max(1024, Integer.highestOneBit(Math.max(1, want - 1)) << 1);
        typeIds = NO_TYPE_IDS;
    }

    /**
     * The compact packet of the graph from {@code root} (may be null), or null if the graph has more
     * than {@code maxNodes} nodes or its packet more than {@code maxBytes} bytes. A call made while
     * this encoder is busy (the same thread, from inside a traversal) uses an encoder of its own.
     *
     * @throws IllegalArgumentException for a node of an unregistered class or a reference field
     *     holding another class than its declared one
     */
    byte[] encode(Object root, int maxNodes, long maxBytes) {
        if (busy) {
            return new CompactEncoder(registry, raw).encode(root, maxNodes, maxBytes);
        }
        busy = true;
        try {
            nodes = new Object[nodesHint];
            if (typeIds.length < nodesHint) {
                typeIds = new int[nodesHint];
            }
            if (buf == null) {
                buf = new byte[bufHint];
            }
            if (slots == null) {
                slots = new int[slotsHint];
                shift = 32 - Integer.numberOfTrailingZeros(slotsHint);
            }
            return run(root, maxNodes, maxBytes);
        } finally {
            // sizes for the next call from this graph's, at most what the limits let a graph reach: the
            // node table this graph's node count rounded up to 1024 (not a power of two, so that 10^5
            // nodes stay below G1's humongous size of 512 KB)
            int n = Math.min(count, maxNodes);
            nodesHint = Math.max(256, (int) Math.min(Integer.MAX_VALUE - 8L, (n + 1023L) & ~1023L));
            nodes = NO_NODES; // keep no reference to the graph
            if (buf == null || slots == null) { // an allocation above failed
                fresh();
            } else if (count > RETAINED_NODES || buf.length > RETAINED_BYTES) {
                dropSizedFor(n, (int) Math.min(pos, Math.min(maxBytes, MAX_BUFFER_HINT)));
            } else {
                if (slots.length
                        > 8 * Math.max(count, 128)) { // much larger than this graph needed: clearing it would cost more
                    slots = new int[1024];
                    shift = 32 - 10;
                } else {
                    Arrays.fill(slots, 0);
                }
            }
            count = 0;
            pos = 0;
            busy = false;
        }
    }

    /** The packet buffer kept for the next call, in bytes (tests). */
    int bufferCapacity() {
        return buf == null ? 0 : buf.length;
    }

    private byte[] run(Object root, int maxNodes, long maxBytes) {
        I32.set(buf, 0, Packet.MAGIC);
        buf[4] = (byte) Packet.Kind.COMPACT.ordinal();
        buf[5] = Packet.VERSION;
        I64.set(buf, Packet.PREFIX, registry.fingerprint());
        pos = Packet.COMPACT_FIXED;
        int entryType = -1;
        if (root != null) {
            NodeType rt = registry.typeOf(root.getClass());
            if (rt == null) {
                throw new IllegalArgumentException("aggregate: node class "
                        + root.getClass().getName() + " (expected: a registered type, one of "
                        + registry.types().stream().map(Class::getSimpleName).toList() + ")");
            }
            entryType = rt.id;
            put(root, IdentityIndex.hash(root) >>> shift, rt.id);
        }
        try {
            if (!writeRecords(maxNodes, maxBytes)) {
                return null;
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        I32.set(buf, Packet.PREFIX + 8, count);
        I32.set(buf, Packet.PREFIX + 12, entryType);
        return Arrays.copyOf(buf, pos);
    }

    /**
     * Appends the records of the nodes met, in order, as long as the graph stays within the limits
     * (returns false as soon as it does not). Flat records ({@link FlatRow}) are written by their
     * type's generated {@link FlatCodec}, the others field by field.
     */
    private boolean writeRecords(int maxNodes, long maxBytes) throws Throwable {
        for (int i = 0; i < count; i++) {
            if (count > maxNodes || pos > maxBytes) {
                return false;
            }
            int id = typeIds[i];
            Object o = nodes[i];
            FlatCodec codec = codecs[id];
            if (codec != null) {
                ensure(codec.width);
                pos = (int) (codec.write(o, buf, FlatRow.BYTES + pos, this, codec.row) - FlatRow.BYTES);
                continue;
            }
            NodeType t = byId[id];
            if (raw && t.direct) {
                writeDirect(o, t);
            } else {
                write(o, t);
            }
        }
        return count <= maxNodes && pos <= maxBytes;
    }

    /** Appends node o's fields (o of a {@link NodeType#direct} type t): the common kinds inline, the others one by one. */
    private void writeDirect(Object o, NodeType t) throws Throwable {
        NodeField[] fs = t.fieldArray;
        ensure(fs.length * 8L);
        for (NodeField f : fs) {
            long off = f.offset;
            switch (f.kind) {
                case INT -> {
                    I32.set(buf, pos, U.getInt(o, off));
                    pos += 4;
                }
                case LONG -> {
                    I64.set(buf, pos, U.getLong(o, off));
                    pos += 8;
                }
                case REF -> {
                    int r = reference(U.getObject(o, off), f, t);
                    I32.set(buf, pos, r);
                    pos += 4;
                }
                default -> field(o, t, f);
            }
        }
    }

    /** Appends node o's fields (o of type t). */
    private void write(Object o, NodeType t) throws Throwable {
        ensure(t.fieldArray.length * 8L);
        for (NodeField f : t.fieldArray) {
            field(o, t, f);
        }
    }

    /** Appends field f of node o (of type t), room for the fixed part of the row ensured. */
    private void field(Object o, NodeType t, NodeField f) throws Throwable {
        {
            boolean direct = raw && f.offset >= 0;
            long off = f.offset;
            byte[] b = buf;
            switch (f.kind) {
                case BOOLEAN ->
                    b[pos++] = (byte) ((direct ? U.getBoolean(o, off) : (boolean) f.getter.invokeExact(o)) ? 1 : 0);
                case BYTE -> b[pos++] = direct ? U.getByte(o, off) : (byte) f.getter.invokeExact(o);
                case SHORT -> {
                    I16.set(b, pos, direct ? U.getShort(o, off) : (short) f.getter.invokeExact(o));
                    pos += 2;
                }
                case CHAR -> {
                    I16.set(b, pos, (short) (direct ? U.getChar(o, off) : (char) f.getter.invokeExact(o)));
                    pos += 2;
                }
                case INT -> {
                    I32.set(b, pos, direct ? U.getInt(o, off) : (int) f.getter.invokeExact(o));
                    pos += 4;
                }
                case FLOAT -> {
                    I32.set(
                            b,
                            pos,
                            Float.floatToRawIntBits(direct ? U.getFloat(o, off) : (float) f.getter.invokeExact(o)));
                    pos += 4;
                }
                case LONG -> {
                    I64.set(b, pos, direct ? U.getLong(o, off) : (long) f.getter.invokeExact(o));
                    pos += 8;
                }
                case DOUBLE -> {
                    I64.set(
                            b,
                            pos,
                            Double.doubleToRawLongBits(
                                    direct ? U.getDouble(o, off) : (double) f.getter.invokeExact(o)));
                    pos += 8;
                }
                case STRING -> {
                    String s = (String) object(f, o, direct);
                    bytes(s == null ? null : s.getBytes(StandardCharsets.UTF_8), t);
                }
                case BYTES -> bytes((byte[]) object(f, o, direct), t);
                case REF -> {
                    int r = reference(object(f, o, direct), f, t);
                    I32.set(buf, pos, r);
                    pos += 4;
                }
                case REF_ARRAY -> {
                    Object[] a = (Object[]) object(f, o, direct);
                    I32.set(b, pos, a == null ? -1 : a.length);
                    pos += 4;
                    if (a != null) {
                        ensure(4L * a.length + 8L * t.fieldArray.length);
                        for (Object x : a) {
                            int r = reference(x, f, t);
                            I32.set(buf, pos, r);
                            pos += 4;
                        }
                    }
                }
                case REF_LIST -> {
                    List<?> a = (List<?>) object(f, o, direct);
                    I32.set(b, pos, a == null ? -1 : a.size());
                    pos += 4;
                    if (a != null) {
                        ensure(4L * a.size() + 8L * t.fieldArray.length);
                        int n = 0;
                        for (Object x : a) {
                            int r = reference(x, f, t);
                            I32.set(buf, pos, r);
                            pos += 4;
                            n++;
                        }
                        if (n != a.size()) {
                            throw new IllegalArgumentException("aggregate: list " + t.type.getSimpleName() + "."
                                    + f.name + " changed during aggregation");
                        }
                    }
                }
            }
        }
    }

    private static Object object(NodeField f, Object o, boolean direct) {
        return direct ? U.getObject(o, f.offset) : GraphEncoder.get(f, o);
    }

    /** int32 length (-1 for null), then the bytes; keeps room for the rest of a row of t. */
    private void bytes(byte[] v, NodeType t) {
        I32.set(buf, pos, v == null ? -1 : v.length);
        pos += 4;
        if (v != null) {
            ensure(v.length + 8L * t.fieldArray.length);
            System.arraycopy(v, 0, buf, pos, v.length);
            pos += v.length;
        }
    }

    /** The node number of x reached through field f of a node of type from (-1 for null), numbering x if new. */
    private int reference(Object x, NodeField f, NodeType from) {
        if (x == null) {
            return -1;
        }
        if (x.getClass() != f.target) {
            throw wrongClass(x, f, from);
        }
        return number(x, f.targetId);
    }

    /**
     * {@link #reference} for a field whose declared class is final, so x is of that class (type id
     * {@code targetId}) or null: the generated codecs' way back, without the class check.
     */
    int finalReference(Object x, int targetId) {
        return x == null ? -1 : number(x, targetId);
    }

    /** The node number of x (not null, of type id {@code typeId}), numbering it if new. */
    private int number(Object x, int typeId) {
        int[] s = slots;
        int mask = s.length - 1;
        int i = IdentityIndex.hash(x) >>> shift;
        for (int v; (v = s[i]) != 0; i = (i + 1) & mask) {
            if (nodes[v - 1] == x) {
                return v - 1;
            }
        }
        return put(x, i, typeId);
    }

    /** {@link #reference} for field k of a flat row: the generated codecs' way back. */
    int flatReference(Object x, FlatRow row, int k) {
        return reference(x, row.fields[k], row.type);
    }

    private IllegalArgumentException wrongClass(Object x, NodeField f, NodeType from) {
        NodeType actual = registry.typeOf(x.getClass());
        return new IllegalArgumentException("aggregate: field " + from.type.getSimpleName() + "." + f.name + " holds a "
                + (actual == null ? x.getClass().getName() + " (not registered)" : actual.type.getName())
                + " (expected: exactly "
                + f.target.getName() + ", subclasses need their own field type)");
    }

    /** Numbers x (new) with the next node number, its table slot being {@code slot}. */
    private int put(Object x, int slot, int typeId) {
        int n = count;
        if (n == nodes.length) {
            growNodes();
        }
        nodes[n] = x;
        typeIds[n] = typeId;
        slots[slot] = n + 1;
        count = n + 1;
        if (2L * count > slots.length) {
            grow();
        }
        return n;
    }

    private void growNodes() {
        int len = (int) Math.min(Integer.MAX_VALUE - 8L, nodes.length * 2L);
        nodes = Arrays.copyOf(nodes, len);
        if (typeIds.length < len) {
            typeIds = Arrays.copyOf(typeIds, len);
        }
    }

    private void grow() {
        int[] s = new int[slots.length * 4];
        int sh = shift - 2;
        int mask = s.length - 1;
        for (int k = 0; k < count; k++) {
            int i = IdentityIndex.hash(nodes[k]) >>> sh;
            while (s[i] != 0) {
                i = (i + 1) & mask;
            }
            s[i] = k + 1;
        }
        slots = s;
        shift = sh;
    }

    /** Room for {@code more} bytes past pos. */
    private void ensure(long more) {
        long need = pos + more;
        if (need > buf.length) {
            if (need > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(
                        "aggregate: compact packet of more than " + need + " bytes (expected: < 2 GiB)");
            }
            buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(need, buf.length * 2L)));
        }
    }
}
