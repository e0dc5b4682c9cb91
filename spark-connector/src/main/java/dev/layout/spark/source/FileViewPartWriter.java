package dev.layout.spark.source;

import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileDomains;
import dev.layout.spark.io.DomainOutput;
import dev.layout.spark.io.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * their coordinates in storage order, through one {@link DomainOutput} per file domain the rows
 * fall in: on the local file system in place into the write's one shared file, elsewhere into a
 * part beside the target ({@code .NAME.JOBID.task-NNNNN.domain-DDDDD} once committed) with zeros
 * between rows. A coordinate given twice is refused naming it. Commits the file ranges it wrote
 * to the driver.
 */
final class FileViewPartWriter implements DataWriter<InternalRow> {
    record Factory(
            FileViewSpec spec,
            StructType schema,
            int[] coordColumns,
            int[] memberColumns,
            HadoopConf conf,
            String jobId,
            FileDomains domains,
            long blockSize)
            implements DataWriterFactory {
        @Override
        public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
            return new FileViewPartWriter(this, partitionId);
        }
    }

    /** Bytes gathered before a write to the output. */
    private static final int BUFFER_BYTES = 1 << 16;

    private final FileViewSpec spec;
    private final DataType[] types;
    private final int[] coordColumns;
    private final int[] memberColumns;
    private final List<FileViewSpec.Member> members;
    private final int esize;
    private final FileSystem fs;
    private final Path target;
    private final String jobId;
    private final String partPrefix;
    private final FileDomains domains;
    private final long blockSize;
    private final ByteBuffer buf;
    /** The ranges written and committed. */
    private final List<FileViewWrite.Part> done = new ArrayList<>();
    /** The output being written: its domain, its first file byte, the file byte of buf's first byte. */
    private DomainOutput out;

    private int domain;
    private long pieceStart;
    private long bufStart;
    private long first = -1;
    private long next;

    FileViewPartWriter(Factory f, int partitionId) {
        this.spec = f.spec();
        this.types =
                Arrays.stream(f.schema().fields()).map(StructField::dataType).toArray(DataType[]::new);
        this.coordColumns = f.coordColumns();
        this.memberColumns = f.memberColumns();
        this.members = spec.members();
        this.esize = (int) spec.etypeType().byteSize();
        this.buf = ByteBuffer.allocate(Math.max(esize, BUFFER_BYTES / esize * esize))
                .order(ByteOrder.LITTLE_ENDIAN);
        this.target = new Path(spec.path);
        try {
            this.fs = f.conf().fileSystem(target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.jobId = f.jobId();
        this.partPrefix = "task-" + String.format("%05d", partitionId) + ".domain-";
        this.domains = f.domains();
        this.blockSize = f.blockSize();
    }

    @Override
    public void write(InternalRow r) throws IOException {
        long lin = linearIndex(r);
        if (first >= 0 && lin < next) {
            if (lin == next - 1) {
                throw new IllegalArgumentException("fileview: coordinate " + coordinates(spec, lin)
                        + " is given twice (expected: each element once)");
            }
            throw new IllegalStateException(
                    "fileview: rows of the task are not in storage order at " + coordinates(spec, lin));
        }
        long at = spec.disp + lin * esize;
        int d = domains.domainOf(at);
        if (out != null && d != domain) {
            finishPiece();
        }
        if (out == null) {
            out = DomainOutput.openRange(
                    fs, target, jobId, partPrefix + String.format("%05d", d), domains, d, at, blockSize);
            domain = d;
            pieceStart = at;
            bufStart = at;
            if (first < 0) {
                first = lin;
            }
        } else if (lin > next) {
            flush();
            out.skipTo(at); // zeros between the rows
            bufStart = at;
        }
        if (buf.remaining() < esize) {
            flush();
        }
        int base = buf.position();
        for (int k = 0; k < esize; k++) {
            buf.put(base + k, (byte) 0);
        }
        for (int m = 0; m < members.size(); m++) {
            int c = memberColumns[m];
            Number v = r.isNullAt(c) ? 0 : (Number) r.get(c, types[c]);
            int o = base + members.get(m).packedOffset();
            Primitive p = members.get(m).type();
            switch (p) {
                case BYTE, INT8, UINT8 -> buf.put(o, v.byteValue());
                case INT16, UINT16 -> buf.putShort(o, v.shortValue());
                case INT32, UINT32 -> buf.putInt(o, v.intValue());
                case INT64, UINT64 -> buf.putLong(o, v.longValue());
                case FLOAT32 -> buf.putFloat(o, v.floatValue());
                case FLOAT64 -> buf.putDouble(o, v.doubleValue());
                default -> throw new IllegalStateException("fileview: type " + p);
            }
        }
        buf.position(base + esize);
        next = lin + 1;
    }

    private void flush() throws IOException {
        if (buf.position() > 0) {
            out.write(bufStart, buf.array(), 0, buf.position());
            bufStart += buf.position();
            buf.clear();
        }
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
                throw new IllegalArgumentException("fileview: coordinate " + FileViewSpec.coordinateName(d) + " = " + x
                        + " (expected: 0 <= " + FileViewSpec.coordinateName(d) + " < " + spec.shape[d] + ")");
            }
            l = l * spec.shape[d] + x;
        }
        return l;
    }

    /** The coordinates of linear index {@code lin}, e.g. {@code (i0 = 3, i1 = 5)}. */
    static String coordinates(FileViewSpec spec, long lin) {
        int dims = spec.shape.length;
        long[] x = new long[dims];
        for (int k = dims - 1; k >= 0; k--) {
            int d = spec.order == dev.layout.datatype.Order.C ? k : dims - 1 - k;
            x[d] = lin % spec.shape[d];
            lin /= spec.shape[d];
        }
        StringBuilder b = new StringBuilder("(");
        for (int d = 0; d < dims; d++) {
            b.append(d == 0 ? "" : ", ")
                    .append(FileViewSpec.coordinateName(d))
                    .append(" = ")
                    .append(x[d]);
        }
        return b.append(")").toString();
    }

    private void finishPiece() throws IOException {
        DomainOutput o = out;
        try (o) {
            flush();
            out = null;
            long end = spec.disp + next * esize;
            try {
                o.commit();
            } catch (IOException e) {
                if (!DomainOutput.shared(fs) && fs.exists(part(domain))) {
                    // Another attempt of this task committed the same rows first (its part is whole).
                } else {
                    throw e;
                }
            }
            done.add(new FileViewWrite.Part(part(domain).toString(), pieceStart, end));
        } finally {
            out = null;
            buf.clear();
        }
    }

    private Path part(int d) {
        return DomainOutput.rangePart(target, jobId, partPrefix + String.format("%05d", d));
    }

    @Override
    public WriterCommitMessage commit() throws IOException {
        if (out != null) {
            finishPiece();
        }
        List<FileViewWrite.Part> parts = List.copyOf(done);
        done.clear();
        return new FileViewWrite.Parts(parts);
    }

    @Override
    public void abort() throws IOException {
        close();
    }

    /** Without {@link #commit()}: closes the output (a part not committed is deleted). */
    @Override
    public void close() throws IOException {
        if (out != null) {
            DomainOutput o = out;
            out = null;
            buf.clear();
            o.close();
        }
    }
}
