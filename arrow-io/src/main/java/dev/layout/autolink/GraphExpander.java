package dev.layout.autolink;

import static dev.layout.autolink.FieldOffsets.U;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import com.github.luben.zstd.Zstd;
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
 * Expansion, push-style: {@link #accept} each packet as it arrives, {@link #result()} once {@link
 * #isComplete()}. Nodes are allocated per type as their rows arrive (never from the announced
 * counts alone), reference indices are kept pending and checked and linked in {@link #result()}, so
 * a failing stream never yields a graph.
 */
public final class GraphExpander {
  private final TypeRegistry registry;
  private final BufferAllocator allocator;
  private final long maxNodes;
  private final long maxPacketBytes;
  private final boolean raw; // Columns: fixed-width columns read through their addresses
  private final ThreadLocal<CompactDecoder> compact; // the accepting thread's decoder (an expander may change threads)
  private int[] previousRef; // per column of the packet being read: the last non-null reference (RefCoding)

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

  GraphExpander(TypeRegistry registry, BufferAllocator allocator, long maxNodes, long maxPacketBytes, boolean raw,
      ThreadLocal<CompactDecoder> compact) {
    this.compact = compact;
    this.raw = raw && Columns.RAW;
    this.registry = registry;
    this.allocator = allocator;
    this.maxNodes = maxNodes;
    this.maxPacketBytes = maxPacketBytes;
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
      throw new GraphFormatException("expand: header length " + p.byteSize() + " (expected: >= " + Packet.HEADER_FIXED + ")");
    }
    long fp = b.getLong(Packet.PREFIX);
    if (fp != registry.fingerprint()) {
      throw new GraphFormatException("expand: registry fingerprint " + Long.toHexString(fp) + " (expected: "
          + Long.toHexString(registry.fingerprint()) + ", the same types registered in the same order on both sides)");
    }
    int typeCount = b.getInt(Packet.PREFIX + 8);
    if (typeCount != n) {
      throw new GraphFormatException("expand: type count " + typeCount + " (expected: " + n + ")");
    }
    if (p.byteSize() != Packet.HEADER_FIXED + 4L * n) {
      throw new GraphFormatException("expand: header length " + p.byteSize() + " (expected: " + (Packet.HEADER_FIXED + 4L * n) + ")");
    }
    int[] c = new int[n];
    long total = 0;
    for (int i = 0; i < n; i++) {
      c[i] = b.getInt(Packet.HEADER_FIXED + 4 * i);
      if (c[i] < 0 || c[i] > Integer.MAX_VALUE - 8) {
        throw new GraphFormatException("expand: count[" + i + "] " + c[i] + " (expected: 0.." + (Integer.MAX_VALUE - 8) + ")");
      }
      total += c[i];
    }
    if (total > maxNodes) {
      throw new GraphFormatException("expand: node count " + total + " (expected: <= maxNodes " + maxNodes + ")");
    }
    int et = b.getInt(Packet.PREFIX + 12);
    int ei = b.getInt(Packet.PREFIX + 16);
    if (et == -1 ? (ei != -1 || total != 0) : (et < 0 || et >= n || ei < 0 || ei >= c[et])) {
      throw new GraphFormatException("expand: entry node (" + et + ", " + ei + ") (expected: a node of the graph, or (-1, -1) for an empty graph)");
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
      throw new GraphFormatException("expand: data packet after the graph is complete (expected: no more packets)");
    }
    if (p.byteSize() < Packet.DATA_FIXED + 8) {
      throw new GraphFormatException("expand: data packet length " + p.byteSize() + " (expected: >= " + (Packet.DATA_FIXED + 8) + ")");
    }
    ByteBuffer b = p.buffer();
    int t = b.getInt(Packet.PREFIX);
    int first = b.getInt(Packet.PREFIX + 4);
    int rows = b.getInt(Packet.PREFIX + 8);
    if (t < 0 || t >= counts.length) {
      throw new GraphFormatException("expand: type id " + t + " (expected: 0.." + (counts.length - 1) + ")");
    }
    if (first != received[t]) {
      throw new GraphFormatException("expand: first row " + first + " of type " + t + " (expected: " + received[t] + ", packets of a type in order)");
    }
    if (rows < 1 || (long) first + rows > counts[t]) {
      throw new GraphFormatException("expand: row count " + rows + " of type " + t + " (expected: 1.." + (counts[t] - first) + ")");
    }
    NodeType type = registry.type(t);

    // Arrow IPC message: continuation, metadata length, metadata, body; lengths checked before allocation.
    int pos = Packet.DATA_FIXED;
    int cont = b.getInt(pos);
    if (cont != MessageSerializer.IPC_CONTINUATION_TOKEN) {
      throw new GraphFormatException("expand: IPC continuation 0x" + Integer.toHexString(cont) + " (expected: 0xffffffff)");
    }
    int metaLen = b.getInt(pos + 4);
    int afterPrefix = p.byteSize() - pos - 8;
    if (metaLen <= 0 || metaLen > afterPrefix) {
      throw new GraphFormatException("expand: IPC metadata length " + metaLen + " (expected: 1.." + afterPrefix + ")");
    }
    ByteBuffer meta = ByteBuffer.wrap(p.bytes(), pos + 8, metaLen).slice().order(ByteOrder.LITTLE_ENDIAN);
    Message msg = Message.getRootAsMessage(meta);
    if (msg.headerType() != MessageHeader.RecordBatch) {
      throw new GraphFormatException("expand: IPC message type " + msg.headerType() + " (expected: record batch " + MessageHeader.RecordBatch + ")");
    }
    long bodyLen = msg.bodyLength();
    int bodyStart = pos + 8 + metaLen;
    int remaining = p.byteSize() - bodyStart;
    if (bodyLen < 0 || bodyLen != remaining) {
      throw new GraphFormatException("expand: IPC body length " + bodyLen + " (expected: " + remaining + ", the rest of the packet)");
    }
    RecordBatch rb = (RecordBatch) msg.header(new RecordBatch());
    if (rb == null || rb.length() != rows) {
      throw new GraphFormatException("expand: batch length " + (rb == null ? "missing" : rb.length()) + " (expected: " + rows + ")");
    }
    if (rb.nodesLength() != countNodes(type)) {
      throw new GraphFormatException("expand: batch field nodes " + rb.nodesLength() + " (expected: " + countNodes(type) + ")");
    }
    // Every column has one value per row; a list's element column at most what maxPacketBytes holds.
    for (int i = 0, c = 0; c < type.fields.size(); c++) {
      long len = rb.nodes(i++).length();
      if (len != rows) {
        throw new GraphFormatException("expand: column " + type.fields.get(c).name + " length " + len + " (expected: " + rows + ")");
      }
      if (type.fields.get(c).kind == NodeField.Kind.REF_ARRAY || type.fields.get(c).kind == NodeField.Kind.REF_LIST) {
        long elements = rb.nodes(i++).length();
        if (elements < 0 || elements > maxPacketBytes / 4) {
          throw new GraphFormatException("expand: column " + type.fields.get(c).name + " elements " + elements + " (expected: 0.."
              + maxPacketBytes / 4 + ", maxPacketBytes / 4)");
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
            throw new GraphFormatException("expand: column " + v.getName() + " length " + v.getValueCount() + " (expected: " + rows + ")");
          }
          if (!v.getField().isNullable() && v.getNullCount() != 0) {
            throw new GraphFormatException("expand: column " + v.getName() + " holds " + v.getNullCount() + " nulls (expected: none)");
          }
        }
        instantiate(type, root, first, rows);
      }
    } finally {
      if (body.refCnt() > 0) {
        body.close();
      }
    }
    received[t] += rows;
    receivedTotal += rows;
  }

  /**
   * Buffers lie inside the body, and a compressed body announces at most {@code maxPacketBytes}
   * uncompressed: checked before anything is allocated or decompressed (a few kilobytes of ZSTD can
   * claim gigabytes).
   */
  private void checkBuffers(Packet p, RecordBatch rb, int bodyStart, int bodyLength) {
    boolean compressed = rb.compression() != null;
    if (compressed && rb.compression().codec() != org.apache.arrow.flatbuf.CompressionType.ZSTD) {
      throw new GraphFormatException("expand: body compression " + rb.compression().codec() + " (expected: ZSTD "
          + org.apache.arrow.flatbuf.CompressionType.ZSTD + " or none)");
    }
    ByteBuffer b = p.buffer();
    long total = 0;
    for (int i = 0; i < rb.buffersLength(); i++) {
      long off = rb.buffers(i).offset();
      long len = rb.buffers(i).length();
      if (off < 0 || len < 0 || off + len > bodyLength) {
        throw new GraphFormatException("expand: buffer " + i + " at " + off + " length " + len + " (expected: inside the body of "
            + bodyLength + " bytes)");
      }
      long size = len;
      if (compressed && len >= 8) {
        long declared = b.getLong(bodyStart + (int) off);
        size = declared == -1 ? len - 8 : declared; // -1: stored uncompressed
        if (size < 0) {
          throw new GraphFormatException("expand: buffer " + i + " uncompressed length " + declared + " (expected: >= 0 or -1)");
        }
      }
      total += size;
      if (total > maxPacketBytes) {
        throw new GraphFormatException("expand: packet buffers of more than " + total + " bytes (expected: <= maxPacketBytes "
            + maxPacketBytes + ")");
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
          throw new GraphFormatException("expand: compressed buffer " + i + " of " + len + " bytes (expected: >= 8, a length prefix)");
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
          long n = declared == 0 ? 0 : Zstd.decompressUnsafe(d.memoryAddress(), declared, b.memoryAddress() + 8, len - 8);
          if (Zstd.isError(n) || n != declared) {
            throw new GraphFormatException("expand: buffer " + i + " does not decompress to its " + declared + " bytes ("
                + (Zstd.isError(n) ? Zstd.getErrorName(n) : n + " bytes") + ")");
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
    nodes[t].ensure(first + rows);
    Object[] objs = new Object[rows]; // this packet's nodes; into nodes[t] once created
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
        nodes[t].put(first, objs, rows);
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
              IntList pending = pendingRefs[t][c];
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
      nodes[t].put(first, objs, rows);
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
      throw new GraphFormatException("expand: reference code " + coded + " after index " + previousRef[c] + " (expected: an index >= 0)");
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
        pendingRefs[t][c].add(reference(c, ((IntVector) v).get(i)));
        yield null;
      }
      case REF_ARRAY, REF_LIST -> {
        ListVector lv = (ListVector) v;
        if (lv.isNull(i)) {
          pendingLens[t][c].add(-1);
          yield null;
        }
        int s = lv.getElementStartIndex(i);
        int e = lv.getElementEndIndex(i);
        IntVector data = (IntVector) lv.getDataVector();
        IntList refs = pendingRefs[t][c];
        for (int k = s; k < e; k++) {
          refs.add(reference(c, data.get(k)));
        }
        pendingLens[t][c].add(e - s);
        yield f.kind == NodeField.Kind.REF_ARRAY ? Array.newInstance(f.target, e - s) : new ArrayList<>(e - s);
      }
    };
  }

  /** Links the references (checking every index) and returns the entry node; null for an empty graph. */
  public Object result() {
    if (failed) {
      throw new GraphFormatException("expand: an earlier packet failed (expected: a new expander)");
    }
    if (!isComplete()) {
      throw new GraphFormatException("expand: graph incomplete, " + receivedTotal + " of " + (header ? expected : "?")
          + " nodes received (expected: all packets before result())");
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
      throw new GraphFormatException("expand: " + from.type.getSimpleName() + "." + f.name + " of node " + row + " index " + idx
          + " (expected: -1.." + (counts[tt] - 1) + ")");
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
                FieldOffsets.U.putObject(objs.get(i), f.offset, target); // null too: a constructor may have set the field
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
          throw new GraphFormatException("expand: cannot link " + type.type.getSimpleName() + "." + f.name + ": " + e, e);
        }
      }
    }
  }
}
