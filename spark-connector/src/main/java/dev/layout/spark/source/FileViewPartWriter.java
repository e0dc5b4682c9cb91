package dev.layout.spark.source;

import dev.layout.datatype.Primitive;
import dev.layout.spark.io.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One task of a {@link FileViewWrite}: streams the task's rows, which Spark delivers sorted by
 * their coordinates in storage order, into the task's part beside the target (a temporary name,
 * renamed to {@code .NAME.JOBID.task-NNNNN} on commit): zeros between rows, a coordinate given twice
 * refused naming it. Commits the part's file range to the driver.
 */
final class FileViewPartWriter implements DataWriter<InternalRow> {
  record Factory(FileViewSpec spec, StructType schema, int[] coordColumns, int[] memberColumns, HadoopConf conf, String jobId)
      implements DataWriterFactory {
    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
      return new FileViewPartWriter(this, partitionId);
    }
  }

  private final FileViewSpec spec;
  private final DataType[] types;
  private final int[] coordColumns;
  private final int[] memberColumns;
  private final List<FileViewSpec.Member> members;
  private final int esize;
  private final FileSystem fs;
  private final Path target;
  private final Path part;
  private final Path tmp;
  private final byte[] row;
  private final ByteBuffer rowBuf;
  private FSDataOutputStream out;
  private long first = -1;
  private long next;

  FileViewPartWriter(Factory f, int partitionId) {
    this.spec = f.spec();
    this.types = Arrays.stream(f.schema().fields()).map(StructField::dataType).toArray(DataType[]::new);
    this.coordColumns = f.coordColumns();
    this.memberColumns = f.memberColumns();
    this.members = spec.members();
    this.esize = (int) spec.etypeType().byteSize();
    this.row = new byte[esize];
    this.rowBuf = ByteBuffer.wrap(row).order(ByteOrder.LITTLE_ENDIAN);
    this.target = new Path(spec.path);
    try {
      this.fs = f.conf().fileSystem(target);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.part = new Path(target.getParent(), "." + target.getName() + "." + f.jobId() + ".task-" + String.format("%05d", partitionId));
    this.tmp = new Path(target.getParent(), part.getName() + "." + UUID.randomUUID() + ".tmp");
  }

  @Override
  public void write(InternalRow r) throws IOException {
    long lin = linearIndex(r);
    if (first >= 0 && lin < next) {
      if (lin == next - 1) {
        throw new IllegalArgumentException("fileview: coordinate " + coordinates(lin) + " is given twice (expected: each element once)");
      }
      throw new IllegalStateException("fileview: rows of the task are not in storage order at " + coordinates(lin));
    }
    if (out == null) {
      out = fs.create(tmp, false);
      first = lin;
      next = lin;
    }
    zeros(out, (lin - next) * esize);
    Arrays.fill(row, (byte) 0);
    for (int m = 0; m < members.size(); m++) {
      int c = memberColumns[m];
      Number v = r.isNullAt(c) ? 0 : (Number) r.get(c, types[c]);
      int at = members.get(m).packedOffset();
      Primitive p = members.get(m).type();
      switch (p) {
        case BYTE, INT8, UINT8 -> rowBuf.put(at, v.byteValue());
        case INT16, UINT16 -> rowBuf.putShort(at, v.shortValue());
        case INT32, UINT32 -> rowBuf.putInt(at, v.intValue());
        case INT64, UINT64 -> rowBuf.putLong(at, v.longValue());
        case FLOAT32 -> rowBuf.putFloat(at, v.floatValue());
        case FLOAT64 -> rowBuf.putDouble(at, v.doubleValue());
        default -> throw new IllegalStateException("fileview: type " + p);
      }
    }
    out.write(row);
    next = lin + 1;
  }

  private long linearIndex(InternalRow r) {
    int dims = coordColumns.length;
    long l = 0;
    for (int k = 0; k < dims; k++) {
      int d = spec.order == dev.layout.datatype.Order.C ? k : dims - 1 - k;
      int c = coordColumns[d];
      if (r.isNullAt(c)) {
        throw new IllegalArgumentException("fileview: null coordinate " + FileViewSpec.coordinateName(d));
      }
      long x = ((Number) r.get(c, types[c])).longValue();
      if (x < 0 || x >= spec.shape[d]) {
        throw new IllegalArgumentException("fileview: coordinate " + FileViewSpec.coordinateName(d) + " = " + x + " (expected: 0 <= "
            + FileViewSpec.coordinateName(d) + " < " + spec.shape[d] + ")");
      }
      l = l * spec.shape[d] + x;
    }
    return l;
  }

  /** The coordinates of linear index {@code lin}, e.g. {@code (i0 = 3, i1 = 5)}. */
  private String coordinates(long lin) {
    int dims = spec.shape.length;
    long[] x = new long[dims];
    for (int k = dims - 1; k >= 0; k--) {
      int d = spec.order == dev.layout.datatype.Order.C ? k : dims - 1 - k;
      x[d] = lin % spec.shape[d];
      lin /= spec.shape[d];
    }
    StringBuilder b = new StringBuilder("(");
    for (int d = 0; d < dims; d++) {
      b.append(d == 0 ? "" : ", ").append(FileViewSpec.coordinateName(d)).append(" = ").append(x[d]);
    }
    return b.append(")").toString();
  }

  @Override
  public WriterCommitMessage commit() throws IOException {
    if (out == null) {
      return new FileViewWrite.Part(null, 0, 0);
    }
    out.close();
    out = null;
    if (!fs.rename(tmp, part)) {
      fs.delete(tmp, false);
      if (!fs.exists(part)) {
        throw new IOException("fileview: could not rename " + tmp + " to " + part);
      }
      // Another attempt of this task committed the same rows first.
    }
    long start = spec.disp + first * esize;
    return new FileViewWrite.Part(part.toString(), start, spec.disp + next * esize);
  }

  @Override
  public void abort() throws IOException {
    close();
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      FSDataOutputStream o = out;
      out = null;
      try {
        o.close();
      } finally {
        fs.delete(tmp, false);
      }
    }
  }

  /** Writes {@code n} zero bytes. */
  static void zeros(FSDataOutputStream out, long n) throws IOException {
    byte[] z = new byte[(int) Math.min(n, 64 * 1024)];
    while (n > 0) {
      int k = (int) Math.min(z.length, n);
      out.write(z, 0, k);
      n -= k;
    }
  }
}
