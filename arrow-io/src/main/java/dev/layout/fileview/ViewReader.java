package dev.layout.fileview;

import dev.layout.arrow.ArrowMemory;
import dev.layout.dataloop.LeafAction;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import dev.layout.memory.MemoryAccess;
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
 * modification time changed since it was opened. Not thread-safe.
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
  /** Reused read buffer of positioned (and, while it lasts, vectored) reads; grows to about one batch. */
  private byte[] arena = new byte[0];
  private Memory arenaMemory = Memory.ofArray(arena);
  private Memory staging;

  private ViewReader(FileSystem fs, Path path, FileView view, ReadOptions options, FSDataInputStream in, FileStatus status) {
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
    return !(fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem) && in.hasCapability(StreamCapabilities.VECTOREDIO);
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
      throw new IllegalArgumentException("readAt: " + count + " x " + memtype + " is " + bytes + " bytes (expected: a multiple of etype "
          + view.etype() + " size " + etypeSize + ")");
    }
    long streamOffset;
    try {
      streamOffset = Math.multiplyExact(offset, etypeSize);
    } catch (ArithmeticException e) {
      throw new IOException("fileview: offset " + offset + " etypes overflows a byte offset reading " + path, e);
    }
    Segment user = Segment.of(memtype, count, dst, origin);
    long t0 = System.nanoTime();
    checkUnchanged(offset);
    long end = planner.fileEnd(streamOffset, bytes);
    if (end > length) {
      throw new EOFException("fileview: read at offset " + offset + " (" + bytes + " bytes) reaches file byte " + end + " of " + path
          + ", past its end at " + length + " bytes");
    }
    RangePlanner.Cursor cursor = planner.plan(streamOffset, bytes);
    long fileBytes = 0;
    if (bytes > 0) {
      // The filetype itself drives the extraction: a layout segment over the tiles of this read
      // visits each range's stream bytes leaf by leaf (a whole strided leaf is one kernel call).
      long tileSize = view.tileByteSize();
      long firstTile = streamOffset / tileSize;
      long lastTile = (streamOffset + bytes - 1) / tileSize;
      Segment fileLayout = Segment.layout(view.filetype(), lastTile - firstTile + 1);
      long tileStart = firstTile * tileSize;
      long base = planner.tileBase(firstTile);
      boolean direct = isContiguous(memtype);
      Extract x = new Extract();
      if (direct) {
        dst.checkWritable("readAt");
        x.dst = dst;
        x.dstDelta = origin + memtype.trueLb() - (streamOffset - tileStart);
      }
      for (RangePlanner.Batch b = cursor.next(); b != null; b = cursor.next()) {
        Window[] windows = read(b, offset);
        long s = b.streamOffset();
        int piece = 0;
        for (int r = 0; r < b.rangeCount(); r++) {
          long len = 0;
          while (piece < b.pieceCount() && b.pieceRange(piece) == r) {
            len += b.pieceLength(piece++);
          }
          Window w = windows[r];
          x.src = w.memory;
          x.srcDelta = base - b.rangeOffset(r) + w.offset;
          x.srcEnd = w.offset + b.rangeLength(r);
          x.srcStart = w.offset;
          fileLayout.seek(s - tileStart);
          if (direct) {
            fileLayout.process(x, len);
          } else {
            Memory staging = staging(len);
            x.dst = staging;
            x.dstDelta = -(s - tileStart);
            fileLayout.process(x, len);
            user.unpack(staging, 0, len);
          }
          s += len;
        }
        fileBytes += b.readBytes();
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

  private Window[] read(RangePlanner.Batch b, long offset) throws IOException {
    ReadMode mode = options.mode();
    if (mode == ReadMode.AUTO) {
      mode = nativeVectored ? ReadMode.VECTORED : ReadMode.POSITIONED;
    }
    return mode == ReadMode.VECTORED ? readVectored(b, offset) : readPositioned(b, offset);
  }

  /** Makes the reused read buffer at least {@code bytes} long. */
  private void ensureArena(long bytes) {
    if (arena.length < bytes) {
      // A large batch is followed by others about as large (a sieved extent): take the most any
      // batch can read at once, so that one big read allocates its buffer once.
      SievingPolicy p = options.sieving();
      long most = Math.min(Integer.MAX_VALUE - 64, p.maxBatchBytes() + p.maxRangeBytes() + Math.max(0, p.holeThreshold()));
      arena = new byte[(int) (bytes >= p.maxBatchBytes() / 2 ? Math.max(bytes, most) : bytes)];
      arenaMemory = Memory.ofArray(arena);
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
        throw new InterruptedIOException("fileview: interrupted reading " + path + " at file byte " + r.getOffset());
      } catch (TimeoutException e) {
        throw new IOException("fileview: no data after " + options.rangeTimeout() + " for range [" + r.getOffset() + ", "
            + (r.getOffset() + r.getLength()) + ") of " + path + " (read at offset " + offset + ")", e);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        String msg = "fileview: reading range [" + r.getOffset() + ", " + (r.getOffset() + r.getLength()) + ") of " + path
            + " (read at offset " + offset + "): " + c;
        throw c instanceof EOFException ? (EOFException) new EOFException(msg).initCause(c) : new IOException(msg, c);
      }
      ByteBuffer s = data.slice();
      if (s.remaining() < r.getLength()) {
        throw new EOFException("fileview: range [" + r.getOffset() + ", " + (r.getOffset() + r.getLength()) + ") of " + path
            + " returned " + s.remaining() + " bytes (read at offset " + offset + "; file changed?)");
      }
      out[i] = new Window(Memory.ofBuffer(s.limit(r.getLength()).slice()), 0);
    }
    return out;
  }

  private Window[] readPositioned(RangePlanner.Batch b, long offset) throws IOException {
    ensureArena(b.readBytes());
    int n = b.rangeCount();
    Window[] out = new Window[n];
    int at = 0;
    for (int i = 0; i < n; i++) {
      long off = b.rangeOffset(i);
      int len = (int) b.rangeLength(i);
      // The stream's own position serves runs of near ranges (a sieved extent split at
      // maxRangeBytes: one HDFS block reader streams it, skipping short gaps) and every range on the
      // local file system (where a positioned read reopens the data and checksum files); isolated
      // ranges elsewhere take a positioned read, which asks for exactly their bytes.
      boolean sequential = localFs || i > 0 && near(b.rangeOffset(i - 1) + b.rangeLength(i - 1), off)
          || i + 1 < n && near(off + len, b.rangeOffset(i + 1));
      try {
        if (sequential) {
          if (in.getPos() != off) {
            in.seek(off);
          }
          in.readFully(arena, at, len);
        } else {
          in.readFully(off, arena, at, len);
        }
      } catch (EOFException e) {
        throw (EOFException) new EOFException("fileview: range [" + off + ", " + (off + len) + ") of " + path
            + " is past its end (read at offset " + offset + "; file changed?)").initCause(e);
      }
      out[i] = new Window(arenaMemory, at);
      at += len;
    }
    return out;
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
   * Copies the leaves of a range out of its window: file byte {@code base + o} (o a layout offset)
   * is {@code src} byte {@code o + srcDelta}; stream byte {@code s} of the layout goes to {@code dst}
   * byte {@code s + dstDelta}. The kernels are unchecked, so each leaf is checked against the
   * window first (the destination range is checked once per read by the user segment or staging).
   */
  private static final class Extract implements LeafAction {
    Memory src;
    long srcDelta;
    long srcStart;
    long srcEnd;
    Memory dst;
    long dstDelta;

    private void check(long lo, long hi) {
      if (lo < srcStart || hi > srcEnd) {
        throw new IllegalStateException("fileview: leaf bytes [" + lo + ", " + hi + ") outside the range read [" + srcStart + ", " + srcEnd + ")");
      }
    }

    @Override
    public void run(long offset, long length, long streamOffset) {
      long a = offset + srcDelta;
      check(a, a + length);
      dst.checkRange("readAt", streamOffset + dstDelta, length);
      MemoryAccess.copy(src, a, dst, streamOffset + dstDelta, length);
    }

    @Override
    public void vector(long offset, long byteStride, long blockLength, long count, long streamOffset) {
      if (count <= 0) {
        return;
      }
      long first = offset + srcDelta;
      long last = first + (count - 1) * byteStride;
      check(Math.min(first, last), Math.max(first, last) + blockLength);
      dst.checkRange("readAt", streamOffset + dstDelta, count * blockLength);
      MemoryAccess.strided(src, first, byteStride, dst, streamOffset + dstDelta, blockLength, blockLength, count);
    }

    @Override
    public void blocks(long offset, long[] offsets, long[] lengths, long uniformLength, int from, int to, long streamOffset) {
      long a = offset + srcDelta;
      long total = 0;
      for (int i = from; i < to; i++) {
        long len = lengths == null ? uniformLength : lengths[i];
        check(a + offsets[i], a + offsets[i] + len);
        total += len;
      }
      dst.checkRange("readAt", streamOffset + dstDelta, total);
      MemoryAccess.gather(src, a, offsets, lengths, uniformLength, from, to, dst, streamOffset + dstDelta);
    }
  }

  private void checkUnchanged(long offset) throws IOException {
    FileStatus now = fs.getFileStatus(path);
    if (now.getLen() != length || now.getModificationTime() != modificationTime) {
      throw new IOException("fileview: " + path + " changed during read at offset " + offset + " (length " + length + " -> " + now.getLen()
          + ", modification time " + modificationTime + " -> " + now.getModificationTime() + ")");
    }
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      in.close();
    }
  }
}
