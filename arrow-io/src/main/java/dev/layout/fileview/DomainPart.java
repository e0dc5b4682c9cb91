package dev.layout.fileview;

import java.io.Closeable;
import java.io.IOException;
import java.util.Objects;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
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
    private static final String DELAY_KEY = "dfs.client.block.write.locateFollowingBlock.initial.delay.ms";
    private static final String RETRIES_KEY = "dfs.client.block.write.locateFollowingBlock.retries";
    private static final long FIRST_POLL_MS = 20;
    private static final int POLLS = 10;
    /** Stream buffer: whole checksum chunks per write to the file system, not io.file.buffer.size's 4 KiB. */
    private static final int BUFFER_BYTES = 1 << 16;
    /** Zeros for the holes {@link #skipTo} writes (read only, shared by every part). */
    private static final byte[] ZEROS = new byte[64 * 1024];
    /** The part's own HDFS client ({@link #ownClient}), closed with the part; null elsewhere. */
    private final FileSystem own;

    private final FileSystem fs;
    private final Path path;
    /** What the part is: domain {@code domain}'s bytes [start, end), or (domain -1) a range ending anywhere up to end. */
    private final int domain;

    private final long start;
    private final long end;
    private final Path part;
    private final Path tmp;
    private FSDataOutputStream out;
    private long position;
    private boolean committed;

    private DomainPart(
            FileSystem own,
            FileSystem fs,
            Path path,
            int domain,
            long start,
            long end,
            Path part,
            Path tmp,
            FSDataOutputStream out) {
        this.own = own;
        this.fs = fs;
        this.path = path;
        this.domain = domain;
        this.start = start;
        this.end = end;
        this.part = part;
        this.tmp = tmp;
        this.out = out;
        this.position = start;
    }

    /**
     * Opens the part of domain {@code domain} of the new file {@code path}.
     *
     * @throws FileAlreadyExistsException if {@code path} exists (files are write-once)
     * @throws IllegalArgumentException if the domain is not one of {@code domains} or the job id is malformed
     */
    public static DomainPart create(FileSystem fs, Path path, FileDomains domains, int domain, String jobId)
            throws IOException {
        return create(fs, path, domains, domain, jobId, fs.getDefaultBlockSize(path));
    }

    /** As {@link #create(FileSystem, Path, FileDomains, int, String)} with the part's file system block size (every part of a file needs the same). */
    public static DomainPart create(
            FileSystem fs, Path path, FileDomains domains, int domain, String jobId, long blockSize)
            throws IOException {
        Objects.requireNonNull(fs, "DomainPart: fs is null");
        Objects.requireNonNull(path, "DomainPart: path is null");
        Objects.requireNonNull(domains, "DomainPart: domains is null");
        Path part = ViewWriter.partPath(path, jobId, domain);
        if (domain < 0 || domain >= domains.count()) {
            throw new IllegalArgumentException("DomainPart: domain " + domain + " (expected: 0 .. "
                    + (domains.count() - 1) + " of " + domains + ")");
        }
        if (fs.exists(path)) {
            throw new FileAlreadyExistsException("fileview: " + path + " already exists (files are write-once)");
        }
        return open(fs, path, domain, domains.start(domain), domains.end(domain), part, blockSize);
    }

    /**
     * Opens a part of {@code path} that holds file bytes from {@code start} up to where the writer
     * stops, at most {@code end}, under the name {@code part} once committed (a name beside the target
     * that starts with the write's {@code .NAME.JOBID.}, so {@link ViewWriter#discardWrite} finds it):
     * for writers whose range is known only when they finish (a task writing its rows). The target
     * may exist (the caller replaces it at its commit).
     */
    public static DomainPart createRange(FileSystem fs, Path path, Path part, long start, long end, long blockSize)
            throws IOException {
        Objects.requireNonNull(fs, "DomainPart: fs is null");
        Objects.requireNonNull(path, "DomainPart: path is null");
        Objects.requireNonNull(part, "DomainPart: part is null");
        if (start < 0 || end < start) {
            throw new IllegalArgumentException(
                    "DomainPart: range [" + start + ", " + end + ") (expected: 0 <= start <= end)");
        }
        return open(fs, path, -1, start, end, part, blockSize);
    }

    private static DomainPart open(
            FileSystem fs, Path path, int domain, long start, long end, Path part, long blockSize) throws IOException {
        Path tmp = new Path(part.getParent(), part.getName() + "." + UUID.randomUUID() + ".tmp");
        if (blockSize <= 0) {
            throw new IllegalArgumentException("DomainPart: block size " + blockSize + " (expected: > 0)");
        }
        FileSystem own = ownClient(fs);
        FileSystem w = own != null ? own : fs;
        try {
            FSDataOutputStream out = w.create(
                    tmp,
                    false,
                    Math.max(BUFFER_BYTES, fs.getConf().getInt("io.file.buffer.size", 4096)),
                    fs.getDefaultReplication(path),
                    blockSize);
            return new DomainPart(own, w, path, domain, start, end, part, tmp, out);
        } catch (IOException | RuntimeException e) {
            if (own != null) {
                own.close();
            }
            throw e;
        }
    }

    /**
     * A part's own HDFS client, or null for other file systems. The parts of one write close at
     * about the same time, and HDFS completes a file only once a datanode has reported the file's
     * last block to the namenode: a client that asks first sleeps its first retry delay, 400 ms by
     * default, then doubles it. With several parts one of them nearly always lost that race, which
     * capped every collective write at ~120 MB/s whatever the ranks or the file system could do
     * (found with JFR: the only long waits of the writers were that sleep in {@code
     * DFSOutputStream.completeFile}). The part's client polls from {@value #FIRST_POLL_MS} ms,
     * doubling, with at least the default patience in all (20 ms x (2^10 - 1) = 20 s against 400 ms
     * x (2^5 - 1) = 12 s); a configuration that sets either key keeps its own values.
     */
    static FileSystem ownClient(FileSystem fs) throws IOException {
        Configuration conf = fs.getConf();
        if (!"hdfs".equals(fs.getScheme()) || userSet(conf, DELAY_KEY) || userSet(conf, RETRIES_KEY)) {
            return null;
        }
        Configuration c = new Configuration(conf);
        c.setLong(DELAY_KEY, FIRST_POLL_MS);
        c.setInt(RETRIES_KEY, POLLS);
        return FileSystem.newInstance(fs.getUri(), c);
    }

    private static boolean userSet(Configuration conf, String key) {
        String[] sources = conf.getPropertySources(key);
        return sources != null && !(sources.length == 1 && sources[0].endsWith("-default.xml"));
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
        if (len > end - position) {
            throw new IllegalArgumentException("DomainPart: " + len + " bytes at file byte " + position
                    + " (expected: <= " + (end - position) + ", the rest of " + what() + ")");
        }
        out.write(buf, off, len);
        position += len;
    }

    /** Writes zeros up to file byte {@code fileOffset} (a hole no view wrote). */
    public void skipTo(long fileOffset) throws IOException {
        checkOpen("skipTo");
        if (fileOffset < position || fileOffset > end) {
            throw new IllegalArgumentException(
                    "DomainPart: skip to " + fileOffset + " (expected: " + position + " .. " + end + ")");
        }
        while (position < fileOffset) {
            int n = (int) Math.min(ZEROS.length, fileOffset - position);
            out.write(ZEROS, 0, n);
            position += n;
        }
    }

    /**
     * Closes the stream and renames it to the part's name; returns the part's length.
     *
     * @throws IllegalStateException if a domain's part is not full
     * @throws IOException if the file system fails (the temporary file is then deleted)
     */
    public long commit() throws IOException {
        checkOpen("commit");
        if (domain >= 0 && position != end) {
            throw new IllegalStateException("DomainPart: domain " + domain + " of " + path + " written up to "
                    + position + " (expected: its end " + end + ")");
        }
        FSDataOutputStream o = out;
        out = null;
        try {
            o.close();
            if (!fs.rename(tmp, part)) {
                fs.delete(tmp, false);
                throw new IOException("fileview: could not rename " + tmp + " to " + part
                        + (fs.exists(part) ? " (part already committed)" : ""));
            }
            committed = true;
        } catch (IOException | RuntimeException e) {
            deleteQuietly(e);
            throw e;
        } finally {
            if (own != null) {
                own.close();
            }
        }
        return position - start;
    }

    /** The part's name once committed. */
    public Path part() {
        return part;
    }

    private String what() {
        return (domain >= 0 ? "domain " + domain : "the range") + " [" + start + ", " + end + ") of " + path;
    }

    private void checkOpen(String op) {
        if (out == null) {
            throw new IllegalStateException("DomainPart: " + op + " on " + what() + " after commit or close");
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
        try {
            fs.delete(tmp, false);
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    private void deleteQuietly(Exception cause) {
        try {
            fs.delete(tmp, false);
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
