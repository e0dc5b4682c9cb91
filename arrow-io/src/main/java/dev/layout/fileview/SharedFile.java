package dev.layout.fileview;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.UUID;
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
 * <p>The commit fences the writers: an open file keeps its writes going to the renamed file, so
 * every writer holds a lease while its channel is open (a file {@code .NAME.JOBID.lease-UUID} it
 * holds an OS lock on, taken before it opens the temporary file by name). {@link #commit} first
 * renames the temporary file to {@code .NAME.JOBID.fenced} (no writer can open it any more), then
 * waits until no lease is held (a lock whose process died is free), and only then renames it to
 * the target. So a late writer (a speculative or re-attempted task that outlived its job) either
 * finds no file to open or finishes before the target appears; after {@link ViewWriter#discardWrite}
 * (an abort) it writes, at most, into a file no name reaches.
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
    /** How long {@link #commit} waits for writers that still hold a lease. */
    static final long FENCE_TIMEOUT_MS = 120_000;

    private final FileChannel channel;
    private final Lease lease;
    private final FileDomains domains;
    private final int domain;
    private final Path path;

    private SharedFile(FileChannel channel, Lease lease, FileDomains domains, int domain, Path path) {
        this.channel = channel;
        this.lease = lease;
        this.domains = domains;
        this.domain = domain;
        this.path = path;
    }

    /** True if {@code fs} is the local file system (checksummed or raw), whose files take positional writes. */
    public static boolean supports(FileSystem fs) {
        return raw(fs) != null;
    }

    /**
     * The local file behind {@code path} if {@code fs} is the local file system and reading the file
     * directly skips no check the file system would make (raw, or checksummed without a checksum
     * file for it); else null.
     */
    public static File localFile(FileSystem fs, Path path) throws IOException {
        RawLocalFileSystem r = raw(fs);
        if (r == null || fs instanceof ChecksumFileSystem c && r.exists(c.getChecksumFile(path))) {
            return null;
        }
        return r.pathToFile(path);
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
        create(fs, path, jobId, 0);
    }

    /**
     * Creates the temporary file of {@code path} of {@code length} zero bytes (a sparse file: no byte
     * is written), for writers that leave bytes out; {@code path} may exist (a writer that replaces
     * it deletes it before {@link #commit}).
     *
     * @throws org.apache.hadoop.fs.FileAlreadyExistsException if the temporary file exists
     */
    public static void create(FileSystem fs, Path path, String jobId, long length) throws IOException {
        Objects.requireNonNull(path, "SharedFile: path is null");
        if (length < 0) {
            throw new IllegalArgumentException("SharedFile: length " + length + " (expected: >= 0)");
        }
        File tmp = file(fs, tempPath(path, jobId));
        fs.mkdirs(path.getParent()); // as a file system's create would
        try (FileChannel c = FileChannel.open(tmp.toPath(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            if (length > 0) {
                c.write(ByteBuffer.allocate(1), length - 1); // sets the length; the bytes before are holes
            }
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
        Lease lease = Lease.take(file(fs, new Path(path.getParent(), leasePrefix(path, jobId) + UUID.randomUUID())));
        try {
            return new SharedFile(
                    FileChannel.open(tmp.toPath(), StandardOpenOption.WRITE), lease, domains, domain, path);
        } catch (java.nio.file.NoSuchFileException e) {
            lease.close();
            throw new IOException(
                    "fileview: " + tmp + " is missing (expected: made by SharedFile.create before the"
                            + " writers open it, and not yet committed or discarded)",
                    e);
        } catch (IOException | RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    private static String leasePrefix(Path path, String jobId) {
        ViewWriter.checkJobId(jobId);
        return "." + path.getName() + "." + jobId + ".lease-";
    }

    /**
     * Writes {@code len} bytes of {@code buf} at file byte {@code fileOffset}.
     *
     * @throws IllegalArgumentException if they are not all in this writer's domain
     */
    public void write(long fileOffset, byte[] buf, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, buf.length);
        write(fileOffset, ByteBuffer.wrap(buf, off, len));
    }

    /**
     * Writes the remaining bytes of {@code src} at file byte {@code fileOffset} (its position
     * advances past them). From a direct buffer the write syscall copies straight out of it; from
     * a heap buffer the JDK first copies the bytes into a temporary direct buffer.
     *
     * @throws IllegalArgumentException if they are not all in this writer's domain
     */
    public void write(long fileOffset, ByteBuffer src) throws IOException {
        int len = src.remaining();
        if (fileOffset < domains.start(domain) || len > domains.end(domain) - fileOffset) {
            throw new IllegalArgumentException(
                    "SharedFile: " + len + " bytes at file byte " + fileOffset + " (expected: within domain " + domain
                            + " [" + domains.start(domain) + ", " + domains.end(domain) + ") of " + path + ")");
        }
        for (long at = fileOffset; src.hasRemaining(); ) {
            at += channel.write(src, at);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            lease.close();
        }
    }

    /**
     * Renames the temporary file to {@code path} once it has {@code length} bytes and no writer
     * holds it open (see the fence above); returns the length.
     *
     * @throws IOException naming both lengths if it has not (nothing appears at {@code path}), if
     *     {@code path} exists, or if a writer still holds its lease after {@value #FENCE_TIMEOUT_MS}
     *     ms (the file is then left under the fenced name, for {@link ViewWriter#discardWrite})
     */
    public static long commit(FileSystem fs, Path path, String jobId, long length) throws IOException {
        return commit(fs, path, jobId, length, false, FENCE_TIMEOUT_MS);
    }

    /**
     * {@link #commit(FileSystem, Path, String, long)}, replacing an existing {@code path} when {@code
     * overwrite}, in one {@code rename(2)} ({@link ViewWriter#renameOver}): a reader sees the old file
     * or the new one, never none.
     */
    public static long commit(FileSystem fs, Path path, String jobId, long length, boolean overwrite)
            throws IOException {
        return commit(fs, path, jobId, length, overwrite, FENCE_TIMEOUT_MS);
    }

    static long commit(FileSystem fs, Path path, String jobId, long length, long fenceTimeoutMs) throws IOException {
        return commit(fs, path, jobId, length, false, fenceTimeoutMs);
    }

    static long commit(FileSystem fs, Path path, String jobId, long length, boolean overwrite, long fenceTimeoutMs)
            throws IOException {
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
        if (!overwrite && fs.exists(path)) {
            throw new org.apache.hadoop.fs.FileAlreadyExistsException(
                    "fileview: " + path + " already exists (files are write-once)");
        }
        Path fenced = new Path(path.getParent(), "." + path.getName() + "." + jobId + ".fenced");
        java.nio.file.Files.move(f.toPath(), file(fs, fenced).toPath(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        awaitLeases(fs, path, jobId, fenceTimeoutMs);
        if (overwrite) {
            ViewWriter.renameOver(fs, fenced, path);
        } else if (!fs.rename(fenced, path)) {
            throw new IOException("fileview: could not rename " + fenced + " to " + path
                    + (fs.exists(path) ? " (target now exists)" : ""));
        }
        return length;
    }

    /**
     * Waits until no writer of the write holds a lease; deletes the leases of writers that died.
     * A writer takes its lease before it opens the temporary file by name, and the caller renamed
     * that file before: a lease taken after this looked finds no file to open.
     */
    private static void awaitLeases(FileSystem fs, Path path, String jobId, long timeoutMs) throws IOException {
        File dir = file(fs, path.getParent());
        String prefix = leasePrefix(path, jobId);
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        long pauseMs = 1;
        while (true) {
            File[] leases = dir.listFiles((d, name) -> name.startsWith(prefix));
            int held = 0;
            for (File l : leases == null ? new File[0] : leases) {
                if (Lease.held(l)) {
                    held++;
                }
            }
            if (held == 0) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("fileview: " + held + " writer(s) of " + path + " still hold the file open after "
                        + timeoutMs + " ms (expected: every task attempt of the write ended)");
            }
            try {
                Thread.sleep(pauseMs); // a poll with back-off: the writers are other tasks, nothing to wait on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("fileview: interrupted while committing " + path);
            }
            pauseMs = Math.min(pauseMs * 2, 100);
        }
    }

    /** A writer's claim on the temporary file: an OS lock on its own lease file, gone with its process. */
    private record Lease(File file, FileChannel channel) implements Closeable {
        static Lease take(File file) throws IOException {
            FileChannel c = FileChannel.open(file.toPath(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            try {
                c.lock();
                return new Lease(file, c);
            } catch (IOException | RuntimeException e) {
                c.close();
                java.nio.file.Files.deleteIfExists(file.toPath());
                throw e;
            }
        }

        /** True if a live writer holds {@code file}; a free lease (its writer died) is deleted. */
        static boolean held(File file) throws IOException {
            try (FileChannel c = FileChannel.open(file.toPath(), StandardOpenOption.WRITE)) {
                java.nio.channels.FileLock l = c.tryLock();
                if (l == null) {
                    return true; // another process holds it
                }
                l.release();
            } catch (java.nio.file.NoSuchFileException e) {
                return false; // released meanwhile
            } catch (java.nio.channels.OverlappingFileLockException e) {
                return true; // a writer in this JVM holds it
            }
            java.nio.file.Files.deleteIfExists(file.toPath());
            return false;
        }

        @Override
        public void close() throws IOException {
            try {
                java.nio.file.Files.deleteIfExists(file.toPath()); // before the lock goes: no free lease is left
            } finally {
                channel.close();
            }
        }
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
