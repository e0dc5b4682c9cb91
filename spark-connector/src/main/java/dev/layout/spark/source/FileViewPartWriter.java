package dev.layout.spark.source;

import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileDomains;
import dev.layout.spark.io.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One task of a {@link FileViewWrite}. Spark delivers the task's rows in any order; the task keeps
 * each as its element index and bytes in {@link WindowRuns} (per row: the index by strides, the
 * values stored; no object is made) and at the end takes them back window by window (a window: a
 * contiguous range of the file). It assembles each window in a reused buffer, with a bit per element
 * that refuses a coordinate given twice (naming it), and hands the window's runs of given elements,
 * in file order, to a {@link FileOrderOutput}: on the local file system positional writes into the
 * write's one shared file, elsewhere a part per file domain with zeros between the runs. Commits the
 * file ranges it wrote to the driver.
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
            long blockSize,
            long windowElements,
            int runRows)
            implements DataWriterFactory {
        @Override
        public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
            return new FileViewPartWriter(this, partitionId);
        }
    }

    /** Bytes gathered before a positional write. */
    static final int BUFFER_BYTES = 1 << 16;

    /** How a column is read without boxing: as a long, as a double, or (any other type) as a Number. */
    private static final int LONG = 0;

    private static final int DOUBLE = 1;
    private static final int OTHER = 2;

    private final ElementIndex index;
    private final int[] coordColumns;
    private final int[] coordKinds;
    private final int[] memberColumns;
    private final int[] memberKinds;
    private final Primitive[] memberTypes;
    private final int[] memberOffsets;
    private final DataType[] types;
    /** True if the members leave bytes of an element unset (they must be zeros). */
    private final boolean gaps;

    private final int esize;
    private final long disp;
    /** One row's element, assembled from its value columns. */
    private final byte[] element;

    private final ByteBuffer elementView;
    private final WindowRuns runs;
    private final long windowElements;
    /** The window being assembled: its elements' bytes and a bit per element given. */
    private final byte[] window;

    private final long[] given;
    private final FileOrderOutput out;

    /** The window in the buffer (-1: none); the first and last bitmap words touched. */
    private long windowIndex = -1;

    private int lowWord = Integer.MAX_VALUE;
    private int highWord = -1;

    FileViewPartWriter(Factory f, int partitionId) {
        FileViewSpec spec = f.spec();
        this.index = new ElementIndex(spec.shape, spec.order);
        this.types =
                Arrays.stream(f.schema().fields()).map(StructField::dataType).toArray(DataType[]::new);
        this.coordColumns = f.coordColumns();
        this.coordKinds = Arrays.stream(coordColumns).map(c -> kind(types[c])).toArray();
        this.memberColumns = f.memberColumns();
        this.memberKinds = Arrays.stream(memberColumns).map(c -> kind(types[c])).toArray();
        List<FileViewSpec.Member> members = spec.members();
        this.memberTypes = members.stream().map(FileViewSpec.Member::type).toArray(Primitive[]::new);
        this.memberOffsets =
                members.stream().mapToInt(FileViewSpec.Member::packedOffset).toArray();
        this.esize = Math.toIntExact(spec.etypeType().byteSize());
        this.gaps = members.stream().mapToLong(m -> m.type().byteSize()).sum() < esize;
        this.disp = spec.disp;
        this.element = new byte[esize];
        this.elementView = ByteBuffer.wrap(element).order(ByteOrder.LITTLE_ENDIAN);
        this.runs = new WindowRuns(esize, f.windowElements(), f.runRows());
        this.windowElements = f.windowElements();
        this.window = new byte[Math.multiplyExact(Math.toIntExact(windowElements), esize)];
        this.given = new long[(int) ((windowElements + 63) / 64)];
        Path target = new Path(spec.path);
        FileSystem fs;
        try {
            fs = f.conf().fileSystem(target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.out = new FileOrderOutput(
                fs,
                target,
                f.jobId(),
                "task-" + String.format("%05d", partitionId) + ".domain-",
                f.domains(),
                f.blockSize(),
                Math.max(esize, BUFFER_BYTES / esize * esize));
    }

    private static int kind(DataType t) {
        if (t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType || t instanceof LongType) {
            return LONG;
        }
        return t instanceof FloatType || t instanceof DoubleType ? DOUBLE : OTHER;
    }

    @Override
    public void write(InternalRow r) throws IOException {
        long lin = linearIndex(r);
        if (gaps) {
            Arrays.fill(element, (byte) 0);
        }
        for (int m = 0; m < memberColumns.length; m++) {
            put(r, m, memberOffsets[m]);
        }
        runs.add(lin, element);
    }

    /** Puts element {@code lin}'s bytes into its window, which holds the elements of one window at a time. */
    private void assemble(long lin, byte[] bytes, int off) throws IOException {
        long s = lin / windowElements;
        if (s != windowIndex) {
            flushWindow();
            windowIndex = s;
        }
        int k = (int) (lin - s * windowElements);
        int w = k >>> 6;
        long bit = 1L << k;
        if ((given[w] & bit) != 0) {
            throw new IllegalArgumentException(
                    "fileview: coordinate " + index.coordinates(lin) + " is given twice (expected: each element once)");
        }
        given[w] |= bit;
        lowWord = Math.min(lowWord, w);
        highWord = Math.max(highWord, w);
        System.arraycopy(bytes, off, window, k * esize, esize);
    }

    /** Stores member {@code m} of row {@code r} at byte {@code at} of the element, converted as {@link Number} would. */
    private void put(InternalRow r, int m, int at) {
        int c = memberColumns[m];
        Primitive p = memberTypes[m];
        if (r.isNullAt(c)) {
            Arrays.fill(element, at, at + (int) p.byteSize(), (byte) 0);
            return;
        }
        switch (memberKinds[m]) {
            case LONG -> {
                long v = integral(r, c);
                switch (p) {
                    case BYTE, INT8, UINT8 -> elementView.put(at, (byte) v);
                    case INT16, UINT16 -> elementView.putShort(at, (short) v);
                    case INT32, UINT32 -> elementView.putInt(at, (int) v);
                    case INT64, UINT64 -> elementView.putLong(at, v);
                    case FLOAT32 -> elementView.putFloat(at, (float) v);
                    case FLOAT64 -> elementView.putDouble(at, (double) v);
                }
            }
            case DOUBLE -> {
                double v = types[c] instanceof FloatType ? r.getFloat(c) : r.getDouble(c);
                switch (p) {
                    case BYTE, INT8, UINT8 -> elementView.put(at, (byte) v);
                    case INT16, UINT16 -> elementView.putShort(at, (short) v);
                    case INT32, UINT32 -> elementView.putInt(at, (int) v);
                    case INT64, UINT64 -> elementView.putLong(at, (long) v);
                    case FLOAT32 -> elementView.putFloat(at, (float) v);
                    case FLOAT64 -> elementView.putDouble(at, v);
                }
            }
            default -> {
                Number v = (Number) r.get(c, types[c]);
                switch (p) {
                    case BYTE, INT8, UINT8 -> elementView.put(at, v.byteValue());
                    case INT16, UINT16 -> elementView.putShort(at, v.shortValue());
                    case INT32, UINT32 -> elementView.putInt(at, v.intValue());
                    case INT64, UINT64 -> elementView.putLong(at, v.longValue());
                    case FLOAT32 -> elementView.putFloat(at, v.floatValue());
                    case FLOAT64 -> elementView.putDouble(at, v.doubleValue());
                }
            }
        }
    }

    private long integral(InternalRow r, int c) {
        DataType t = types[c];
        if (t instanceof IntegerType) {
            return r.getInt(c);
        }
        if (t instanceof LongType) {
            return r.getLong(c);
        }
        return t instanceof ShortType ? r.getShort(c) : r.getByte(c);
    }

    /** The row's element index in storage order: its coordinates times their strides. */
    private long linearIndex(InternalRow r) {
        long lin = 0;
        for (int d = 0; d < coordColumns.length; d++) {
            int c = coordColumns[d];
            if (r.isNullAt(c)) {
                throw new IllegalArgumentException("fileview: null coordinate " + FileViewSpec.coordinateName(d));
            }
            long x = coordKinds[d] == LONG ? integral(r, c) : ((Number) r.get(c, types[c])).longValue();
            if (x < 0 || x >= index.size(d)) {
                throw new IllegalArgumentException("fileview: coordinate " + FileViewSpec.coordinateName(d) + " = " + x
                        + " (expected: 0 <= " + FileViewSpec.coordinateName(d) + " < " + index.size(d) + ")");
            }
            lin += x * index.stride(d);
        }
        return lin;
    }

    /** Hands the window's runs of given elements to the output, in file order, and clears its bits. */
    private void flushWindow() throws IOException {
        if (highWord < 0) {
            return;
        }
        long first = disp + windowIndex * windowElements * esize;
        int limit = (highWord + 1) * 64;
        for (int a = nextBit(lowWord * 64, limit, 0L); a < limit; ) {
            int b = nextBit(a, limit, -1L);
            out.write(first + (long) a * esize, window, a * esize, (b - a) * esize);
            a = nextBit(b, limit, 0L);
        }
        Arrays.fill(given, lowWord, highWord + 1, 0L);
        lowWord = Integer.MAX_VALUE;
        highWord = -1;
    }

    /**
     * The first element at or after {@code from} whose bit is set ({@code flip} 0) or clear ({@code
     * flip} -1), or {@code limit} (a multiple of 64) if none is before it.
     */
    private int nextBit(int from, int limit, long flip) {
        if (from >= limit) {
            return limit;
        }
        int w = from >>> 6;
        long bits = (given[w] ^ flip) & (-1L << from);
        while (bits == 0) {
            if (++w == limit >>> 6) {
                return limit;
            }
            bits = given[w] ^ flip;
        }
        return w * 64 + Long.numberOfTrailingZeros(bits);
    }

    @Override
    public WriterCommitMessage commit() throws IOException {
        runs.drain(this::assemble);
        flushWindow();
        return new FileViewWrite.Parts(out.commit());
    }

    @Override
    public void abort() throws IOException {
        close();
    }

    /** Without {@link #commit()}: closes the output (a part not committed is deleted). */
    @Override
    public void close() throws IOException {
        runs.close();
        out.close();
    }
}
