package dev.layout.autolink;

import static dev.layout.autolink.FieldOffsets.U;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;

/**
 * Aggregation: a traversal with marks at construction (breadth-first within each type: the nodes of
 * a type are visited in the order they were met), then one packet per {@link #next()}.
 */
final class GraphEncoder implements Iterator<Packet> {
    private final TypeRegistry registry;
    private final BufferAllocator allocator;
    private final int packetRows;
    private final CompressionCodec codec;
    private final long maxPacketBytes;
    private final boolean raw; // Columns: fixed-width columns written through their addresses
    private final IdentityIndex index;
    private final Object[][] nodes; // per type, in index order
    private final int[] counts;
    private int entryType = -1;
    private int entryIndex = -1;

    private boolean headerSent;
    private int type;
    private int row;

    // Reference indices recorded during the traversal, per [type][field], in node order (the
    // traversal visits the nodes of a type in index order): the packets copy them instead of looking every
    // target up again. REF fields: one index per node (-1 null). REF_ARRAY/REF_LIST: the flattened
    // element indices, and one length per node (-1 for a null container).
    private final IntList[][] refs;
    private final IntList[][] lens;
    private final int[][] elementCursor; // [type][field]: next flattened element of the next packet

    // Traversal: the nodes of each type are visited in index order, a chunk at a time (cursor[t]: the
    // next unvisited node of type t); the chunk's targets of one field are looked up together.
    private final int[] cursor;
    private Object[] targets = new Object[BATCH];
    private int[] hashes = new int[BATCH];
    private int[] columns = new int[BATCH];
    private Class<?> lastClass;
    private NodeType lastType;

    /** Nodes visited per chunk. */
    static final int CHUNK = 256;
    /** Targets looked up together: they and their table slots fit in L1. */
    static final int BATCH = 512;

    GraphEncoder(
            TypeRegistry registry,
            BufferAllocator allocator,
            int packetRows,
            CompressionCodec codec,
            long maxPacketBytes,
            boolean raw,
            Object root) {
        this.raw = raw && Columns.RAW;
        this.registry = registry;
        this.allocator = allocator;
        this.packetRows = packetRows;
        this.codec = codec;
        this.maxPacketBytes = maxPacketBytes;
        int n = registry.size();
        this.nodes = new Object[n][];
        for (int i = 0; i < n; i++) {
            nodes[i] = new Object[8];
        }
        this.counts = new int[n];
        this.cursor = new int[n];
        this.index = new IdentityIndex(1024);
        this.refs = new IntList[n][];
        this.lens = new IntList[n][];
        this.elementCursor = new int[n][];
        for (int t = 0; t < n; t++) {
            List<NodeField> fs = registry.type(t).fields;
            refs[t] = new IntList[fs.size()];
            lens[t] = new IntList[fs.size()];
            elementCursor[t] = new int[fs.size()];
            for (int f = 0; f < fs.size(); f++) {
                NodeField.Kind k = fs.get(f).kind;
                if (k.isReference()) {
                    refs[t][f] = new IntList();
                    if (k != NodeField.Kind.REF) {
                        lens[t][f] = new IntList();
                    }
                }
            }
        }
        if (root != null) {
            NodeType rt = typeOf(root, null);
            entryType = rt.id;
            entryIndex = 0;
            index.ensureRoom(1);
            index.getOrPut(root, IdentityIndex.hash(root), nodes[rt.id], 0, 0);
            append(root, rt.id);
            traverse();
        }
        targets = null;
        hashes = null;
        columns = null;
    }

    private NodeType typeOf(Object o, String via) {
        Class<?> c = o.getClass();
        if (c == lastClass) {
            return lastType;
        }
        NodeType t = registry.typeOf(c);
        if (t == null) {
            throw new IllegalArgumentException("aggregate: node class " + c.getName()
                    + (via == null ? "" : " reached through " + via) + " (expected: a registered type, one of "
                    + registry.types().stream().map(Class::getSimpleName).toList() + ")");
        }
        lastClass = c;
        lastType = t;
        return t;
    }

    /** Gives o the next index of type t (o is new, its class checked). */
    private void append(Object o, int t) {
        int i = counts[t];
        if (i == Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("aggregate: nodes of "
                    + registry.type(t).type.getName() + " " + i + " (expected: fewer, indices are int32)");
        }
        Object[] a = nodes[t];
        if (i == a.length) {
            a = nodes[t] = java.util.Arrays.copyOf(a, (int) Math.min(Integer.MAX_VALUE - 8L, a.length * 2L));
        }
        a[i] = o;
        counts[t] = i + 1;
    }

    /**
     * Visits every node reachable from the entry: the unvisited nodes of each type in index order, a
     * chunk of up to {@link #CHUNK} at a time, until no type has any left. Nodes are numbered in the
     * order they are first met (per type), so the reference columns stay small and regular as under
     * a breadth-first traversal.
     */
    private void traverse() {
        boolean more = true;
        while (more) {
            more = false;
            for (int t = 0; t < counts.length; t++) {
                while (cursor[t] < counts[t]) {
                    int from = cursor[t];
                    int n = Math.min(CHUNK, counts[t] - from);
                    visitChunk(registry.type(t), from, n);
                    cursor[t] = from + n;
                    more = true;
                }
            }
        }
    }

    /**
     * Visits nodes [from, from + n) of type t: their targets are gathered in node order (fields in
     * field order, elements of an array or list in element order, the order a breadth-first traversal
     * meets them), up to {@link #BATCH} at a time, then looked up together ({@link #flush}).
     */
    private void visitChunk(NodeType t, int from, int n) {
        int[] refFields = t.referenceFields;
        List<NodeField> fs = t.fields;
        Object[] objs =
                nodes[t.id]; // only read below nodes[t.id]'s current count: a flush may grow it, not change these
        Object[] tg = targets;
        int[] cs = columns;
        int k = 0;
        for (int i = 0; i < n; i++) {
            Object o = objs[from + i];
            for (int c : refFields) {
                NodeField f = fs.get(c);
                if (f.kind == NodeField.Kind.REF) {
                    if (k == BATCH) {
                        flush(t, k);
                        k = 0;
                    }
                    tg[k] = f.offset >= 0 ? FieldOffsets.U.getObject(o, f.offset) : get(f, o);
                    cs[k++] = c;
                    continue;
                }
                Object container = get(f, o);
                IntList len = lens[t.id][c];
                if (container == null) {
                    len.add(-1);
                    continue;
                }
                int m = 0;
                if (f.kind == NodeField.Kind.REF_ARRAY) {
                    for (Object x : (Object[]) container) {
                        if (k == BATCH) {
                            flush(t, k);
                            k = 0;
                        }
                        tg[k] = x;
                        cs[k++] = c;
                        m++;
                    }
                } else {
                    for (Object x : (List<?>) container) {
                        if (k == BATCH) {
                            flush(t, k);
                            k = 0;
                        }
                        tg[k] = x;
                        cs[k++] = c;
                        m++;
                    }
                }
                len.add(m);
            }
        }
        flush(t, k);
    }

    /**
     * Appends the indices of {@code targets[0, k)} (reached from nodes of type from through the fields
     * {@code columns[0, k)}) to their columns, -1 for null, numbering and recording the targets met for
     * the first time. Two passes: the first computes every target's hash and touches its table slot,
     * so that the slots' cache misses overlap instead of following one another; the second probes,
     * its slots now mostly in cache.
     */
    private void flush(NodeType from, int k) {
        if (k == 0) {
            return;
        }
        Object[] tg = targets;
        int[] hs = hashes;
        int[] cs = columns;
        List<NodeField> fs = from.fields;
        IntList[] out = refs[from.id];
        index.ensureRoom(k);
        index.touch(tg, hs, k);
        for (int i = 0; i < k; i++) {
            Object x = tg[i];
            tg[i] = null;
            int c = cs[i];
            if (x == null) {
                out[c].add(-1);
                continue;
            }
            NodeField f = fs.get(c);
            int tt = f.targetId;
            int count = counts[tt];
            int idx = index.getOrPut(x, hs[i], nodes[tt], count, count);
            if (idx < 0) {
                idx = -1 - idx;
                if (x.getClass() != f.target) {
                    NodeType actual = typeOf(x, from.type.getSimpleName() + "." + f.name);
                    throw new IllegalArgumentException("aggregate: field " + from.type.getSimpleName() + "." + f.name
                            + " holds a " + actual.type.getName() + " (expected: exactly " + f.target.getName()
                            + ", subclasses need their own field type)");
                }
                append(x, tt);
            }
            out[c].add(idx);
        }
    }

    static Object get(NodeField f, Object o) {
        if (f.offset >= 0) {
            return FieldOffsets.U.getObject(o, f.offset);
        }
        try {
            return (Object) f.getter.invokeExact(o);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        throw new IllegalStateException(e);
    }

    // ---- packets ------------------------------------------------------------------------------------

    @Override
    public boolean hasNext() {
        if (!headerSent) {
            return true;
        }
        while (type < counts.length && row >= counts[type]) {
            type++;
            row = 0;
        }
        return type < counts.length;
    }

    @Override
    public Packet next() {
        if (!hasNext()) {
            throw new NoSuchElementException("aggregate: no more packets");
        }
        if (!headerSent) {
            headerSent = true;
            return header();
        }
        int n = Math.min(packetRows, counts[type] - row);
        Packet p = data(registry.type(type), row, n);
        row += n;
        if (row >= counts[type]) {
            nodes[type] = null; // release as we go
            refs[type] = null;
            lens[type] = null;
        }
        return p;
    }

    private Packet header() {
        int n = counts.length;
        ByteBuffer b = ByteBuffer.allocate(Packet.HEADER_FIXED + 4 * n).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(Packet.MAGIC).put((byte) 0).put(Packet.VERSION).putShort((short) 0);
        b.putLong(registry.fingerprint()).putInt(n).putInt(entryType).putInt(entryIndex);
        for (int c : counts) {
            b.putInt(c);
        }
        return Packet.wrap(b.array());
    }

    private Packet data(NodeType t, int first, int n) {
        Object[] objs = nodes[t.id];
        try (VectorSchemaRoot root = VectorSchemaRoot.create(t.schema, allocator)) {
            List<FieldVector> vectors = root.getFieldVectors();
            for (int c = 0; c < t.fields.size(); c++) {
                fill(t, c, vectors.get(c), objs, first, n);
            }
            root.setRowCount(n);
            long raw = root.getFieldVectors().stream()
                    .mapToLong(FieldVector::getBufferSize)
                    .sum();
            if (raw > maxPacketBytes) {
                throw new IllegalArgumentException(
                        "aggregate: packet of " + n + " " + t.type.getSimpleName() + " nodes holds " + raw
                                + " bytes (expected: <= maxPacketBytes " + maxPacketBytes + "; lower packetRows)");
            }
            ByteArrayOutputStream bos = new ByteArrayOutputStream(256 + (int) Math.min(1 << 30, raw));
            ByteBuffer prefix = ByteBuffer.allocate(Packet.DATA_FIXED).order(ByteOrder.LITTLE_ENDIAN);
            prefix.putInt(Packet.MAGIC)
                    .put((byte) 1)
                    .put(Packet.VERSION)
                    .putShort((short) 0)
                    .putInt(t.id)
                    .putInt(first)
                    .putInt(n);
            bos.write(prefix.array(), 0, Packet.DATA_FIXED);
            try (ArrowRecordBatch batch = new VectorUnloader(root, true, codec, true).getRecordBatch()) {
                MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bos)), batch);
            }
            return Packet.wrap(bos.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void fill(NodeType t, int c, FieldVector v, Object[] objs, int first, int n) {
        NodeField f = t.fields.get(c);
        try {
            switch (f.kind) {
                case BOOLEAN -> {
                    BitVector x = (BitVector) v;
                    x.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        x.set(i, (boolean) f.getter.invokeExact(objs[first + i]) ? 1 : 0);
                    }
                }
                case BYTE -> {
                    TinyIntVector x = (TinyIntVector) v;
                    x.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        x.set(i, (byte) f.getter.invokeExact(objs[first + i]));
                    }
                }
                case SHORT -> {
                    SmallIntVector x = (SmallIntVector) v;
                    x.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        x.set(i, (short) f.getter.invokeExact(objs[first + i]));
                    }
                }
                case CHAR -> {
                    UInt2Vector x = (UInt2Vector) v;
                    x.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        x.set(i, (char) f.getter.invokeExact(objs[first + i]));
                    }
                }
                case INT -> {
                    IntVector x = (IntVector) v;
                    x.allocateNew(n);
                    if (raw && f.offset >= 0) {
                        long a = Columns.address(x, n, 4);
                        long off = f.offset;
                        for (int i = 0; i < n; i++) {
                            U.putInt(a + 4L * i, U.getInt(objs[first + i], off));
                        }
                        Columns.setAllValid(x, n);
                    } else {
                        for (int i = 0; i < n; i++) {
                            x.set(i, (int) f.getter.invokeExact(objs[first + i]));
                        }
                    }
                }
                case LONG -> {
                    BigIntVector x = (BigIntVector) v;
                    x.allocateNew(n);
                    if (raw && f.offset >= 0) {
                        long a = Columns.address(x, n, 8);
                        long off = f.offset;
                        for (int i = 0; i < n; i++) {
                            U.putLong(a + 8L * i, U.getLong(objs[first + i], off));
                        }
                        Columns.setAllValid(x, n);
                    } else {
                        for (int i = 0; i < n; i++) {
                            x.set(i, (long) f.getter.invokeExact(objs[first + i]));
                        }
                    }
                }
                case FLOAT -> {
                    Float4Vector x = (Float4Vector) v;
                    x.allocateNew(n);
                    if (raw && f.offset >= 0) {
                        long a = Columns.address(x, n, 4);
                        long off = f.offset;
                        for (int i = 0; i < n; i++) {
                            U.putFloat(a + 4L * i, U.getFloat(objs[first + i], off));
                        }
                        Columns.setAllValid(x, n);
                    } else {
                        for (int i = 0; i < n; i++) {
                            x.set(i, (float) f.getter.invokeExact(objs[first + i]));
                        }
                    }
                }
                case DOUBLE -> {
                    Float8Vector x = (Float8Vector) v;
                    x.allocateNew(n);
                    if (raw && f.offset >= 0) {
                        long a = Columns.address(x, n, 8);
                        long off = f.offset;
                        for (int i = 0; i < n; i++) {
                            U.putDouble(a + 8L * i, U.getDouble(objs[first + i], off));
                        }
                        Columns.setAllValid(x, n);
                    } else {
                        for (int i = 0; i < n; i++) {
                            x.set(i, (double) f.getter.invokeExact(objs[first + i]));
                        }
                    }
                }
                case STRING -> {
                    VarCharVector x = (VarCharVector) v;
                    x.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        String s = (String) (Object) f.getter.invokeExact(objs[first + i]);
                        if (s == null) {
                            x.setNull(i);
                        } else {
                            x.setSafe(i, s.getBytes(StandardCharsets.UTF_8));
                        }
                    }
                }
                case BYTES -> {
                    VarBinaryVector x = (VarBinaryVector) v;
                    x.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        byte[] s = (byte[]) (Object) f.getter.invokeExact(objs[first + i]);
                        if (s == null) {
                            x.setNull(i);
                        } else {
                            x.setSafe(i, s);
                        }
                    }
                }
                case REF -> {
                    IntVector x = (IntVector) v;
                    x.allocateNew(n);
                    int[] r = refs[t.id][c].array();
                    int prev = 0;
                    if (raw) {
                        long a = Columns.address(x, n, 4);
                        for (int i = 0; i < n; i++) {
                            int ref = r[first + i];
                            U.putInt(a + 4L * i, ref < 0 ? -1 : RefCoding.zigzag(ref - prev));
                            prev = ref < 0 ? prev : ref;
                        }
                        Columns.setAllValid(x, n);
                    } else {
                        for (int i = 0; i < n; i++) {
                            int ref = r[first + i];
                            x.set(i, ref < 0 ? -1 : RefCoding.zigzag(ref - prev));
                            prev = ref < 0 ? prev : ref;
                        }
                    }
                }
                case REF_ARRAY, REF_LIST -> {
                    ListVector x = (ListVector) v;
                    x.allocateNew();
                    IntVector data = (IntVector) x.getDataVector();
                    int[] r = refs[t.id][c].array();
                    int[] len = lens[t.id][c].array();
                    int k = elementCursor[t.id][c];
                    int total = 0;
                    int prev = 0;
                    for (int i = 0; i < n; i++) {
                        int m = len[first + i];
                        if (m < 0) {
                            x.setNull(i);
                            continue;
                        }
                        int off = x.startNewValue(i);
                        for (int e = 0; e < m; e++) {
                            int ref = r[k++];
                            data.setSafe(off + e, ref < 0 ? -1 : RefCoding.zigzag(ref - prev));
                            prev = ref < 0 ? prev : ref;
                        }
                        x.endValue(i, m);
                        total = off + m;
                    }
                    elementCursor[t.id][c] = k;
                    data.setValueCount(total);
                }
            }
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }
}
