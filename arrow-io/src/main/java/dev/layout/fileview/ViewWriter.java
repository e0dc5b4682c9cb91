package dev.layout.fileview;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes through file views ({@code MPI_File_write_at}) into a write-once file: every {@link
 * #writeAt} stages its pieces by file offset (one writer may take the pieces of several views, e.g.
 * every rank's darray part), and {@link #commit()} writes them in canonical file order to a
 * temporary name beside the target, then renames it, so a reader never sees a partial file.
 * Bytes of the file no view wrote are zeros.
 *
 * <pre>{@code
 * try (ViewWriter w = ViewWriter.create(fs, path)) {
 *   for (int rank = 0; rank < 8; rank++) {
 *     w.writeAt(views[rank], 0, Memory.ofArray(parts[rank]), 0, Primitive.FLOAT64, parts[rank].length / 8);
 *   }
 *   w.commit();
 * }   // close() without commit() discards everything
 * }</pre>
 *
 * <p>Writing a byte twice is refused ({@link IllegalArgumentException} naming the bytes). In
 * {@linkplain #append append} mode, a write that would rewrite bytes of the existing file is refused
 * the same way; the new bytes are added with {@code concat} where the file system has it (HDFS),
 * otherwise by rewriting the file under a temporary name and renaming it over the old one.
 * Staged data is held in memory until commit. Not thread-safe.
 */
public final class ViewWriter implements Closeable {
  private final FileSystem fs;
  private final Path path;
  private final long existingLength;
  private final boolean appending;
  private final TreeMap<Long, Extent> staged = new TreeMap<>();
  private long stagedBytes;
  private boolean finished;

  private record Extent(long fileOffset, long length, byte[] data, int dataOffset) {
    long end() {
      return fileOffset + length;
    }
  }

  private ViewWriter(FileSystem fs, Path path, long existingLength, boolean appending) {
    this.fs = fs;
    this.path = path;
    this.existingLength = existingLength;
    this.appending = appending;
  }

  /**
   * A writer for a new file at {@code path}.
   *
   * @throws FileAlreadyExistsException if {@code path} exists (files are write-once)
   */
  public static ViewWriter create(FileSystem fs, Path path) throws IOException {
    Objects.requireNonNull(fs, "ViewWriter: fs is null");
    Objects.requireNonNull(path, "ViewWriter: path is null");
    if (fs.exists(path)) {
      throw new FileAlreadyExistsException("fileview: " + path + " already exists (files are write-once; use append for new bytes)");
    }
    return new ViewWriter(fs, path, 0, false);
  }

  /** A writer that adds bytes after the end of the existing file {@code path}; rewriting existing bytes is refused. */
  public static ViewWriter append(FileSystem fs, Path path) throws IOException {
    Objects.requireNonNull(fs, "ViewWriter: fs is null");
    Objects.requireNonNull(path, "ViewWriter: path is null");
    FileStatus st = fs.getFileStatus(path);
    if (st.isDirectory()) {
      throw new IOException("fileview: " + path + " is a directory (expected: a file)");
    }
    return new ViewWriter(fs, path, st.getLen(), true);
  }

  /** Bytes staged so far. */
  public long stagedBytes() {
    return stagedBytes;
  }

  /**
   * Stages {@code count} elements of {@code memtype} from {@code src} (element 0 at byte {@code
   * origin}) at etype {@code offset} of {@code view}; returns the bytes staged.
   *
   * @throws IOException naming the path if the offset is negative
   * @throws IllegalArgumentException if a byte would be written twice, or in append mode, if the
   *     write would rewrite bytes of the existing file
   */
  public long writeAt(FileView view, long offset, Memory src, long origin, Datatype memtype, long count) throws IOException {
    Objects.requireNonNull(view, "writeAt: view is null");
    Objects.requireNonNull(src, "writeAt: src is null");
    Objects.requireNonNull(memtype, "writeAt: memtype is null");
    if (finished) {
      throw new IllegalStateException("writeAt: writer of " + path + " is closed or committed");
    }
    if (offset < 0) {
      throw new IOException("fileview: negative offset " + offset + " (expected: >= 0 etypes) writing " + path);
    }
    long etypeSize = view.etype().byteSize();
    Segment user = Segment.of(memtype, count, src, origin);
    long bytes = user.byteSize();
    if (bytes % etypeSize != 0) {
      throw new IllegalArgumentException("writeAt: " + count + " x " + memtype + " is " + bytes + " bytes (expected: a multiple of etype "
          + view.etype() + " size " + etypeSize + ")");
    }
    if (bytes > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("writeAt: " + bytes + " bytes in one call (expected: < 2 GiB; split the write)");
    }
    byte[] packed = new byte[(int) bytes];
    user.pack(Memory.ofArray(packed), 0, bytes);
    RangePlanner planner = new RangePlanner(view, SievingPolicy.adjacentOnly());
    RangePlanner.Cursor c = planner.plan(Math.multiplyExact(offset, etypeSize), bytes);
    TreeMap<Long, Extent> mine = new TreeMap<>();
    int at = 0;
    for (RangePlanner.Batch b = c.next(); b != null; b = c.next()) {
      for (int i = 0; i < b.pieceCount(); i++) {
        long f = b.pieceOffset(i);
        long len = b.pieceLength(i);
        if (appending && f < existingLength) {
          throw new IllegalArgumentException("fileview: write at offset " + offset + " would rewrite bytes [" + f + ", "
              + Math.min(f + len, existingLength) + ") of existing " + path + " (" + existingLength + " bytes; append only adds bytes)");
        }
        Extent e = new Extent(f, len, packed, at);
        checkFree(e, staged, offset);
        checkFree(e, mine, offset);
        mine.put(f, e);
        at += (int) len;
      }
    }
    staged.putAll(mine);
    stagedBytes += bytes;
    return bytes;
  }

  private void checkFree(Extent e, TreeMap<Long, Extent> map, long offset) {
    Map.Entry<Long, Extent> lo = map.floorEntry(e.fileOffset());
    Map.Entry<Long, Extent> hi = map.ceilingEntry(e.fileOffset());
    Extent clash = lo != null && lo.getValue().end() > e.fileOffset() ? lo.getValue()
        : hi != null && hi.getValue().fileOffset() < e.end() ? hi.getValue() : null;
    if (clash != null) {
      long a = Math.max(clash.fileOffset(), e.fileOffset());
      long b = Math.min(clash.end(), e.end());
      throw new IllegalArgumentException("fileview: write at offset " + offset + " rewrites bytes [" + a + ", " + b + ") of " + path
          + " already written (expected: every byte written once)");
    }
  }

  /**
   * Writes the staged bytes in file order under a temporary name and renames it to the target;
   * returns the file's length.
   *
   * @throws IOException naming the path if the file system fails; nothing is then visible at the
   *     target (create) or the old file is unchanged (append)
   */
  public long commit() throws IOException {
    if (finished) {
      throw new IllegalStateException("commit: writer of " + path + " is closed or committed");
    }
    finished = true;
    Path tmp = new Path(path.getParent(), "." + path.getName() + "." + UUID.randomUUID() + ".tmp");
    boolean done = false;
    try {
      long start = appending ? existingLength : 0;
      long end;
      end = writeAndClose(tmp, start);
      if (!appending) {
        if (!fs.rename(tmp, path)) {
          throw new IOException("fileview: could not rename " + tmp + " to " + path + (fs.exists(path) ? " (target now exists)" : ""));
        }
      } else if (end > existingLength) {
        appendStaged(tmp);
      }
      done = true;
      return appending ? Math.max(end, existingLength) : end;
    } finally {
      staged.clear();
      if (!done || appending) {
        fs.delete(tmp, false);
      }
    }
  }

  /**
   * Writes the staged bytes to {@code tmp} and closes it. Not try-with-resources: an HDFS stream
   * whose pipeline failed rethrows the same exception from close(), and adding an exception as
   * suppressed to itself is an IllegalArgumentException that would hide the I/O error (found by
   * HdfsFaultIT with every datanode stopped mid-commit).
   */
  private long writeAndClose(Path tmp, long start) throws IOException {
    FSDataOutputStream out = fs.create(tmp, false);
    long end;
    try {
      end = writeStaged(out, start);
    } catch (IOException e) {
      closeAfter(out, e);
      throw new IOException("fileview: writing " + tmp + " for " + path + " failed: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      closeAfter(out, e);
      throw e;
    }
    try {
      out.close();
    } catch (IOException e) {
      throw new IOException("fileview: closing " + tmp + " for " + path + " failed: " + e.getMessage(), e);
    }
    return end;
  }

  private static void closeAfter(FSDataOutputStream out, Exception failure) {
    try {
      out.close();
    } catch (IOException | RuntimeException closing) {
      if (closing != failure) {
        failure.addSuppressed(closing);
      }
    }
  }

  private long writeStaged(FSDataOutputStream out, long start) throws IOException {
    long pos = start;
    byte[] zeros = new byte[64 * 1024];
    for (Extent e : staged.values()) {
      while (pos < e.fileOffset()) {
        int n = (int) Math.min(zeros.length, e.fileOffset() - pos);
        out.write(zeros, 0, n);
        pos += n;
      }
      out.write(e.data(), e.dataOffset(), (int) e.length());
      pos += e.length();
    }
    return pos;
  }

  private void appendStaged(Path tmp) throws IOException {
    try {
      fs.concat(path, new Path[] {tmp});
      return;
    } catch (UnsupportedOperationException e) {
      // Local and most object stores: rebuild old + new under a second temporary name.
    }
    Path full = new Path(path.getParent(), "." + path.getName() + "." + UUID.randomUUID() + ".tmp");
    try {
      try (FSDataOutputStream out = fs.create(full, false); FSDataInputStream oldIn = fs.open(path); FSDataInputStream newIn = fs.open(tmp)) {
        oldIn.transferTo(out);
        newIn.transferTo(out);
      }
      if (!fs.delete(path, false) || !fs.rename(full, path)) {
        throw new IOException("fileview: could not replace " + path + " with " + full);
      }
    } finally {
      fs.delete(full, false);
    }
  }

  /** Discards staged data unless {@link #commit()} ran; nothing is written. */
  @Override
  public void close() {
    finished = true;
    staged.clear();
  }
}
