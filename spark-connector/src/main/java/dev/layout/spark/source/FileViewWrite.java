package dev.layout.spark.source;

import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.fileview.ViewWriter;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Writes (coordinates, values) rows into a dense array file of {@code shape} in storage order:
 * tasks encode their rows (linear index, packed etype), the driver stages them in an arrow-io
 * {@link ViewWriter} under a temporary name, commits it, and renames it to the target. Elements
 * no row gives are zeros; a coordinate given twice fails the job. Mode {@code append} creates a
 * new file and refuses an existing one; mode {@code overwrite} replaces it. The data passes
 * through the driver (the view writer stages in memory).
 */
final class FileViewWrite implements Write, BatchWrite {
  private final FileViewSpec spec;
  private final StructType schema;
  private final boolean truncate;
  /** Column of each coordinate, then of each member. */
  private final int[] coordColumns;
  private final int[] memberColumns;

  static final class Builder implements WriteBuilder, SupportsTruncate {
    private final FileViewSpec spec;
    private final StructType schema;
    private boolean truncate;

    Builder(FileViewSpec spec, StructType schema) {
      this.spec = spec;
      this.schema = schema;
    }

    @Override
    public WriteBuilder truncate() {
      truncate = true;
      return this;
    }

    @Override
    public Write build() {
      return new FileViewWrite(spec, schema, truncate);
    }
  }

  FileViewWrite(FileViewSpec spec, StructType schema, boolean truncate) {
    this.spec = spec;
    this.schema = schema;
    this.truncate = truncate;
    if (spec.shape != null ? !spec.isBox() || !Arrays.equals(spec.subsizes, spec.shape) : !spec.filetype.equals(spec.etype)) {
      throw new IllegalArgumentException("fileview: writes take the whole array of shape (expected: no filetype, subarray or darray options)");
    }
    List<String> names = Arrays.asList(schema.fieldNames());
    coordColumns = new int[spec.dimensions()];
    for (int d = 0; d < coordColumns.length; d++) {
      coordColumns[d] = names.indexOf(FileViewSpec.coordinateName(d));
      if (coordColumns[d] < 0) {
        throw new IllegalArgumentException("fileview: write schema " + schema.simpleString() + " has no column " + FileViewSpec.coordinateName(d)
            + " (expected: coordinates i0..i" + (coordColumns.length - 1) + " and values " + spec.schema().simpleString() + ")");
      }
    }
    List<FileViewSpec.Member> ms = spec.members();
    memberColumns = new int[ms.size()];
    int[] others = new int[schema.size()];
    int no = 0;
    for (int c = 0; c < schema.size(); c++) {
      final int cc = c;
      if (Arrays.stream(coordColumns).noneMatch(x -> x == cc)) {
        others[no++] = c;
      }
    }
    for (int m = 0; m < ms.size(); m++) {
      memberColumns[m] = names.indexOf(ms.get(m).name());
    }
    if (Arrays.stream(memberColumns).anyMatch(x -> x < 0)) {
      if (no != ms.size()) {
        throw new IllegalArgumentException("fileview: write schema " + schema.simpleString() + " (expected: coordinates and "
            + ms.size() + " value column(s) named as in " + spec.schema().simpleString() + ")");
      }
      System.arraycopy(others, 0, memberColumns, 0, no);
    }
    for (int c : memberColumns) {
      if (!(schema.fields()[c].dataType() instanceof org.apache.spark.sql.types.NumericType)) {
        throw new IllegalArgumentException("fileview: value column " + schema.fields()[c].name() + " is " + schema.fields()[c].dataType()
            + " (expected: a numeric type)");
      }
    }
  }

  @Override
  public String description() {
    return "FileViewWrite " + spec + (truncate ? " (overwrite)" : "");
  }

  @Override
  public BatchWrite toBatch() {
    try {
      Path path = new Path(spec.path);
      FileSystem fs = path.getFileSystem(hadoopConf());
      if (!truncate && fs.exists(path)) {
        throw new IllegalStateException("fileview: " + path + " already exists (expected: a new path, or mode overwrite)");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  private static Configuration hadoopConf() {
    return SparkSession.active().sparkContext().hadoopConfiguration();
  }

  /** One task's rows: linear indices and packed etypes, in row order. */
  record Part(long[] lin, byte[] values, int count) implements WriterCommitMessage {}

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return new EncoderFactory(spec, schema, coordColumns, memberColumns);
  }

  private record EncoderFactory(FileViewSpec spec, StructType schema, int[] coordColumns, int[] memberColumns) implements DataWriterFactory {
    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
      return new RowEncoder(spec, schema, coordColumns, memberColumns);
    }
  }

  private static final class RowEncoder implements DataWriter<InternalRow> {
    private final FileViewSpec spec;
    private final DataType[] types;
    private final int[] coordColumns;
    private final int[] memberColumns;
    private final List<FileViewSpec.Member> members;
    private final int esize;
    private long[] lin = new long[1024];
    private byte[] values;
    private int count;

    RowEncoder(FileViewSpec spec, StructType schema, int[] coordColumns, int[] memberColumns) {
      this.spec = spec;
      this.types = Arrays.stream(schema.fields()).map(StructField::dataType).toArray(DataType[]::new);
      this.coordColumns = coordColumns;
      this.memberColumns = memberColumns;
      this.members = spec.members();
      this.esize = (int) spec.etypeType().byteSize();
      this.values = new byte[1024 * esize];
    }

    @Override
    public void write(InternalRow row) {
      if (count == lin.length) {
        lin = Arrays.copyOf(lin, count * 2);
        values = Arrays.copyOf(values, count * 2 * esize);
      }
      int dims = coordColumns.length;
      long[] x = new long[dims];
      for (int d = 0; d < dims; d++) {
        int c = coordColumns[d];
        if (row.isNullAt(c)) {
          throw new IllegalArgumentException("fileview: null coordinate " + FileViewSpec.coordinateName(d));
        }
        x[d] = ((Number) row.get(c, types[c])).longValue();
        if (spec.shape != null && (x[d] < 0 || x[d] >= spec.shape[d])) {
          throw new IllegalArgumentException("fileview: coordinate " + FileViewSpec.coordinateName(d) + " = " + x[d] + " (expected: 0 <= "
              + FileViewSpec.coordinateName(d) + " < " + spec.shape[d] + ")");
        }
      }
      long l = 0;
      if (spec.shape == null) {
        l = x[0];
      } else if (spec.order == dev.layout.datatype.Order.C) {
        for (int d = 0; d < dims; d++) {
          l = l * spec.shape[d] + x[d];
        }
      } else {
        for (int d = dims - 1; d >= 0; d--) {
          l = l * spec.shape[d] + x[d];
        }
      }
      if (l < 0) {
        throw new IllegalArgumentException("fileview: coordinate i0 = " + l + " (expected: >= 0)");
      }
      lin[count] = l;
      ByteBuffer b = ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN);
      int base = count * esize;
      for (int m = 0; m < members.size(); m++) {
        int c = memberColumns[m];
        Number v = row.isNullAt(c) ? 0 : (Number) row.get(c, types[c]);
        int at = base + members.get(m).packedOffset();
        Primitive p = members.get(m).type();
        switch (p) {
          case BYTE, INT8, UINT8 -> b.put(at, v.byteValue());
          case INT16, UINT16 -> b.putShort(at, v.shortValue());
          case INT32, UINT32 -> b.putInt(at, v.intValue());
          case INT64, UINT64 -> b.putLong(at, v.longValue());
          case FLOAT32 -> b.putFloat(at, v.floatValue());
          case FLOAT64 -> b.putDouble(at, v.doubleValue());
          default -> throw new IllegalStateException("fileview: type " + p);
        }
      }
      count++;
    }

    @Override
    public WriterCommitMessage commit() {
      return new Part(Arrays.copyOf(lin, count), Arrays.copyOf(values, count * esize), count);
    }

    @Override
    public void abort() {}

    @Override
    public void close() {}
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    Path path = new Path(spec.path);
    try {
      FileSystem fs = path.getFileSystem(hadoopConf());
      if (!truncate && fs.exists(path)) {
        throw new IOException("fileview: " + path + " already exists (expected: a new path, or mode overwrite)");
      }
      Path tmp = new Path(path.getParent(), "." + path.getName() + ".fileview-" + UUID.randomUUID());
      FileView contiguous = FileView.contiguous(spec.disp, spec.etypeType());
      int esize = (int) spec.etypeType().byteSize();
      long total = spec.shape == null ? -1 : spec.elementCount();
      boolean last = false;
      try (ViewWriter w = ViewWriter.create(fs, tmp)) {
        for (WriterCommitMessage msg : messages) {
          Part p = (Part) msg;
          if (p == null || p.count() == 0) {
            continue;
          }
          Integer[] order = new Integer[p.count()];
          for (int i = 0; i < order.length; i++) {
            order[i] = i;
          }
          Arrays.sort(order, (a, b) -> Long.compare(p.lin()[a], p.lin()[b]));
          byte[] sorted = new byte[p.values().length];
          for (int i = 0; i < order.length; i++) {
            System.arraycopy(p.values(), order[i] * esize, sorted, i * esize, esize);
          }
          int i = 0;
          while (i < order.length) {
            int j = i + 1;
            while (j < order.length && p.lin()[order[j]] == p.lin()[order[j - 1]] + 1) {
              j++;
            }
            long first = p.lin()[order[i]];
            w.writeAt(contiguous, first, Memory.ofArray(sorted), (long) i * esize, Primitive.BYTE, (long) (j - i) * esize);
            if (total > 0 && p.lin()[order[j - 1]] == total - 1) {
              last = true;
            }
            i = j;
          }
        }
        if (total > 0 && !last) {
          w.writeAt(contiguous, total - 1, Memory.ofArray(new byte[esize]), 0, Primitive.BYTE, esize);
        }
        w.commit();
      }
      if (truncate && fs.exists(path) && !fs.delete(path, false)) {
        throw new IOException("fileview: could not delete " + path + " to overwrite it");
      }
      if (!fs.rename(tmp, path)) {
        fs.delete(tmp, false);
        throw new IOException("fileview: could not rename " + tmp + " to " + path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {}
}
