package dev.layout.fileview;

import java.io.Closeable;
import java.io.IOException;
import java.util.Objects;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The part of one file domain written as one sequential stream, for writers that produce their
 * domain in file order (a two-phase aggregator, a task writing its sorted rows): bytes go straight
 * to a temporary file beside the target, {@link #commit()} renames it to {@link
 * ViewWriter#partPath} once exactly the domain's length was written, and {@link
 * ViewWriter#assemble} joins the parts. Unlike {@link ViewWriter#forDomain} nothing is staged in
 * memory. The temporary name starts with the part's name, so {@link ViewWriter#discardWrite}
 * finds it too.
 *
 * <pre>{@code
 * try (DomainPart part = DomainPart.create(fs, path, domains, d, jobId)) {
 *   part.write(buf, 0, n);        // ... until the domain is full; part.skipTo(x) writes zeros up to x
 *   part.commit();
 * }   // close() without commit() deletes the temporary file
 * }</pre>
 */
public final class DomainPart implements Closeable {
  private final FileSystem fs;
  private final Path path;
  private final FileDomains domains;
  private final int domain;
  private final String jobId;
  private final Path tmp;
  private FSDataOutputStream out;
  private long position;
  private boolean committed;

  private DomainPart(FileSystem fs, Path path, FileDomains domains, int domain, String jobId, Path tmp, FSDataOutputStream out) {
    this.fs = fs;
    this.path = path;
    this.domains = domains;
    this.domain = domain;
    this.jobId = jobId;
    this.tmp = tmp;
    this.out = out;
    this.position = domains.start(domain);
  }

  /**
   * Opens the part of domain {@code domain} of the new file {@code path}.
   *
   * @throws FileAlreadyExistsException if {@code path} exists (files are write-once)
   * @throws IllegalArgumentException if the domain is not one of {@code domains} or the job id is malformed
   */
  public static DomainPart create(FileSystem fs, Path path, FileDomains domains, int domain, String jobId) throws IOException {
    return create(fs, path, domains, domain, jobId, fs.getDefaultBlockSize(path));
  }

  /** As {@link #create(FileSystem, Path, FileDomains, int, String)} with the part's file system block size (every part of a file needs the same). */
  public static DomainPart create(FileSystem fs, Path path, FileDomains domains, int domain, String jobId, long blockSize) throws IOException {
    Objects.requireNonNull(fs, "DomainPart: fs is null");
    Objects.requireNonNull(path, "DomainPart: path is null");
    Objects.requireNonNull(domains, "DomainPart: domains is null");
    Path part = ViewWriter.partPath(path, jobId, domain);
    if (domain < 0 || domain >= domains.count()) {
      throw new IllegalArgumentException("DomainPart: domain " + domain + " (expected: 0 .. " + (domains.count() - 1) + " of " + domains + ")");
    }
    if (fs.exists(path)) {
      throw new FileAlreadyExistsException("fileview: " + path + " already exists (files are write-once)");
    }
    Path tmp = new Path(part.getParent(), part.getName() + "." + UUID.randomUUID() + ".tmp");
    if (blockSize <= 0) {
      throw new IllegalArgumentException("DomainPart: block size " + blockSize + " (expected: > 0)");
    }
    FSDataOutputStream out = fs.create(tmp, false, fs.getConf().getInt("io.file.buffer.size", 4096), fs.getDefaultReplication(path), blockSize);
    return new DomainPart(fs, path, domains, domain, jobId, tmp, out);
  }

  /** The next file byte this part writes. */
  public long position() {
    return position;
  }

  /**
   * Writes {@code len} bytes of {@code buf} at the current position.
   *
   * @throws IllegalArgumentException if they would pass the end of the domain
   */
  public void write(byte[] buf, int off, int len) throws IOException {
    checkOpen("write");
    if (len > domains.end(domain) - position) {
      throw new IllegalArgumentException("DomainPart: " + len + " bytes at file byte " + position + " (expected: <= " + (domains.end(domain) - position)
          + ", the rest of domain " + domain + " [" + domains.start(domain) + ", " + domains.end(domain) + "))");
    }
    out.write(buf, off, len);
    position += len;
  }

  /** Writes zeros up to file byte {@code fileOffset} (a hole no view wrote). */
  public void skipTo(long fileOffset) throws IOException {
    checkOpen("skipTo");
    if (fileOffset < position || fileOffset > domains.end(domain)) {
      throw new IllegalArgumentException("DomainPart: skip to " + fileOffset + " (expected: " + position + " .. " + domains.end(domain) + ")");
    }
    byte[] zeros = new byte[(int) Math.min(64 * 1024, fileOffset - position)];
    while (position < fileOffset) {
      int n = (int) Math.min(zeros.length, fileOffset - position);
      out.write(zeros, 0, n);
      position += n;
    }
  }

  /**
   * Closes the stream and renames it to the part's name; returns the part's length.
   *
   * @throws IllegalStateException if the domain is not full
   * @throws IOException if the file system fails (the temporary file is then deleted)
   */
  public long commit() throws IOException {
    checkOpen("commit");
    if (position != domains.end(domain)) {
      throw new IllegalStateException("DomainPart: domain " + domain + " of " + path + " written up to " + position + " (expected: its end "
          + domains.end(domain) + ")");
    }
    FSDataOutputStream o = out;
    out = null;
    o.close();
    Path part = ViewWriter.partPath(path, jobId, domain);
    if (!fs.rename(tmp, part)) {
      fs.delete(tmp, false);
      throw new IOException("fileview: could not rename " + tmp + " to " + part + (fs.exists(part) ? " (part already committed)" : ""));
    }
    committed = true;
    return domains.end(domain) - domains.start(domain);
  }

  private void checkOpen(String op) {
    if (out == null) {
      throw new IllegalStateException("DomainPart: " + op + " on domain " + domain + " of " + path + " after commit or close");
    }
  }

  /** Without {@link #commit()}: closes and deletes the temporary file. */
  @Override
  public void close() throws IOException {
    if (committed || out == null) {
      return;
    }
    FSDataOutputStream o = out;
    out = null;
    try {
      o.close();
    } catch (IOException ignored) {
      // The stream is being abandoned; deleting it below is what matters.
    }
    fs.delete(tmp, false);
  }
}
