package dev.layout.arrow;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Packed messages as an Arrow IPC stream, readable by any Arrow consumer: one column {@code
 * packed} of {@code fixed_size_binary(byteSize * count)}, one row per message, and the message
 * description in the schema metadata: {@value #DATATYPE_KEY} (the datatype's notation), {@value
 * #COUNT_KEY} and {@value #REPRESENTATION_KEY} ({@code native}: little-endian primitives).
 *
 * <pre>{@code
 * Datatype face = VectorRegions.face(Primitive.FLOAT64, sizes, 2, 0);
 * try (LayoutIpc.Writer w = LayoutIpc.writer(allocator, out, face, 1, 64)) {
 *   w.pack(ArrowMemory.ofData(cube), 0);            // one row: the packed face
 * }
 * try (LayoutIpc.Reader r = LayoutIpc.reader(allocator, in)) {
 *   while (r.loadNextBatch()) {
 *     for (int i = 0; i < r.rowCount(); i++) r.unpack(i, ArrowMemory.ofData(other), 0);
 *   }
 * }
 * }</pre>
 *
 * <p>The reader validates the metadata before touching data: the notation must parse and the
 * column width must equal {@code byteSize * count}; otherwise {@link IOException}.
 */
public final class LayoutIpc {
    public static final String DATATYPE_KEY = "layout.datatype";
    public static final String COUNT_KEY = "layout.count";
    public static final String REPRESENTATION_KEY = "layout.representation";
    public static final String COLUMN = "packed";

    private LayoutIpc() {}

    /** The schema of a stream of messages of {@code count} elements of {@code type}. */
    public static Schema schema(Datatype type, long count) {
        Objects.requireNonNull(type, "LayoutIpc: type is null");
        long width = Math.multiplyExact(type.byteSize(), count);
        if (width <= 0 || width > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "LayoutIpc: message size " + width + " bytes (expected: 1 .. " + Integer.MAX_VALUE + ")");
        }
        Field f = new Field(COLUMN, FieldType.notNullable(new ArrowType.FixedSizeBinary((int) width)), null);
        return new Schema(
                List.of(f),
                Map.of(DATATYPE_KEY, type.toString(), COUNT_KEY, Long.toString(count), REPRESENTATION_KEY, "native"));
    }

    /** A writer of messages, {@code batchRows} rows per record batch; close() writes the last batch and the end of stream. */
    public static Writer writer(BufferAllocator allocator, OutputStream out, Datatype type, long count, int batchRows)
            throws IOException {
        Objects.requireNonNull(allocator, "LayoutIpc.writer: allocator is null");
        Objects.requireNonNull(out, "LayoutIpc.writer: out is null");
        if (batchRows < 1) {
            throw new IllegalArgumentException("LayoutIpc.writer: batchRows " + batchRows + " (expected: >= 1)");
        }
        return new Writer(allocator, out, type, count, batchRows);
    }

    public static Reader reader(BufferAllocator allocator, InputStream in) throws IOException {
        Objects.requireNonNull(allocator, "LayoutIpc.reader: allocator is null");
        Objects.requireNonNull(in, "LayoutIpc.reader: in is null");
        return new Reader(allocator, in);
    }

    /** Writes packed messages; not thread-safe. */
    public static final class Writer implements AutoCloseable {
        private final Datatype type;
        private final long count;
        private final int width;
        private final int batchRows;
        private final VectorSchemaRoot root;
        private final FixedSizeBinaryVector column;
        private final ArrowStreamWriter writer;
        private int rows;
        private long written;
        private boolean closed;

        private Writer(BufferAllocator allocator, OutputStream out, Datatype type, long count, int batchRows)
                throws IOException {
            this.type = type;
            this.count = count;
            Schema schema = schema(type, count);
            this.width = (int) (type.byteSize() * count);
            this.batchRows = batchRows;
            this.root = VectorSchemaRoot.create(schema, allocator);
            this.column = (FixedSizeBinaryVector) root.getVector(COLUMN);
            try {
                this.writer = new ArrowStreamWriter(root, null, Channels.newChannel(out));
                writer.start();
            } catch (IOException | RuntimeException e) {
                root.close();
                throw e;
            }
            column.allocateNew(batchRows);
        }

        /** Packs {@code count} elements of the type from {@code user} at {@code origin} as the next message. */
        public void pack(Memory user, long origin) throws IOException {
            Objects.requireNonNull(user, "LayoutIpc.pack: user is null");
            if (closed) {
                throw new IllegalStateException("LayoutIpc.pack: writer is closed");
            }
            Segment s = Segment.of(type, count, user, origin);
            s.pack(ArrowMemory.ofRange(column.getDataBuffer(), (long) rows * width, width), 0, width);
            column.setIndexDefined(rows);
            if (++rows == batchRows) {
                flush();
            }
        }

        /** Adds an already packed message of exactly {@code byteSize * count} bytes at {@code src[offset]}. */
        public void writePacked(Memory src, long offset) throws IOException {
            Objects.requireNonNull(src, "LayoutIpc.writePacked: src is null");
            if (closed) {
                throw new IllegalStateException("LayoutIpc.writePacked: writer is closed");
            }
            Memory.copy(src, offset, ArrowMemory.ofRange(column.getDataBuffer(), (long) rows * width, width), 0, width);
            column.setIndexDefined(rows);
            if (++rows == batchRows) {
                flush();
            }
        }

        /** Messages written so far. */
        public long messages() {
            return written + rows;
        }

        private void flush() throws IOException {
            if (rows == 0) {
                return;
            }
            column.setValueCount(rows);
            root.setRowCount(rows);
            writer.writeBatch();
            written += rows;
            rows = 0;
            column.reset();
            column.allocateNew(batchRows);
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                flush();
                writer.end();
            } finally {
                writer.close();
                root.close();
            }
        }
    }

    /** Reads packed messages batch by batch; not thread-safe. */
    public static final class Reader implements AutoCloseable {
        private final ArrowStreamReader reader;
        private final Datatype type;
        private final long count;
        private final int width;
        private FixedSizeBinaryVector column;

        private Reader(BufferAllocator allocator, InputStream in) throws IOException {
            this.reader = new ArrowStreamReader(in, allocator);
            try {
                Schema schema = reader.getVectorSchemaRoot().getSchema();
                Map<String, String> meta = schema.getCustomMetadata();
                String notation = meta == null ? null : meta.get(DATATYPE_KEY);
                String countText = meta == null ? null : meta.get(COUNT_KEY);
                if (notation == null || countText == null) {
                    throw new IOException("LayoutIpc: schema metadata lacks " + DATATYPE_KEY + " or " + COUNT_KEY
                            + " (found: " + meta + ")");
                }
                String rep = meta.getOrDefault(REPRESENTATION_KEY, "native");
                if (!rep.equals("native")) {
                    throw new IOException("LayoutIpc: " + REPRESENTATION_KEY + " " + rep + " (expected: native)");
                }
                try {
                    this.type = LayoutParser.parse(notation);
                    this.count = Long.parseLong(countText);
                } catch (IllegalArgumentException e) {
                    throw new IOException(
                            "LayoutIpc: bad message description " + DATATYPE_KEY + "=" + notation + ", " + COUNT_KEY
                                    + "=" + countText + ": " + e.getMessage(),
                            e);
                }
                Field f = schema.findField(COLUMN);
                long expected = count < 0 ? -1 : type.byteSize() * count;
                if (!(f.getType() instanceof ArrowType.FixedSizeBinary fsb) || fsb.getByteWidth() != expected) {
                    throw new IOException("LayoutIpc: column " + COLUMN + " is " + f.getType()
                            + " (expected: fixed_size_binary(" + expected + ") for " + count + " x " + notation + ")");
                }
                this.width = (int) expected;
            } catch (IOException | RuntimeException e) {
                reader.close();
                if (e instanceof IllegalArgumentException iae) {
                    throw new IOException("LayoutIpc: " + iae.getMessage(), iae);
                }
                throw e;
            }
        }

        public Datatype type() {
            return type;
        }

        public long count() {
            return count;
        }

        /** Loads the next record batch; false at the end of the stream. */
        public boolean loadNextBatch() throws IOException {
            boolean more = reader.loadNextBatch();
            column = more ? (FixedSizeBinaryVector) reader.getVectorSchemaRoot().getVector(COLUMN) : null;
            return more;
        }

        public int rowCount() {
            return column == null ? 0 : column.getValueCount();
        }

        /** Message {@code row} of the current batch, zero-copy (valid until the next batch). */
        public Memory packed(int row) {
            checkRow(row);
            return ArrowMemory.ofRange(column.getDataBuffer(), (long) row * width, width);
        }

        /** Unpacks message {@code row} of the current batch into {@code dst} (element 0 at {@code origin}). */
        public void unpack(int row, Memory dst, long origin) {
            Segment s = Segment.of(type, count, dst, origin);
            s.unpack(packed(row), 0, s.byteSize());
        }

        private void checkRow(int row) {
            if (row < 0 || row >= rowCount()) {
                throw new IndexOutOfBoundsException(
                        "LayoutIpc: row " + row + " (expected: 0 <= row < " + rowCount() + ")");
            }
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
