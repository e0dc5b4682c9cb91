package dev.layout.autolink;

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

/** Aggregation: BFS with marks at construction, then one packet per {@link #next()}. */
final class GraphEncoder implements Iterator<Packet> {
  private final TypeRegistry registry;
  private final BufferAllocator allocator;
  private final int packetRows;
  private final CompressionCodec codec;
  private final long maxPacketBytes;
  private final IdentityIndex index;
  private final Object[][] nodes; // per type, in index order
  private final int[] counts;
  private int entryType = -1;
  private int entryIndex = -1;

  private boolean headerSent;
  private int type;
  private int row;

  // Reference indices recorded during the traversal, per [type][field], in node order (the BFS
  // dequeues the nodes of a type in index order): the packets copy them instead of looking every
  // target up again. REF fields: one index per node (-1 null). REF_ARRAY/REF_LIST: the flattened
  // element indices, and one length per node (-1 for a null container).
  private final IntList[][] refs;
  private final IntList[][] lens;
  private final int[][] elementCursor; // [type][field]: next flattened element of the next packet

  // BFS queue (all types), and a one-entry class cache for type lookup
  private Object[] queue = new Object[16];
  private int tail;
  private Class<?> lastClass;
  private NodeType lastType;

  GraphEncoder(TypeRegistry registry, BufferAllocator allocator, int packetRows, CompressionCodec codec, long maxPacketBytes,
      Object root) {
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
      entryIndex = mark(root, rt);
      traverse();
    }
  }

  private NodeType typeOf(Object o, String via) {
    Class<?> c = o.getClass();
    if (c == lastClass) {
      return lastType;
    }
    NodeType t = registry.typeOf(c);
    if (t == null) {
      throw new IllegalArgumentException("aggregate: node class " + c.getName() + (via == null ? "" : " reached through " + via)
          + " (expected: a registered type, one of " + registry.types().stream().map(Class::getSimpleName).toList() + ")");
    }
    lastClass = c;
    lastType = t;
    return t;
  }

  private int mark(Object o, NodeType t) {
    int i = next(t);
    index.getOrPut(o, nodes[t.id], counts[t.id], i);
    enqueue(o, t, i);
    return i;
  }

  /** The index the next node of type t gets. */
  private int next(NodeType t) {
    int i = counts[t.id];
    if (i == Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("aggregate: nodes of " + t.type.getName() + " " + i + " (expected: fewer, indices are int32)");
    }
    return i;
  }

  private void enqueue(Object o, NodeType t, int i) {
    int id = t.id;
    Object[] a = nodes[id];
    if (i == a.length) {
      a = nodes[id] = java.util.Arrays.copyOf(a, (int) Math.min(Integer.MAX_VALUE - 8L, a.length * 2L));
    }
    a[i] = o;
    counts[id] = i + 1;
    if (tail == queue.length) {
      queue = java.util.Arrays.copyOf(queue, queue.length * 2);
    }
    queue[tail++] = o;
  }

  /** The index of a reference's target (-1 for null), marking it when it is seen for the first time. */
  private int visit(Object target, NodeField f, NodeType from) {
    if (target == null) {
      return -1;
    }
    NodeType t = registry.type(f.targetId);
    int i = index.getOrPut(target, nodes[t.id], counts[t.id], counts[t.id]);
    if (i >= 0) {
      return i; // seen before (its class was checked then)
    }
    i = -1 - i;
    if (target.getClass() != t.type) {
      NodeType actual = typeOf(target, from.type.getSimpleName() + "." + f.name);
      throw new IllegalArgumentException("aggregate: field " + from.type.getSimpleName() + "." + f.name + " holds a "
          + actual.type.getName() + " (expected: exactly " + f.target.getName() + ", subclasses need their own field type)");
    }
    next(t);
    enqueue(target, t, i);
    return i;
  }

  private void traverse() {
    for (int head = 0; head < tail; head++) {
      visitNode(head);
    }
    queue = null;
  }

  /** Visits queue[head]'s references in field order, recording their indices. */
  private void visitNode(int head) {
    Object o = queue[head];
    queue[head] = null;
    NodeType t = typeOf(o, null);
    List<NodeField> fs = t.fields;
    for (int c = 0; c < fs.size(); c++) {
      NodeField f = fs.get(c);
      switch (f.kind) {
        case REF -> refs[t.id][c].add(visit(get(f, o), f, t));
        case REF_ARRAY -> {
          Object[] arr = (Object[]) get(f, o);
          IntList out = refs[t.id][c];
          if (arr == null) {
            lens[t.id][c].add(-1);
          } else {
            lens[t.id][c].add(arr.length);
            for (Object x : arr) {
              out.add(visit(x, f, t));
            }
          }
        }
        case REF_LIST -> {
          List<?> list = (List<?>) get(f, o);
          IntList out = refs[t.id][c];
          if (list == null) {
            lens[t.id][c].add(-1);
          } else {
            int before = out.size();
            for (Object x : list) {
              out.add(visit(x, f, t));
            }
            lens[t.id][c].add(out.size() - before);
          }
        }
        default -> {}
      }
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
      long raw = root.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum();
      if (raw > maxPacketBytes) {
        throw new IllegalArgumentException("aggregate: packet of " + n + " " + t.type.getSimpleName() + " nodes holds " + raw
            + " bytes (expected: <= maxPacketBytes " + maxPacketBytes + "; lower packetRows)");
      }
      ByteArrayOutputStream bos = new ByteArrayOutputStream(256 + (int) Math.min(1 << 30, raw));
      ByteBuffer prefix = ByteBuffer.allocate(Packet.DATA_FIXED).order(ByteOrder.LITTLE_ENDIAN);
      prefix.putInt(Packet.MAGIC).put((byte) 1).put(Packet.VERSION).putShort((short) 0).putInt(t.id).putInt(first).putInt(n);
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
          if (f.offset >= 0) {
            for (int i = 0; i < n; i++) {
              x.set(i, FieldOffsets.U.getInt(objs[first + i], f.offset));
            }
          } else {
            for (int i = 0; i < n; i++) {
              x.set(i, (int) f.getter.invokeExact(objs[first + i]));
            }
          }
        }
        case LONG -> {
          BigIntVector x = (BigIntVector) v;
          x.allocateNew(n);
          if (f.offset >= 0) {
            for (int i = 0; i < n; i++) {
              x.set(i, FieldOffsets.U.getLong(objs[first + i], f.offset));
            }
          } else {
            for (int i = 0; i < n; i++) {
              x.set(i, (long) f.getter.invokeExact(objs[first + i]));
            }
          }
        }
        case FLOAT -> {
          Float4Vector x = (Float4Vector) v;
          x.allocateNew(n);
          if (f.offset >= 0) {
            for (int i = 0; i < n; i++) {
              x.set(i, FieldOffsets.U.getFloat(objs[first + i], f.offset));
            }
          } else {
            for (int i = 0; i < n; i++) {
              x.set(i, (float) f.getter.invokeExact(objs[first + i]));
            }
          }
        }
        case DOUBLE -> {
          Float8Vector x = (Float8Vector) v;
          x.allocateNew(n);
          if (f.offset >= 0) {
            for (int i = 0; i < n; i++) {
              x.set(i, FieldOffsets.U.getDouble(objs[first + i], f.offset));
            }
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
          for (int i = 0; i < n; i++) {
            int ref = r[first + i];
            x.set(i, ref < 0 ? -1 : RefCoding.zigzag(ref - prev));
            prev = ref < 0 ? prev : ref;
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
