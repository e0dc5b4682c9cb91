package dev.layout.spark.source;

import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileDomains;
import dev.layout.spark.io.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
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
 * their coordinates in storage order, into one part per file domain the rows fall in, beside the
 * target (temporary names, renamed to {@code .NAME.JOBID.task-NNNNN.domain-DDDDD} on commit): zeros
 * between rows of a domain, a coordinate given twice refused naming it. So no part crosses a
 * domain's bound, whichever rows Spark's range partitioning gave the task. Commits the parts' file
 * ranges to the driver.
 */
final class FileViewPartWriter implements DataWriter<InternalRow> {
    record Factory(
            FileViewSpec spec,
            StructType schema,
            int[] coordColumns,
            int[] memberColumns,
            HadoopConf conf,
            String jobId,
            FileDomains domains)
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
    private final String partPrefix;
    private final FileDomains domains;
    private final byte[] row;
    private final ByteBuffer rowBuf;
    /** The parts written and closed, still under their temporary names. */
    private final List<Piece> done = new ArrayList<>();
    /** The part being written: its stream, temporary name, domain and first element. */
    private FSDataOutputStream out;

    private Path tmp;
    private int domain;
    private long pieceFirst;
    private long first = -1;
    private long next;

    /** A closed part: elements {@code [first, next)} of {@code domain} in {@code tmp}. */
    private record Piece(Path tmp, int domain, long first, long next) {}

    FileViewPartWriter(Factory f, int partitionId) {
        this.spec = f.spec();
        this.types =
                Arrays.stream(f.schema().fields()).map(StructField::dataType).toArray(DataType[]::new);
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
        this.partPrefix =
                "." + target.getName() + "." + f.jobId() + ".task-" + String.format("%05d", partitionId) + ".domain-";
        this.domains = f.domains();
    }

    private Path part(int d) {
        return new Path(target.getParent(), partPrefix + String.format("%05d", d));
    }

    @Override
    public void write(InternalRow r) throws IOException {
        long lin = linearIndex(r);
        if (first >= 0 && lin < next) {
            if (lin == next - 1) {
                throw new IllegalArgumentException(
                        "fileview: coordinate " + coordinates(lin) + " is given twice (expected: each element once)");
            }
            throw new IllegalStateException(
                    "fileview: rows of the task are not in storage order at " + coordinates(lin));
        }
        int d = domains.domainOf(spec.disp + lin * esize);
        if (out != null && d != domain) {
            finishPiece();
        }
        if (out == null) {
            domain = d;
            tmp = new Path(target.getParent(), part(d).getName() + "." + UUID.randomUUID() + ".tmp");
            out = fs.create(tmp, false);
            pieceFirst = lin;
            if (first < 0) {
                first = lin;
            }
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
                throw new IllegalArgumentException("fileview: coordinate " + FileViewSpec.coordinateName(d) + " = " + x
                        + " (expected: 0 <= " + FileViewSpec.coordinateName(d) + " < " + spec.shape[d] + ")");
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
            b.append(d == 0 ? "" : ", ")
                    .append(FileViewSpec.coordinateName(d))
                    .append(" = ")
                    .append(x[d]);
        }
        return b.append(")").toString();
    }

    private void finishPiece() throws IOException {
        FSDataOutputStream o = out;
        out = null;
        done.add(new Piece(tmp, domain, pieceFirst, next));
        o.close();
    }

    @Override
    public WriterCommitMessage commit() throws IOException {
        if (out != null) {
            finishPiece();
        }
        List<FileViewWrite.Part> parts = new ArrayList<>();
        for (Piece p : done) {
            Path part = part(p.domain());
            if (!fs.rename(p.tmp(), part)) {
                fs.delete(p.tmp(), false);
                if (!fs.exists(part)) {
                    throw new IOException("fileview: could not rename " + p.tmp() + " to " + part);
                }
                // Another attempt of this task committed the same rows first.
            }
            parts.add(new FileViewWrite.Part(
                    part.toString(), spec.disp + p.first() * esize, spec.disp + p.next() * esize));
        }
        done.clear();
        return new FileViewWrite.Parts(parts);
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
        for (Piece p : done) {
            fs.delete(p.tmp(), false);
        }
        done.clear();
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
