package dev.layout.autolink;

import static dev.layout.autolink.FieldOffsets.U;

import com.github.luben.zstd.Zstd;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
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
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.util.ValueVectorUtility;

/**
 * Reading of one columnar {@link Packet.Kind#DATA} packet for {@link GraphExpander}: its Arrow IPC
 * record batch is checked (lengths, buffers inside the body, the uncompressed sizes a ZSTD body
 * announces) before anything is allocated, decompressed, validated, and turned into the packet's
 * nodes of one type; the nodes' references are only recorded (as node indices), for the expander
 * to check and link once every packet has arrived.
 */
final class ColumnarBatchReader {
    private final BufferAllocator allocator;
    private final long maxPacketBytes;
    private final boolean raw; // Columns: fixed-width columns read through their addresses

    // The packet being read: its type's node table and pending references, per field.
    private NodeTable table;
    private IntList[] pendingRefs; // REF indices per row; REF_ARRAY/LIST flattened indices
    private IntList[] pendingLens; // REF_ARRAY/LIST length per row, -1 for null
    private int[] previousRef; // per column: the last non-null reference (RefCoding)

    ColumnarBatchReader(BufferAllocator allocator, long maxPacketBytes, boolean raw) {
        this.allocator = allocator;
        this.maxPacketBytes = maxPacketBytes;
        this.raw = raw;
    }

    /**
     * Reads rows {@code first .. first + rows - 1} of {@code type} (the packet's prefix already
     * checked by the caller) into {@code table}, recording their references in {@code refs} and
     * list lengths in {@code lens} (per field of the type).
     */
    void read(Packet p, NodeType type, int first, int rows, NodeTable table, IntList[] refs, IntList[] lens) {
        this.table = table;
        this.pendingRefs = refs;
        this.pendingLens = lens;
        try {
            readBatch(p, type, first, rows);
        } finally {
            this.table = null;
            this.pendingRefs = null;
            this.pendingLens = null;
        }
    }

    private void readBatch(Packet p, NodeType type, int first, int rows) {
        ByteBuffer b = p.buffer();
        // Arrow IPC message: continuation, metadata length, metadata, body; lengths checked before allocation.
        int pos = Packet.DATA_FIXED;
        int cont = b.getInt(pos);
        if (cont != MessageSerializer.IPC_CONTINUATION_TOKEN) {
            throw new GraphFormatException(
                    "expand: IPC continuation 0x" + Integer.toHexString(cont) + " (expected: 0xffffffff)");
        }
        int metaLen = b.getInt(pos + 4);
        int afterPrefix = p.byteSize() - pos - 8;
        if (metaLen <= 0 || metaLen > afterPrefix) {
            throw new GraphFormatException(
                    "expand: IPC metadata length " + metaLen + " (expected: 1.." + afterPrefix + ")");
        }
        ByteBuffer meta = ByteBuffer.wrap(p.bytes(), pos + 8, metaLen).slice().order(ByteOrder.LITTLE_ENDIAN);
        Message msg = Message.getRootAsMessage(meta);
        if (msg.headerType() != MessageHeader.RecordBatch) {
            throw new GraphFormatException("expand: IPC message type " + msg.headerType() + " (expected: record batch "
                    + MessageHeader.RecordBatch + ")");
        }
        long bodyLen = msg.bodyLength();
        int bodyStart = pos + 8 + metaLen;
        int remaining = p.byteSize() - bodyStart;
        if (bodyLen < 0 || bodyLen != remaining) {
            throw new GraphFormatException(
                    "expand: IPC body length " + bodyLen + " (expected: " + remaining + ", the rest of the packet)");
        }
        RecordBatch rb = (RecordBatch) msg.header(new RecordBatch());
        if (rb == null || rb.length() != rows) {
            throw new GraphFormatException(
                    "expand: batch length " + (rb == null ? "missing" : rb.length()) + " (expected: " + rows + ")");
        }
        if (rb.nodesLength() != countNodes(type)) {
            throw new GraphFormatException(
                    "expand: batch field nodes " + rb.nodesLength() + " (expected: " + countNodes(type) + ")");
        }
        // Every column has one value per row; a list's element column at most what maxPacketBytes holds.
        for (int i = 0, c = 0; c < type.fields.size(); c++) {
            long len = rb.nodes(i++).length();
            if (len != rows) {
                throw new GraphFormatException(
                        "expand: column " + type.fields.get(c).name + " length " + len + " (expected: " + rows + ")");
            }
            if (type.fields.get(c).kind == NodeField.Kind.REF_ARRAY
                    || type.fields.get(c).kind == NodeField.Kind.REF_LIST) {
                long elements = rb.nodes(i++).length();
                if (elements < 0 || elements > maxPacketBytes / 4) {
                    throw new GraphFormatException("expand: column " + type.fields.get(c).name + " elements " + elements
                            + " (expected: 0.." + maxPacketBytes / 4 + ", maxPacketBytes / 4)");
                }
            }
        }
        checkBuffers(p, rb, bodyStart, remaining);
        ArrowBuf body = allocator.buffer(bodyLen);
        ArrowRecordBatch deserialized;
        try {
            body.setBytes(0, p.bytes(), bodyStart, bodyLen);
            // takes over the body's reference (released with the batch)
            deserialized = MessageSerializer.deserializeRecordBatch(rb, body);
        } catch (java.io.IOException | RuntimeException e) {
            if (body.refCnt() > 0) {
                body.close();
            }
            throw new GraphFormatException("expand: unreadable batch: " + e.getMessage(), e);
        }
        try {
            try (ArrowRecordBatch batch = rb.compression() == null ? deserialized : decompress(deserialized, rb);
                    VectorSchemaRoot root = VectorSchemaRoot.create(type.schema, allocator)) {
                new VectorLoader(root).load(batch);
                ValueVectorUtility.validateFull(root);
                for (FieldVector v : root.getFieldVectors()) {
                    if (v.getValueCount() != rows) {
                        throw new GraphFormatException("expand: column " + v.getName() + " length " + v.getValueCount()
                                + " (expected: " + rows + ")");
                    }
                    if (!v.getField().isNullable() && v.getNullCount() != 0) {
                        throw new GraphFormatException("expand: column " + v.getName() + " holds " + v.getNullCount()
                                + " nulls (expected: none)");
                    }
                }
                instantiate(type, root, first, rows);
            }
        } finally {
            if (body.refCnt() > 0) {
                body.close();
            }
        }
    }

    /**
     * Buffers lie inside the body, and a compressed body announces at most {@code maxPacketBytes}
     * uncompressed: checked before anything is allocated or decompressed (a few kilobytes of ZSTD can
     * claim gigabytes).
     */
    private void checkBuffers(Packet p, RecordBatch rb, int bodyStart, int bodyLength) {
        boolean compressed = rb.compression() != null;
        if (compressed && rb.compression().codec() != org.apache.arrow.flatbuf.CompressionType.ZSTD) {
            throw new GraphFormatException(
                    "expand: body compression " + rb.compression().codec() + " (expected: ZSTD "
                            + org.apache.arrow.flatbuf.CompressionType.ZSTD + " or none)");
        }
        ByteBuffer b = p.buffer();
        long total = 0;
        for (int i = 0; i < rb.buffersLength(); i++) {
            long off = rb.buffers(i).offset();
            long len = rb.buffers(i).length();
            if (off < 0 || len < 0 || off + len > bodyLength) {
                throw new GraphFormatException("expand: buffer " + i + " at " + off + " length " + len
                        + " (expected: inside the body of " + bodyLength + " bytes)");
            }
            long size = len;
            if (compressed && len >= 8) {
                long declared = b.getLong(bodyStart + (int) off);
                size = declared == -1 ? len - 8 : declared; // -1: stored uncompressed
                if (size < 0) {
                    throw new GraphFormatException(
                            "expand: buffer " + i + " uncompressed length " + declared + " (expected: >= 0 or -1)");
                }
            }
            total += size;
            if (total > maxPacketBytes) {
                throw new GraphFormatException("expand: packet buffers of more than " + total
                        + " bytes (expected: <= maxPacketBytes " + maxPacketBytes + ")");
            }
        }
    }

    /**
     * The batch with every ZSTD buffer decompressed into a buffer of its own (sizes were bounded by
     * {@link #checkBuffers}); closes {@code compressed}. Decompressing here rather than in Arrow's
     * loader keeps every buffer's ownership in one place: on a malformed frame all buffers made so
     * far are released and nothing is half-loaded.
     */
    private ArrowRecordBatch decompress(ArrowRecordBatch compressed, RecordBatch rb) {
        List<ArrowBuf> out = new ArrayList<>();
        try (compressed) {
            List<ArrowBuf> in = compressed.getBuffers();
            for (int i = 0; i < in.size(); i++) {
                ArrowBuf b = in.get(i);
                long len = rb.buffers(i).length();
                if (len == 0) {
                    out.add(allocator.getEmpty());
                    continue;
                }
                if (len < 8) {
                    throw new GraphFormatException("expand: compressed buffer " + i + " of " + len
                            + " bytes (expected: >= 8, a length prefix)");
                }
                long declared = b.getLong(0);
                ArrowBuf d;
                if (declared == -1) { // stored uncompressed
                    d = allocator.buffer(len - 8);
                    out.add(d);
                    d.setBytes(0, b, 8, len - 8);
                    d.writerIndex(len - 8);
                } else {
                    d = allocator.buffer(declared);
                    out.add(d);
                    long n = declared == 0
                            ? 0
                            : Zstd.decompressUnsafe(d.memoryAddress(), declared, b.memoryAddress() + 8, len - 8);
                    if (Zstd.isError(n) || n != declared) {
                        throw new GraphFormatException("expand: buffer " + i + " does not decompress to its " + declared
                                + " bytes (" + (Zstd.isError(n) ? Zstd.getErrorName(n) : n + " bytes") + ")");
                    }
                    d.writerIndex(declared);
                }
            }
            return new ArrowRecordBatch(compressed.getLength(), compressed.getNodes(), out); // retains the buffers
        } finally {
            for (ArrowBuf d : out) {
                d.close();
            }
        }
    }

    private static int countNodes(NodeType t) {
        int n = 0;
        for (NodeField f : t.fields) {
            n += f.kind == NodeField.Kind.REF_ARRAY || f.kind == NodeField.Kind.REF_LIST ? 2 : 1;
        }
        return n;
    }

    private void instantiate(NodeType type, VectorSchemaRoot root, int first, int rows) throws GraphFormatException {
        int t = type.id;
        previousRef = new int[type.fields.size()]; // reference differences restart in every packet
        table.ensure(first + rows);
        Object[] objs = new Object[rows]; // this packet's nodes; into table once created
        List<NodeField> fs = type.fields;
        List<FieldVector> vs = root.getFieldVectors();
        try {
            if (type.isRecord) {
                for (int i = 0; i < rows; i++) {
                    Object[] args = new Object[fs.size()];
                    for (int c = 0; c < fs.size(); c++) {
                        args[c] = boxed(t, c, fs.get(c), vs.get(c), i);
                    }
                    objs[i] = (Object) type.constructor.invokeExact(args);
                }
                table.put(first, objs, rows);
                return;
            }
            for (int i = 0; i < rows; i++) {
                objs[i] = (Object) type.constructor.invokeExact();
            }
            for (int c = 0; c < fs.size(); c++) {
                NodeField f = fs.get(c);
                FieldVector v = vs.get(c);
                switch (f.kind) {
                    case BOOLEAN -> {
                        BitVector x = (BitVector) v;
                        for (int i = 0; i < rows; i++) {
                            f.setter.invokeExact(objs[i], x.get(i) != 0);
                        }
                    }
                    case BYTE -> {
                        TinyIntVector x = (TinyIntVector) v;
                        for (int i = 0; i < rows; i++) {
                            f.setter.invokeExact(objs[i], x.get(i));
                        }
                    }
                    case SHORT -> {
                        SmallIntVector x = (SmallIntVector) v;
                        for (int i = 0; i < rows; i++) {
                            f.setter.invokeExact(objs[i], x.get(i));
                        }
                    }
                    case CHAR -> {
                        UInt2Vector x = (UInt2Vector) v;
                        for (int i = 0; i < rows; i++) {
                            f.setter.invokeExact(objs[i], x.get(i));
                        }
                    }
                    case INT -> {
                        IntVector x = (IntVector) v;
                        if (raw && f.offset >= 0) {
                            long a = Columns.address(x, rows, 4);
                            long off = f.offset;
                            for (int i = 0; i < rows; i++) {
                                U.putInt(objs[i], off, U.getInt(a + 4L * i));
                            }
                        } else {
                            for (int i = 0; i < rows; i++) {
                                f.setter.invokeExact(objs[i], x.get(i));
                            }
                        }
                    }
                    case LONG -> {
                        BigIntVector x = (BigIntVector) v;
                        if (raw && f.offset >= 0) {
                            long a = Columns.address(x, rows, 8);
                            long off = f.offset;
                            for (int i = 0; i < rows; i++) {
                                U.putLong(objs[i], off, U.getLong(a + 8L * i));
                            }
                        } else {
                            for (int i = 0; i < rows; i++) {
                                f.setter.invokeExact(objs[i], x.get(i));
                            }
                        }
                    }
                    case FLOAT -> {
                        Float4Vector x = (Float4Vector) v;
                        if (raw && f.offset >= 0) {
                            long a = Columns.address(x, rows, 4);
                            long off = f.offset;
                            for (int i = 0; i < rows; i++) {
                                U.putFloat(objs[i], off, U.getFloat(a + 4L * i));
                            }
                        } else {
                            for (int i = 0; i < rows; i++) {
                                f.setter.invokeExact(objs[i], x.get(i));
                            }
                        }
                    }
                    case DOUBLE -> {
                        Float8Vector x = (Float8Vector) v;
                        if (raw && f.offset >= 0) {
                            long a = Columns.address(x, rows, 8);
                            long off = f.offset;
                            for (int i = 0; i < rows; i++) {
                                U.putDouble(objs[i], off, U.getDouble(a + 8L * i));
                            }
                        } else {
                            for (int i = 0; i < rows; i++) {
                                f.setter.invokeExact(objs[i], x.get(i));
                            }
                        }
                    }
                    case REF -> {
                        // only recorded here; link() writes every reference field, null included
                        if (raw) {
                            long a = Columns.address(v, rows, 4);
                            IntList pending = pendingRefs[c];
                            int[] out = pending.extend(rows);
                            int at = pending.size() - rows;
                            for (int i = 0; i < rows; i++) {
                                out[at + i] = reference(c, U.getInt(a + 4L * i));
                            }
                        } else {
                            for (int i = 0; i < rows; i++) {
                                boxed(t, c, f, v, i);
                            }
                        }
                    }
                    default -> {
                        for (int i = 0; i < rows; i++) {
                            f.setter.invokeExact(objs[i], boxed(t, c, f, v, i));
                        }
                    }
                }
            }
            table.put(first, objs, rows);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable e) {
            throw new GraphFormatException("expand: cannot create " + type.type.getName() + ": " + e, e);
        }
    }

    /** Decodes one coded reference of column c ({@link RefCoding}); -1 stays null. */
    private int reference(int c, int coded) {
        if (coded == -1) {
            return -1;
        }
        long r = (long) previousRef[c] + RefCoding.unzigzag(coded);
        if (coded < 0 || r < 0 || r > Integer.MAX_VALUE) {
            throw new GraphFormatException("expand: reference code " + coded + " after index " + previousRef[c]
                    + " (expected: an index >= 0)");
        }
        previousRef[c] = (int) r;
        return (int) r;
    }

    /** A field value as an object; references are recorded as pending and placeholders returned. */
    private Object boxed(int t, int c, NodeField f, FieldVector v, int i) {
        return switch (f.kind) {
            case BOOLEAN -> ((BitVector) v).get(i) != 0;
            case BYTE -> ((TinyIntVector) v).get(i);
            case SHORT -> ((SmallIntVector) v).get(i);
            case CHAR -> ((UInt2Vector) v).get(i);
            case INT -> ((IntVector) v).get(i);
            case LONG -> ((BigIntVector) v).get(i);
            case FLOAT -> ((Float4Vector) v).get(i);
            case DOUBLE -> ((Float8Vector) v).get(i);
            case STRING -> v.isNull(i) ? null : new String(((VarCharVector) v).get(i), StandardCharsets.UTF_8);
            case BYTES -> v.isNull(i) ? null : ((VarBinaryVector) v).get(i);
            case REF -> {
                pendingRefs[c].add(reference(c, ((IntVector) v).get(i)));
                yield null;
            }
            case REF_ARRAY, REF_LIST -> {
                ListVector lv = (ListVector) v;
                if (lv.isNull(i)) {
                    pendingLens[c].add(-1);
                    yield null;
                }
                int s = lv.getElementStartIndex(i);
                int e = lv.getElementEndIndex(i);
                IntVector data = (IntVector) lv.getDataVector();
                IntList refs = pendingRefs[c];
                for (int k = s; k < e; k++) {
                    refs.add(reference(c, data.get(k)));
                }
                pendingLens[c].add(e - s);
                yield f.kind == NodeField.Kind.REF_ARRAY ? Array.newInstance(f.target, e - s) : new ArrayList<>(e - s);
            }
        };
    }
}
