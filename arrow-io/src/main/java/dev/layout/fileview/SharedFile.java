package dev.layout.fileview;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * One new local file that several writers fill at once, each its own file domain, with positional
 * writes: the local file system's way to what {@link DomainPart}s and {@link ViewWriter#assemble}
 * do elsewhere. Without {@code concat}, joining parts copies every part after the first a second
 * time; here each byte is written once, where it belongs. The file is made under a temporary name
 * beside the target ({@code .NAME.JOBID.whole}, so {@link ViewWriter#discardWrite} removes it) and
 * {@link #commit} renames it to the target once every writer is done. No checksum file is written
 * (Hadoop's local file system reads such a file unverified).
 *
 * <pre>{@code
 * SharedFile.create(fs, path, jobId);                          // once, before the writers start
 * try (SharedFile f = SharedFile.open(fs, path, jobId, domains, d)) {   // each writer
 *   f.write(fileOffset, buf, 0, n);                            // anywhere in domain d
 * }
 * SharedFile.commit(fs, path, jobId, domains.fileLength());   // once, after every writer closed
 * }</pre>
 */
public final class SharedFile implements Closeable {
    private final FileChannel channel;
    private final FileDomains domains;
    private final int domain;
    private final Path path;

    private SharedFile(FileChannel channel, FileDomains domains, int domain, Path path) {
        this.channel = channel;
        this.domains = domains;
        this.domain = domain;
        this.path = path;
    }

    /** True if {@code fs} is the local file system (checksummed or raw), whose files take positional writes. */
    public static boolean supports(FileSystem fs) {
        return raw(fs) != null;
    }

    /** The temporary name of the file being written. */
    public static Path tempPath(Path path, String jobId) {
        ViewWriter.checkJobId(jobId);
        return new Path(path.getParent(), "." + path.getName() + "." + jobId + ".whole");
    }

    /**
     * Creates the empty temporary file of a new file {@code path}.
     *
     * @throws org.apache.hadoop.fs.FileAlreadyExistsException if {@code path} or the temporary file exists
     * @throws IllegalArgumentException if {@code fs} is not the local file system
     */
    public static void create(FileSystem fs, Path path, String jobId) throws IOException {
        Objects.requireNonNull(path, "SharedFile: path is null");
        if (fs.exists(path)) {
            throw new org.apache.hadoop.fs.FileAlreadyExistsException(
                    "fileview: " + path + " already exists (files are write-once)");
        }
        File tmp = file(fs, tempPath(path, jobId));
        try (FileChannel c = FileChannel.open(tmp.toPath(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            // created exclusively, never through an existing name or link
        } catch (FileAlreadyExistsException e) {
            throw new org.apache.hadoop.fs.FileAlreadyExistsException(
                    "fileview: " + tmp + " already exists (another write with the same id)");
        }
    }

    /**
     * Opens the temporary file made by {@link #create} for writing domain {@code domain}.
     *
     * @throws IOException naming the file if it is missing
     */
    public static SharedFile open(FileSystem fs, Path path, String jobId, FileDomains domains, int domain)
            throws IOException {
        Objects.requireNonNull(domains, "SharedFile: domains is null");
        if (domain < 0 || domain >= domains.count()) {
            throw new IllegalArgumentException("SharedFile: domain " + domain + " (expected: 0 .. "
                    + (domains.count() - 1) + " of " + domains + ")");
        }
        File tmp = file(fs, tempPath(path, jobId));
        try {
            return new SharedFile(FileChannel.open(tmp.toPath(), StandardOpenOption.WRITE), domains, domain, path);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(
                    "fileview: " + tmp + " is missing (expected: made by SharedFile.create before the writers open it)",
                    e);
        }
    }

    /**
     * Writes {@code len} bytes of {@code buf} at file byte {@code fileOffset}.
     *
     * @throws IllegalArgumentException if they are not all in this writer's domain
     */
    public void write(long fileOffset, byte[] buf, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, buf.length);
        if (fileOffset < domains.start(domain) || len > domains.end(domain) - fileOffset) {
            throw new IllegalArgumentException(
                    "SharedFile: " + len + " bytes at file byte " + fileOffset + " (expected: within domain " + domain
                            + " [" + domains.start(domain) + ", " + domains.end(domain) + ") of " + path + ")");
        }
        ByteBuffer b = ByteBuffer.wrap(buf, off, len);
        for (long at = fileOffset; b.hasRemaining(); ) {
            at += channel.write(b, at);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /**
     * Renames the temporary file to {@code path} once it has {@code length} bytes; returns the length.
     *
     * @throws IOException naming both lengths if it has not (nothing appears at {@code path}), or if
     *     {@code path} exists
     */
    public static long commit(FileSystem fs, Path path, String jobId, long length) throws IOException {
        Path tmp = tempPath(path, jobId);
        File f = file(fs, tmp);
        if (!f.isFile()) {
            throw new IOException(
                    "fileview: " + tmp + " is missing (the write of " + path + " was not made or was discarded)");
        }
        if (f.length() != length) {
            throw new IOException(
                    "fileview: " + tmp + " has " + f.length() + " bytes (expected: " + length + ", the file's length)");
        }
        if (fs.exists(path)) {
            throw new org.apache.hadoop.fs.FileAlreadyExistsException(
                    "fileview: " + path + " already exists (files are write-once)");
        }
        if (!fs.rename(tmp, path)) {
            throw new IOException("fileview: could not rename " + tmp + " to " + path
                    + (fs.exists(path) ? " (target now exists)" : ""));
        }
        return length;
    }

    private static File file(FileSystem fs, Path p) {
        RawLocalFileSystem raw = raw(fs);
        if (raw == null) {
            throw new IllegalArgumentException(
                    "SharedFile: file system " + fs.getUri() + " (expected: the local file system)");
        }
        return raw.pathToFile(p);
    }

    private static RawLocalFileSystem raw(FileSystem fs) {
        Objects.requireNonNull(fs, "SharedFile: fs is null");
        FileSystem r = fs instanceof ChecksumFileSystem c ? c.getRawFileSystem() : fs;
        return r instanceof RawLocalFileSystem local ? local : null;
    }
}
