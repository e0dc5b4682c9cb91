package dev.layout.fileview;

import dev.layout.arrow.ArrowMemory;
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
import org.apache.arrow.memory.ArrowBuf;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

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
  private boolean closed;

  private ViewReader(FileSystem fs, Path path, FileView view, ReadOptions options, FSDataInputStream in, FileStatus status) {
    this.fs = fs;
    this.path = path;
    this.view = view;
    this.options = options;
    this.planner = new RangePlanner(view, options.sieving());
    this.in = in;
    this.length = status.getLen();
    this.modificationTime = status.getModificationTime();
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
    for (RangePlanner.Batch b = cursor.next(); b != null; b = cursor.next()) {
      ByteBuffer[] data = switch (options.mode()) {
        case VECTORED -> readVectored(b, offset);
        case POSITIONED -> readPositioned(b, offset);
      };
      Memory[] mem = new Memory[data.length];
      for (int i = 0; i < b.pieceCount(); i++) {
        int r = b.pieceRange(i);
        Memory m = mem[r] != null ? mem[r] : (mem[r] = Memory.ofBuffer(data[r]));
        user.unpack(m, b.pieceOffset(i) - b.rangeOffset(r), b.pieceLength(i));
      }
      fileBytes += b.readBytes();
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

  private ByteBuffer[] readVectored(RangePlanner.Batch b, long offset) throws IOException {
    List<FileRange> ranges = new ArrayList<>(b.rangeCount());
    for (int i = 0; i < b.rangeCount(); i++) {
      ranges.add(FileRange.createFileRange(b.rangeOffset(i), (int) b.rangeLength(i)));
    }
    in.readVectored(ranges, ByteBuffer::allocate);
    ByteBuffer[] out = new ByteBuffer[ranges.size()];
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
      out[i] = s;
    }
    return out;
  }

  private ByteBuffer[] readPositioned(RangePlanner.Batch b, long offset) throws IOException {
    ByteBuffer[] out = new ByteBuffer[b.rangeCount()];
    for (int i = 0; i < out.length; i++) {
      byte[] a = new byte[(int) b.rangeLength(i)];
      try {
        in.readFully(b.rangeOffset(i), a, 0, a.length);
      } catch (EOFException e) {
        throw (EOFException) new EOFException("fileview: range [" + b.rangeOffset(i) + ", " + (b.rangeOffset(i) + a.length) + ") of " + path
            + " is past its end (read at offset " + offset + "; file changed?)").initCause(e);
      }
      out[i] = ByteBuffer.wrap(a);
    }
    return out;
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
