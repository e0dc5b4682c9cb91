package dev.layout.fileview;

import dev.layout.arrow.ArrowMemory;
import dev.layout.dataloop.LeafCopy;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * Reads through a {@link FileView} with explicit offsets ({@code MPI_File_read_at}): the requested
 * etypes are planned into file ranges by a {@link RangePlanner}, read batch by batch (vectored or
 * positioned, see {@link ReadMode}), and unpacked by the engine straight from the read buffers into
 * the user's memory layout ({@code byte[]}, {@code ByteBuffer}, Arrow buffer).
 *
 * <pre>{@code
 * FileView view = new FileView(0, Primitive.FLOAT64, VectorRegions.face(Primitive.FLOAT64, sizes, 2, 0));
 * try (ViewReader r = ViewReader.open(fs, path, view)) {
 *   byte[] face = new byte[(int) view.tileByteSize()];
 *   r.readAt(0, Memory.ofArray(face), 0, Primitive.BYTE, face.length);
 * }
 * }</pre>
 *
 * <p>Errors are {@link IOException}s naming the path and the etype offset: a negative offset, a
 * view reaching past the end of the file ({@link EOFException}), and a file whose length or
 * modification time changed since it was opened (checked after every read, and when a read fails:
 * a read never returns normally with bytes of a changed file). Not thread-safe.
 *
 * <p>Memory: a positioned read holds at most {@link ReadOptions#bufferBytes()} of file data at a
 * time whatever the view (a sieved extent is streamed through that buffer chunk by chunk); a
 * vectored read holds one planning batch ({@link SievingPolicy#maxBatchBytes()}).
 */
public final class ViewReader implements Closeable {
    private final FileSystem fs;
    private final Path path;
    private final FileView view;
    private final ReadOptions options;
    private final RangePlanner planner;
    private final FSDataInputStream in;
    private final long length;
    private final long modificationTime;
    private final boolean nativeVectored;
    private final boolean localFs;
    private boolean closed;
    /** Reused read buffer of vectored reads (while it lasts); grows to about one batch. */
    private byte[] arena = new byte[0];
    /** Reused read buffer of positioned (chunked) reads; grows to at most {@link ReadOptions#bufferBytes()}. */
    private byte[] chunk = new byte[0];

    private Memory chunkMemory = Memory.ofArray(chunk);
    private Memory staging;

    private ViewReader(
            FileSystem fs, Path path, FileView view, ReadOptions options, FSDataInputStream in, FileStatus status) {
        this.fs = fs;
        this.path = path;
        this.view = view;
        this.options = options;
        this.planner = new RangePlanner(view, options.sieving());
        this.in = in;
        this.length = status.getLen();
        this.modificationTime = status.getModificationTime();
        this.nativeVectored = hasNativeVectoredRead(fs, in);
        this.localFs = fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem;
    }

    /**
     * Whether {@link ReadMode#AUTO} should read vectored: the stream declares a native vectored read
     * and is not the local file system, whose vectored read (asynchronous channel plus checksum
     * ranges) measured slower than positioned reads into one buffer (FaceReadBenchmark, XZ face).
     * HDFS in Hadoop 3.4 has only the generic fallback (one positioned read per range).
     */
    static boolean hasNativeVectoredRead(FileSystem fs, FSDataInputStream in) {
        return !(fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem)
                && in.hasCapability(StreamCapabilities.VECTOREDIO);
    }

    public static ViewReader open(FileSystem fs, Path path, FileView view) throws IOException {
        return open(fs, path, view, ReadOptions.defaults());
    }

    /** Opens {@code path} for reading through {@code view}; the file's length and modification time are remembered. */
    public static ViewReader open(FileSystem fs, Path path, FileView view, ReadOptions options) throws IOException {
        Objects.requireNonNull(fs, "ViewReader: fs is null");
        Objects.requireNonNull(path, "ViewReader: path is null");
        Objects.requireNonNull(view, "ViewReader: view is null");
        Objects.requireNonNull(options, "ViewReader: options is null");
        FileStatus status = fs.getFileStatus(path);
        if (status.isDirectory()) {
            throw new IOException("fileview: " + path + " is a directory (expected: a file)");
        }
        FSDataInputStream in = fs.open(path);
        return new ViewReader(fs, path, view, options, in, status);
    }

    public FileView view() {
        return view;
    }

    public Path path() {
        return path;
    }

    /** The file's length when it was opened. */
    public long fileLength() {
        return length;
    }

    /**
     * Reads {@code count} elements of {@code memtype} starting {@code offset} etypes into the view,
     * into {@code dst} whose element 0 is at byte {@code origin}.
     *
     * @throws IOException with the path and offset, if the offset is negative, the view reaches past
     *     the end of the file, the file changed since it was opened, or the file system fails
     * @throws IllegalArgumentException if {@code memtype}'s data is not a whole number of etypes
     * @throws IndexOutOfBoundsException if the elements do not fit in {@code dst}
     */
    public ReadStats readAt(long offset, Memory dst, long origin, Datatype memtype, long count) throws IOException {
        Objects.requireNonNull(dst, "readAt: dst is null");
        Objects.requireNonNull(memtype, "readAt: memtype is null");
        if (closed) {
            throw new IllegalStateException("readAt: reader of " + path + " is closed");
        }
        if (offset < 0) {
            throw new IOException("fileview: negative offset " + offset + " (expected: >= 0 etypes) reading " + path);
        }
        long etypeSize = view.etype().byteSize();
        long bytes = Math.multiplyExact(memtype.byteSize(), count);
        if (bytes % etypeSize != 0) {
            throw new IllegalArgumentException("readAt: " + count + " x " + memtype + " is " + bytes
                    + " bytes (expected: a multiple of etype " + view.etype() + " size " + etypeSize + ")");
        }
        long streamOffset;
        try {
            streamOffset = Math.multiplyExact(offset, etypeSize);
        } catch (ArithmeticException e) {
            throw new IOException("fileview: offset " + offset + " etypes overflows a byte offset reading " + path, e);
        }
        Segment user = Segment.of(memtype, count, dst, origin);
        long t0 = System.nanoTime();
        // The file's status is checked once per read, after it (a file system call each: a namenode
        // round trip on HDFS, as long as tens of 2 KiB positioned reads); a change since open, between
        // reads or during this one, fails the read there, or where the read itself fails.
        long end = planner.fileEnd(streamOffset, bytes);
        if (end > length) {
            checkUnchanged(offset);
            throw new EOFException("fileview: read at offset " + offset + " (" + bytes + " bytes) reaches file byte "
                    + end + " of " + path + ", past its end at " + length + " bytes");
        }
        RangePlanner.Cursor cursor = planner.plan(streamOffset, bytes);
        long fileBytes = 0;
        if (bytes > 0) {
            Extraction e = new Extraction(streamOffset, bytes, dst, origin, memtype, user);
            try {
                for (RangePlanner.Batch b = cursor.next(); b != null; b = cursor.next()) {
                    if (vectored(b)) {
                        Window[] windows = readVectored(b, offset);
                        int piece = 0;
                        for (int r = 0; r < b.rangeCount(); r++) {
                            long len = 0;
                            while (piece < b.pieceCount() && b.pieceRange(piece) == r) {
                                len += b.pieceLength(piece++);
                            }
                            Window w = windows[r];
                            e.extract(w.memory, w.offset, b.rangeOffset(r), b.rangeLength(r), len);
                        }
                        fileBytes += b.readBytes();
                    } else {
                        fileBytes += readChunked(b, offset, e);
                    }
                }
            } catch (IOException failed) {
                // A file replaced or cut short mid-read fails in whatever way the file system reports
                // (end of file, missing block): say what happened when the file's status shows it.
                IOException changed = changedError(offset);
                if (changed != null) {
                    changed.initCause(failed);
                    throw changed;
                }
                throw failed;
            }
        }
        checkUnchanged(offset);
        return new ReadStats(bytes, cursor.pieceCount(), cursor.rangeCount(), fileBytes, System.nanoTime() - t0);
    }

    /** {@link #readAt(long, Memory, long, Datatype, long)} into a {@code byte[]}. */
    public ReadStats readAt(long offset, byte[] dst, long origin, Datatype memtype, long count) throws IOException {
        Objects.requireNonNull(dst, "readAt: dst is null");
        return readAt(offset, Memory.ofArray(dst), origin, memtype, count);
    }

    /** {@link #readAt(long, Memory, long, Datatype, long)} into an Arrow buffer, without copies. */
    public ReadStats readAt(long offset, ArrowBuf dst, long origin, Datatype memtype, long count) throws IOException {
        Objects.requireNonNull(dst, "readAt: dst is null");
        return readAt(offset, ArrowMemory.of(dst), origin, memtype, count);
    }

    /** Reads {@code byteLength} bytes of view data from etype {@code offset} on, packed, into {@code dst} at {@code dstOffset}. */
    public ReadStats readPacked(long offset, Memory dst, long dstOffset, long byteLength) throws IOException {
        Objects.requireNonNull(dst, "readPacked: dst is null");
        return readAt(offset, dst, dstOffset, Primitive.BYTE, byteLength);
    }

    /** True when element k's data of a count of {@code t} is the bytes {@code [trueLb + k * size, ...)}: stream byte i lands at {@code trueLb + i}. */
    private static boolean isContiguous(Datatype t) {
        return t.isContiguous() && t.extent() == t.byteSize() && t.lb() == t.trueLb();
    }

    private Memory staging(long len) {
        if (staging == null || staging.byteSize() < len) {
            staging = Memory.ofArray(new byte[(int) Math.max(len, 64 * 1024)]);
        }
        return staging;
    }

    /** Where a range's bytes landed: file byte {@code rangeOffset + i} is {@code memory} byte {@code offset + i}. */
    private record Window(Memory memory, long offset) {}

    /** Whether batch {@code b} is read vectored (see {@link ReadMode}). */
    private boolean vectored(RangePlanner.Batch b) {
        return switch (options.mode()) {
            case VECTORED -> true;
            case POSITIONED -> false;
            case AUTO -> nativeVectored && !dense(b);
        };
    }

    /** Whether the ranges of {@code b} form one run, each within {@link #NEAR_BYTES} of the previous: one stream serves them. */
    private static boolean dense(RangePlanner.Batch b) {
        for (int i = 1; i < b.rangeCount(); i++) {
            if (!near(b.rangeOffset(i - 1) + b.rangeLength(i - 1), b.rangeOffset(i))) {
                return false;
            }
        }
        return true;
    }

    /** Makes the reused read buffer at least {@code bytes} long. */
    private void ensureArena(long bytes) {
        if (arena.length < bytes) {
            // A large batch is followed by others about as large (a sieved extent): take the most any
            // batch can read at once, so that one big read allocates its buffer once.
            SievingPolicy p = options.sieving();
            long most = Math.min(
                    Integer.MAX_VALUE - 64, p.maxBatchBytes() + p.maxRangeBytes() + Math.max(0, p.holeThreshold()));
            arena = new byte[(int) (bytes >= p.maxBatchBytes() / 2 ? Math.max(bytes, most) : bytes)];
        }
    }

    private Window[] readVectored(RangePlanner.Batch b, long offset) throws IOException {
        List<FileRange> ranges = new ArrayList<>(b.rangeCount());
        for (int i = 0; i < b.rangeCount(); i++) {
            ranges.add(FileRange.createFileRange(b.rangeOffset(i), (int) b.rangeLength(i)));
        }
        ensureArena(b.readBytes());
        // Buffers are carved out of the reused arena while it lasts (the file system may ask for merged
        // ranges, so it can run out); the allocator may be called from the file system's threads.
        long[] next = {0};
        IntFunction<ByteBuffer> allocate = n -> {
            synchronized (next) {
                if (next[0] + n <= arena.length) {
                    ByteBuffer bb = ByteBuffer.wrap(arena, (int) next[0], n).slice();
                    next[0] += n;
                    return bb;
                }
            }
            return ByteBuffer.allocate(n);
        };
        in.readVectored(ranges, allocate);
        Window[] out = new Window[ranges.size()];
        long timeout = options.rangeTimeout().toNanos();
        for (int i = 0; i < out.length; i++) {
            FileRange r = ranges.get(i);
            ByteBuffer data;
            try {
                data = r.getData().get(timeout, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(
                        "fileview: interrupted reading " + path + " at file byte " + r.getOffset());
            } catch (TimeoutException e) {
                throw new IOException(
                        "fileview: no data after " + options.rangeTimeout() + " for range [" + r.getOffset() + ", "
                                + (r.getOffset() + r.getLength()) + ") of " + path + " (read at offset " + offset + ")",
                        e);
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                String msg = "fileview: reading range [" + r.getOffset() + ", " + (r.getOffset() + r.getLength())
                        + ") of " + path + " (read at offset " + offset + "): " + c;
                throw c instanceof EOFException
                        ? (EOFException) new EOFException(msg).initCause(c)
                        : new IOException(msg, c);
            }
            ByteBuffer s = data.slice();
            if (s.remaining() < r.getLength()) {
                throw new EOFException("fileview: range [" + r.getOffset() + ", " + (r.getOffset() + r.getLength())
                        + ") of " + path + " returned " + s.remaining() + " bytes (read at offset " + offset
                        + "; file changed?)");
            }
            out[i] = new Window(Memory.ofBuffer(s.limit(r.getLength()).slice()), 0);
        }
        return out;
    }

    /**
     * Reads the ranges of {@code b} in file order, in chunks of at most {@link
     * ReadOptions#bufferBytes()} into the reused {@link #chunk}, and extracts each chunk's pieces
     * (whole or in part) before reading the next: memory stays at one chunk however long the
     * (sieved) ranges. Returns the file bytes read.
     *
     * <p>The stream's own position serves runs of near ranges (a sieved extent split at {@code
     * maxRangeBytes}: one HDFS block reader streams it, skipping the short gaps), ranges longer than
     * a chunk, and every range on the local file system (where a positioned read reopens the data and
     * checksum files); a short isolated range elsewhere takes one positioned read, which asks for
     * exactly its bytes, and consecutive such ranges that fit the buffer together are read with up to
     * {@link ReadOptions#parallelReads()} positioned reads in flight.
     */
    private long readChunked(RangePlanner.Batch b, long offset, Extraction e) throws IOException {
        int n = b.rangeCount();
        int bufferBytes = options.bufferBytes();
        int piece = 0;
        long done = 0; // bytes of piece `piece` already extracted
        long read = 0;
        for (int i = 0; i < n; ) {
            if (!streamed(b, i)) {
                // A round of isolated ranges (each at most a buffer long) that fit the buffer together:
                // positioned reads, several in flight, then extracted in order.
                int j = i;
                long bytes = 0;
                while (j < n && !streamed(b, j) && bytes + b.rangeLength(j) <= bufferBytes) {
                    bytes += b.rangeLength(j++);
                }
                ensureChunk((int) bytes);
                ParallelReads.read(in, path, b, i, j, chunk, options.parallelReads(), offset);
                long at = 0;
                for (int r = i; r < j; r++) {
                    long take = 0;
                    while (piece < b.pieceCount() && b.pieceRange(piece) == r) {
                        take += b.pieceLength(piece++);
                    }
                    e.extract(chunkMemory, at, b.rangeOffset(r), b.rangeLength(r), take);
                    at += b.rangeLength(r);
                }
                read += bytes;
                i = j;
                continue;
            }
            long off = b.rangeOffset(i);
            long end = off + b.rangeLength(i);
            for (long c0 = off; c0 < end; ) {
                int len = (int) Math.min(bufferBytes, end - c0);
                ensureChunk(len);
                try {
                    if (in.getPos() != c0) {
                        in.seek(c0);
                    }
                    in.readFully(chunk, 0, len);
                } catch (EOFException x) {
                    throw (EOFException) new EOFException("fileview: range [" + off + ", " + end + ") of " + path
                                    + " is past its end at byte " + (c0 + len) + " (read at offset " + offset
                                    + "; file changed?)")
                            .initCause(x);
                }
                read += len;
                long c1 = c0 + len;
                // The stream bytes whose file bytes lie in [c0, c1): the pieces of range i from the
                // current one on, the last perhaps in part (the rest comes from the next chunk).
                long take = 0;
                while (piece < b.pieceCount() && b.pieceRange(piece) == i) {
                    long f = b.pieceOffset(piece) + done;
                    if (f >= c1) {
                        break;
                    }
                    long k = Math.min(b.pieceLength(piece) - done, c1 - f);
                    take += k;
                    done += k;
                    if (done < b.pieceLength(piece)) {
                        break;
                    }
                    piece++;
                    done = 0;
                }
                e.extract(chunkMemory, 0, c0, len, take);
                c0 = c1;
            }
            i++;
        }
        return read;
    }

    /** Whether range {@code i} of {@code b} is read through the stream rather than by position (see {@link #readChunked}). */
    private boolean streamed(RangePlanner.Batch b, int i) {
        long off = b.rangeOffset(i);
        long len = b.rangeLength(i);
        return localFs
                || len > options.bufferBytes()
                || i > 0 && near(b.rangeOffset(i - 1) + b.rangeLength(i - 1), off)
                || i + 1 < b.rangeCount() && near(off + len, b.rangeOffset(i + 1));
    }

    /** Makes the reused chunk buffer at least {@code bytes} long (at most {@link ReadOptions#bufferBytes()}). */
    private void ensureChunk(int bytes) {
        if (chunk.length < bytes) {
            chunk = new byte[bytes];
            chunkMemory = Memory.ofArray(chunk);
        }
    }

    /**
     * Whether a stream positioned at {@code end} should read on to {@code next} rather than take a
     * positioned read: the gap is at most 64 KiB, which an HDFS block reader skips by reading through
     * (below its 128 KiB TCP window) instead of opening a new one.
     */
    private static boolean near(long end, long next) {
        return next >= end && next - end <= NEAR_BYTES;
    }

    private static final long NEAR_BYTES = 64 * 1024;

    /**
     * The extraction of one read: the filetype itself drives it, a layout segment over the tiles of
     * the read visiting the window's file bytes leaf by leaf (a whole strided leaf is one kernel
     * call), straight into the user's memory when the memtype is contiguous, else through a staging
     * buffer and the memtype's unpack. Stream bytes are extracted in order, {@link #extract} call
     * after call.
     */
    private final class Extraction {
        private final Segment fileLayout;
        private final long tileStart;
        private final long base;
        private final boolean direct;
        private final Segment user;
        private final LeafCopy x = new LeafCopy("fileview");
        /** Stream offset of the next byte to extract. */
        private long s;

        Extraction(long streamOffset, long bytes, Memory dst, long origin, Datatype memtype, Segment user) {
            long tileSize = view.tileByteSize();
            long firstTile = streamOffset / tileSize;
            long lastTile = (streamOffset + bytes - 1) / tileSize;
            this.fileLayout = Segment.layout(view.filetype(), lastTile - firstTile + 1);
            this.tileStart = firstTile * tileSize;
            this.base = planner.tileBase(firstTile);
            this.direct = isContiguous(memtype);
            this.user = user;
            this.s = streamOffset;
            if (direct) {
                dst.checkWritable("readAt");
                x.destination(dst, origin + memtype.trueLb() - (streamOffset - tileStart));
            }
            fileLayout.seek(streamOffset - tileStart);
        }

        /**
         * Extracts the next {@code len} stream bytes, whose file bytes lie in the window of {@code
         * windowLength} bytes at {@code memory} byte {@code memoryOffset}, which holds file bytes from
         * {@code fileOffset} on.
         */
        void extract(Memory memory, long memoryOffset, long fileOffset, long windowLength, long len) {
            if (len == 0) {
                return;
            }
            x.source(memory, base - fileOffset + memoryOffset, memoryOffset, memoryOffset + windowLength);
            if (fileLayout.position() != s - tileStart) {
                fileLayout.seek(s - tileStart);
            }
            if (direct) {
                fileLayout.process(x, len);
            } else {
                Memory staging = staging(len);
                x.destination(staging, -(s - tileStart));
                fileLayout.process(x, len);
                user.unpack(staging, 0, len);
            }
            s += len;
        }
    }

    private void checkUnchanged(long offset) throws IOException {
        IOException changed = changedError(offset);
        if (changed != null) {
            throw changed;
        }
    }

    /** The error to throw if the file's length or modification time differ from those at open, else null. */
    private IOException changedError(long offset) throws IOException {
        FileStatus now;
        try {
            now = fs.getFileStatus(path);
        } catch (java.io.FileNotFoundException gone) {
            return new IOException("fileview: " + path + " changed during read at offset " + offset
                    + " (deleted; length was " + length + ", modification time " + modificationTime + ")");
        }
        if (now.getLen() != length || now.getModificationTime() != modificationTime) {
            return new IOException("fileview: " + path + " changed during read at offset " + offset + " (length "
                    + length + " -> " + now.getLen() + ", modification time " + modificationTime + " -> "
                    + now.getModificationTime() + ")");
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            in.close();
        }
    }
}
