package dev.layout.spark.source;

import dev.layout.dataloop.LeafAction;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.fileview.ViewReader;
import dev.layout.spark.io.HadoopConf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Columnar readers: each batch is fresh Arrow vectors (Spark's ColumnarToRow frees them after use). */
final class FileViewReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;
    private static final BufferAllocator ROOT = new RootAllocator();

    private final FileViewSpec spec;
    private final StructType required;
    private final HadoopConf conf;

    FileViewReaderFactory(FileViewSpec spec, StructType required, HadoopConf conf) {
        this.spec = spec;
        this.required = required;
        this.conf = conf;
    }

    /** The view as shipped to the executors (its filetype normalized, see {@link FileViewSpec#shipped}). */
    FileViewSpec spec() {
        return spec;
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        throw new UnsupportedOperationException("fileview: only columnar reads");
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        FileViewInputPartition p = (FileViewInputPartition) partition;
        return new Reader(p.start(), p.end());
    }

    private final class Reader implements PartitionReader<ColumnarBatch> {
        private final long end;
        private long cur;
        private final FileView view;
        private final long esize;
        private final long firstDataByte;
        private final List<FileViewSpec.Member> members = new ArrayList<>();
        /** Per required column: a dimension (>= 0) or -1 - member index. */
        private final int[] source;

        private final boolean needCoords;
        private final boolean needValues;
        private final BufferAllocator alloc;
        private ViewReader in;
        private Segment seg;
        private List<FieldVector> vectors = List.of();
        private ColumnarBatch batch;

        Reader(long start, long end) {
            this.cur = start;
            this.end = end;
            this.view = spec.view();
            this.esize = view.etype().byteSize();
            this.firstDataByte =
                    Segment.layout(view.etype(), 1).flatten(1).get(0).offset();
            List<FileViewSpec.Member> all = spec.members();
            source = new int[required.fields().length];
            boolean c = false;
            boolean v = false;
            for (int i = 0; i < source.length; i++) {
                String name = required.fields()[i].name();
                source[i] = Integer.MIN_VALUE;
                for (int d = 0; d < spec.dimensions(); d++) {
                    if (FileViewSpec.coordinateName(d).equals(name)) {
                        source[i] = d;
                        c = true;
                    }
                }
                for (int m = 0; m < all.size(); m++) {
                    if (all.get(m).name().equals(name)) {
                        source[i] = -1 - members.size();
                        members.add(all.get(m));
                        v = true;
                    }
                }
                if (source[i] == Integer.MIN_VALUE) {
                    throw new IllegalArgumentException("fileview: unknown column " + name + " (expected: one of "
                            + spec.schema().simpleString() + ")");
                }
            }
            needCoords = c;
            needValues = v;
            alloc = ROOT.newChildAllocator("fileview[" + start + "," + end + ")", 0, Long.MAX_VALUE);
        }

        @Override
        public boolean next() throws IOException {
            releaseBatch();
            if (cur >= end) {
                return false;
            }
            int n = (int) Math.min(spec.batchRows, end - cur);
            // A primitive etype Arrow stores as is (signed integers, floats): read straight into the vector.
            boolean direct = needValues && members.size() == 1 && view.etype() instanceof Primitive p && isDirect(p);
            byte[] values = needValues && !direct ? readValues(n) : null;
            long[] lin = needCoords ? linearIndices(n) : null;
            List<FieldVector> vs = new ArrayList<>(source.length);
            ColumnVector[] cols = new ColumnVector[source.length];
            try {
                for (int i = 0; i < source.length; i++) {
                    StructField f = required.fields()[i];
                    FieldVector fv = source[i] >= 0
                            ? coordinates(f.name(), lin, source[i], n)
                            : direct
                                    ? readDirect(
                                            f.name(),
                                            members.get(-1 - source[i]).type(),
                                            n)
                                    : values(f.name(), members.get(-1 - source[i]), values, n);
                    vs.add(fv);
                    cols[i] = new ArrowColumnVector(fv);
                }
            } catch (IOException | RuntimeException e) {
                vs.forEach(FieldVector::close);
                throw e;
            }
            vectors = vs;
            batch = new ColumnarBatch(cols, n);
            cur += n;
            return true;
        }

        private static boolean isDirect(Primitive p) {
            return switch (p) {
                case BYTE, INT8, INT16, INT32, INT64, FLOAT32, FLOAT64 -> true;
                default -> false;
            };
        }

        /** Reads {@code n} etypes of the view into a fresh vector's data buffer, without copies. */
        private FieldVector readDirect(String name, Primitive p, int n) throws IOException {
            org.apache.arrow.vector.BaseFixedWidthVector v =
                    switch (p) {
                        case BYTE, INT8 -> new TinyIntVector(name, alloc);
                        case INT16 -> new SmallIntVector(name, alloc);
                        case INT32 -> new IntVector(name, alloc);
                        case INT64 -> new BigIntVector(name, alloc);
                        case FLOAT32 -> new Float4Vector(name, alloc);
                        case FLOAT64 -> new Float8Vector(name, alloc);
                        default -> throw new IllegalStateException("fileview: type " + p);
                    };
            try {
                v.allocateNew(n);
                v.getValidityBuffer()
                        .setOne(0L, (long) org.apache.arrow.vector.BitVectorHelper.getValidityBufferSize(n));
                open().readAt(cur, v.getDataBuffer(), 0, p, n);
                v.setValueCount(n);
                return v;
            } catch (IOException | RuntimeException e) {
                v.close();
                throw e;
            }
        }

        private ViewReader open() throws IOException {
            if (in == null) {
                Path path = new Path(spec.path);
                FileSystem fs = path.getFileSystem(conf.get());
                in = ViewReader.open(fs, path, view);
            }
            return in;
        }

        private byte[] readValues(int n) throws IOException {
            if (in == null) {
                Path path = new Path(spec.path);
                FileSystem fs = path.getFileSystem(conf.get());
                in = ViewReader.open(fs, path, view);
            }
            byte[] b = new byte[Math.multiplyExact(n, (int) esize)];
            in.readAt(cur, b, 0, Primitive.BYTE, b.length);
            return b;
        }

        /** Linear index in the array (storage order) of each etype of the batch. */
        private long[] linearIndices(int n) {
            if (seg == null) {
                seg = Segment.layout(view.filetype(), FileViewScan.tiles(view, end));
            }
            long[] lin = new long[n];
            long extent = view.etype().extent();
            long disp = view.displacement() + firstDataByte;
            seg.seek(cur * esize);
            long[] stream = {0};
            seg.process(
                    new LeafAction() {
                        @Override
                        public void run(long offset, long length, long streamOffset) {
                            long s = stream[0];
                            long first = ((s + esize - 1) / esize) * esize;
                            for (long m = first; m < s + length; m += esize) {
                                lin[(int) (m / esize)] =
                                        Math.floorDiv(view.displacement() + offset + (m - s) - disp, extent);
                            }
                            stream[0] = s + length;
                        }
                    },
                    (long) n * esize);
            return lin;
        }

        private FieldVector coordinates(String name, long[] lin, int dim, int n) {
            if (spec.shape == null) {
                BigIntVector v = new BigIntVector(name, alloc);
                v.allocateNew(n);
                for (int i = 0; i < n; i++) {
                    v.set(i, lin[i]);
                }
                v.setValueCount(n);
                return v;
            }
            long[] shape = spec.shape;
            int d = shape.length;
            long stride = 1;
            if (spec.order == Order.C) {
                for (int j = dim + 1; j < d; j++) {
                    stride *= shape[j];
                }
            } else {
                for (int j = 0; j < dim; j++) {
                    stride *= shape[j];
                }
            }
            long size = shape[dim];
            boolean slowest = spec.order == Order.C ? dim == 0 : dim == d - 1;
            IntVector v = new IntVector(name, alloc);
            v.allocateNew(n);
            for (int i = 0; i < n; i++) {
                long q = lin[i] / stride;
                v.set(i, (int) (slowest ? q : q % size));
            }
            v.setValueCount(n);
            return v;
        }

        private FieldVector values(String name, FileViewSpec.Member m, byte[] bytes, int n) {
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            int es = (int) esize;
            int off = m.packedOffset();
            switch (m.type()) {
                case BYTE, INT8 -> {
                    TinyIntVector v = new TinyIntVector(name, alloc);
                    v.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        v.set(i, b.get(i * es + off));
                    }
                    v.setValueCount(n);
                    return v;
                }
                case INT16, UINT8 -> {
                    SmallIntVector v = new SmallIntVector(name, alloc);
                    v.allocateNew(n);
                    boolean u = m.type() == Primitive.UINT8;
                    for (int i = 0; i < n; i++) {
                        v.set(i, u ? (short) (b.get(i * es + off) & 0xff) : b.getShort(i * es + off));
                    }
                    v.setValueCount(n);
                    return v;
                }
                case INT32, UINT16 -> {
                    IntVector v = new IntVector(name, alloc);
                    v.allocateNew(n);
                    boolean u = m.type() == Primitive.UINT16;
                    for (int i = 0; i < n; i++) {
                        v.set(i, u ? b.getShort(i * es + off) & 0xffff : b.getInt(i * es + off));
                    }
                    v.setValueCount(n);
                    return v;
                }
                case INT64, UINT32, UINT64 -> {
                    BigIntVector v = new BigIntVector(name, alloc);
                    v.allocateNew(n);
                    boolean u = m.type() == Primitive.UINT32;
                    for (int i = 0; i < n; i++) {
                        v.set(i, u ? b.getInt(i * es + off) & 0xffffffffL : b.getLong(i * es + off));
                    }
                    v.setValueCount(n);
                    return v;
                }
                case FLOAT32 -> {
                    Float4Vector v = new Float4Vector(name, alloc);
                    v.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        v.set(i, b.getFloat(i * es + off));
                    }
                    v.setValueCount(n);
                    return v;
                }
                case FLOAT64 -> {
                    Float8Vector v = new Float8Vector(name, alloc);
                    v.allocateNew(n);
                    for (int i = 0; i < n; i++) {
                        v.set(i, b.getDouble(i * es + off));
                    }
                    v.setValueCount(n);
                    return v;
                }
                default -> throw new IllegalStateException("fileview: type " + m.type());
            }
        }

        @Override
        public ColumnarBatch get() {
            return batch;
        }

        private void releaseBatch() {
            for (FieldVector v : vectors) {
                v.close();
            }
            vectors = List.of();
            batch = null;
        }

        @Override
        public void close() throws IOException {
            releaseBatch();
            try {
                if (in != null) {
                    in.close();
                }
            } finally {
                alloc.close();
            }
        }
    }
}
