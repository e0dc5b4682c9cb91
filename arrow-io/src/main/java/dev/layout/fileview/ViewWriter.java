package dev.layout.fileview;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

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
 * otherwise by rewriting the file under a temporary name and renaming it over the old one (one
 * atomic {@code rename(2)} on the local file system: the file never disappears).
 *
 * <p>Several tasks write one file through {@link #forDomain} writers, each owning a contiguous
 * {@link FileDomains file domain}; {@link #assemble} joins their parts in canonical order with
 * {@code concat} (HDFS) or, without it, by a single writer.
 * Staged data is held in memory until commit. Not thread-safe.
 */
public final class ViewWriter implements Closeable {
    private final FileSystem fs;
    private final Path path;
    private final long existingLength;
    private final boolean appending;
    /** Domain writers only: the domains, this writer's domain and the job's id (else null, -1, null). */
    private final FileDomains domains;

    private final int domain;
    private final String jobId;
    private final TreeMap<Long, Extent> staged = new TreeMap<>();
    private long stagedBytes;
    private boolean finished;

    private record Extent(long fileOffset, long length, byte[] data, int dataOffset) {
        long end() {
            return fileOffset + length;
        }
    }

    private ViewWriter(FileSystem fs, Path path, long existingLength, boolean appending) {
        this(fs, path, existingLength, appending, null, -1, null);
    }

    private ViewWriter(
            FileSystem fs,
            Path path,
            long existingLength,
            boolean appending,
            FileDomains domains,
            int domain,
            String jobId) {
        this.fs = fs;
        this.path = path;
        this.existingLength = existingLength;
        this.appending = appending;
        this.domains = domains;
        this.domain = domain;
        this.jobId = jobId;
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
            throw new FileAlreadyExistsException(
                    "fileview: " + path + " already exists (files are write-once; use append for new bytes)");
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

    /**
     * A writer of file domain {@code domain} of the new file {@code path}, one of several tasks
     * writing it: it takes only bytes of its domain (route pieces with {@link
     * FileDomains#domainOf}), and {@link #commit()} writes the whole domain (zeros where no view
     * wrote) to a part file beside {@code path}. Once every domain is committed, one call to {@link
     * #assemble} makes the file. {@code jobId} names the parts of one write (same for all its tasks;
     * letters, digits, {@code -} and {@code _}).
     *
     * <pre>{@code
     * // task i of n, each with the pieces of its domain:
     * try (ViewWriter w = ViewWriter.forDomain(fs, path, domains, i, jobId)) {
     *   w.writeAt(view, offset, mem, 0, Primitive.FLOAT64, count);
     *   w.commit();
     * }
     * // then once (driver, or the last task):
     * ViewWriter.assemble(fs, path, domains, jobId);
     * }</pre>
     *
     * @throws FileAlreadyExistsException if {@code path} exists (files are write-once)
     */
    public static ViewWriter forDomain(FileSystem fs, Path path, FileDomains domains, int domain, String jobId)
            throws IOException {
        Objects.requireNonNull(fs, "ViewWriter: fs is null");
        Objects.requireNonNull(path, "ViewWriter: path is null");
        Objects.requireNonNull(domains, "ViewWriter: domains is null");
        checkJobId(jobId);
        if (domain < 0 || domain >= domains.count()) {
            throw new IllegalArgumentException("ViewWriter: domain " + domain + " (expected: 0 .. "
                    + (domains.count() - 1) + " of " + domains + ")");
        }
        if (fs.exists(path)) {
            throw new FileAlreadyExistsException(
                    "fileview: " + path + " already exists (files are write-once; use append for new bytes)");
        }
        return new ViewWriter(fs, path, 0, false, domains, domain, jobId);
    }

    /** The part file of domain {@code domain} of a {@link #forDomain} write of {@code path}. */
    public static Path partPath(Path path, String jobId, int domain) {
        checkJobId(jobId);
        return new Path(
                path.getParent(), "." + path.getName() + "." + jobId + ".part-" + String.format("%05d", domain));
    }

    static void checkJobId(String jobId) {
        Objects.requireNonNull(jobId, "ViewWriter: jobId is null");
        if (!jobId.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException(
                    "ViewWriter: jobId '" + jobId + "' (expected: 1-64 letters, digits, '-' or '_')");
        }
    }

    /**
     * Makes {@code path} from the committed parts of every domain, in canonical order: with {@code
     * concat} where the file system has it (HDFS: the parts' blocks become the file's, no copy), then
     * a rename; otherwise a single writer copies the parts in order to a temporary name and renames
     * it. Either way {@code path} appears whole or not at all; the parts are gone afterwards. Returns
     * the file's length.
     *
     * @throws FileAlreadyExistsException if {@code path} exists
     * @throws IOException naming the domain if a part is missing (its writer did not commit) or has
     *     the wrong length; the parts are then left for a retry or {@link #discardParts}
     */
    public static long assemble(FileSystem fs, Path path, FileDomains domains, String jobId) throws IOException {
        return assemble(fs, path, domains, jobId, false);
    }

    /**
     * {@link #assemble(FileSystem, Path, FileDomains, String)}, replacing an existing {@code path}
     * when {@code overwrite} ({@link #renameOver}: a reader sees the old file or the new one).
     */
    public static long assemble(FileSystem fs, Path path, FileDomains domains, String jobId, boolean overwrite)
            throws IOException {
        Objects.requireNonNull(fs, "assemble: fs is null");
        Objects.requireNonNull(path, "assemble: path is null");
        Objects.requireNonNull(domains, "assemble: domains is null");
        if (!overwrite && fs.exists(path)) {
            throw new FileAlreadyExistsException("fileview: " + path + " already exists (files are write-once)");
        }
        int n = domains.count();
        Path[] parts = new Path[n];
        for (int i = 0; i < n; i++) {
            parts[i] = partPath(path, jobId, i);
            FileStatus st;
            try {
                st = fs.getFileStatus(parts[i]);
            } catch (java.io.FileNotFoundException e) {
                throw new IOException(
                        "fileview: part " + i + " of " + path + " is missing: " + parts[i] + " (the writer of domain ["
                                + domains.start(i) + ", " + domains.end(i) + ") did not commit)",
                        e);
            }
            long want = domains.end(i) - domains.start(i);
            if (st.getLen() != want) {
                throw new IOException("fileview: part " + i + " of " + path + " (" + parts[i] + ") has " + st.getLen()
                        + " bytes (expected: " + want + ", domain [" + domains.start(i) + ", " + domains.end(i) + "))");
            }
        }
        boolean concatenated = n == 1;
        if (!concatenated) {
            try {
                fs.concat(parts[0], java.util.Arrays.copyOfRange(parts, 1, n));
                concatenated = true;
            } catch (UnsupportedOperationException e) {
                // Local file system, most object stores: a single writer copies the parts below.
            }
        }
        if (!concatenated && n > 1 && localConcat(fs, parts)) {
            concatenated = true;
        }
        if (concatenated) {
            if (overwrite) {
                renameOver(fs, parts[0], path);
            } else if (!fs.rename(parts[0], path)) {
                throw new IOException("fileview: could not rename " + parts[0] + " to " + path
                        + (fs.exists(path) ? " (target now exists)" : ""));
            }
        } else {
            Path tmp = tempPath(path);
            boolean done = false;
            try {
                try (FSDataOutputStream out = fs.create(tmp, false)) {
                    for (Path part : parts) {
                        try (FSDataInputStream in = fs.open(part)) {
                            in.transferTo(out);
                        }
                    }
                }
                if (overwrite) {
                    renameOver(fs, tmp, path);
                } else if (!fs.rename(tmp, path)) {
                    throw new IOException("fileview: could not rename " + tmp + " to " + path
                            + (fs.exists(path) ? " (target now exists)" : ""));
                }
                done = true;
            } finally {
                if (!done) {
                    fs.delete(tmp, false);
                }
            }
            discardParts(fs, path, domains, jobId);
        }
        long len = fs.getFileStatus(path).getLen();
        if (len != domains.fileLength()) {
            throw new IOException(
                    "fileview: assembled " + path + " has " + len + " bytes (expected: " + domains.fileLength() + ")");
        }
        return len;
    }

    /**
     * The local file system's stand-in for {@code concat}: appends parts 1.. to part 0 channel to
     * channel ({@code FileChannel.transferFrom}: part 0 is not copied, the rest not through the Java
     * heap, and no checksum pass) and deletes them; part 0's checksum file goes (a local file without one
     * is read unverified). False if {@code fs} is not the local file system.
     */
    private static boolean localConcat(FileSystem fs, Path[] parts) throws IOException {
        FileSystem raw = fs instanceof ChecksumFileSystem c ? c.getRawFileSystem() : fs;
        if (!(raw instanceof RawLocalFileSystem local)) {
            return false;
        }
        java.io.File first = local.pathToFile(parts[0]);
        try (java.nio.channels.FileChannel out =
                java.nio.channels.FileChannel.open(first.toPath(), java.nio.file.StandardOpenOption.WRITE)) {
            for (int i = 1; i < parts.length; i++) {
                try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(
                        local.pathToFile(parts[i]).toPath())) {
                    long size = in.size();
                    for (long at = 0; at < size; ) {
                        at += out.transferFrom(in, out.size(), size - at);
                    }
                }
            }
        }
        if (fs instanceof ChecksumFileSystem c) {
            local.delete(c.getChecksumFile(parts[0]), false);
        }
        for (int i = 1; i < parts.length; i++) {
            fs.delete(parts[i], false);
        }
        return true;
    }

    /** Deletes whatever parts of a {@link #forDomain} write exist (an abandoned write). */
    public static void discardParts(FileSystem fs, Path path, FileDomains domains, String jobId) throws IOException {
        for (int i = 0; i < domains.count(); i++) {
            fs.delete(partPath(path, jobId, i), false);
        }
    }

    /**
     * Deletes every file a write with {@code jobId} left beside {@code path}: parts, and the
     * temporary files of writers that died before committing (their names start with the part's).
     * For the cleanup of an aborted write, when which domains were written is not known; returns the
     * number of files deleted.
     */
    public static int discardWrite(FileSystem fs, Path path, String jobId) throws IOException {
        Objects.requireNonNull(fs, "discardWrite: fs is null");
        Objects.requireNonNull(path, "discardWrite: path is null");
        checkJobId(jobId);
        String prefix = "." + path.getName() + "." + jobId + ".";
        Path dir = path.getParent();
        if (!fs.exists(dir)) {
            return 0;
        }
        int n = 0;
        for (FileStatus st : fs.listStatus(dir, p -> p.getName().startsWith(prefix))) {
            if (st.isFile() && fs.delete(st.getPath(), false)) {
                n++;
            }
        }
        return n;
    }

    private static Path tempPath(Path path) {
        return new Path(path.getParent(), "." + path.getName() + "." + UUID.randomUUID() + ".tmp");
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
    public long writeAt(FileView view, long offset, Memory src, long origin, Datatype memtype, long count)
            throws IOException {
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
            throw new IllegalArgumentException("writeAt: " + count + " x " + memtype + " is " + bytes
                    + " bytes (expected: a multiple of etype " + view.etype() + " size " + etypeSize + ")");
        }
        if (bytes > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException(
                    "writeAt: " + bytes + " bytes in one call (expected: < 2 GiB; split the write)");
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
                if (domains != null && (f < domains.start(domain) || f + len > domains.end(domain))) {
                    throw new IllegalArgumentException(
                            "fileview: write at offset " + offset + " puts bytes [" + f + ", " + (f + len) + ") of "
                                    + path
                                    + " outside file domain " + domain + " [" + domains.start(domain) + ", "
                                    + domains.end(domain)
                                    + ") of this writer (expected: each domain's bytes go to its writer; see FileDomains.domainOf)");
                }
                if (appending && f < existingLength) {
                    throw new IllegalArgumentException("fileview: write at offset " + offset + " would rewrite bytes ["
                            + f + ", " + Math.min(f + len, existingLength) + ") of existing " + path + " ("
                            + existingLength + " bytes; append only adds bytes)");
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
        Extent clash = lo != null && lo.getValue().end() > e.fileOffset()
                ? lo.getValue()
                : hi != null && hi.getValue().fileOffset() < e.end() ? hi.getValue() : null;
        if (clash != null) {
            long a = Math.max(clash.fileOffset(), e.fileOffset());
            long b = Math.min(clash.end(), e.end());
            throw new IllegalArgumentException("fileview: write at offset " + offset + " rewrites bytes [" + a + ", "
                    + b + ") of " + path + " already written (expected: every byte written once)");
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
        Path tmp = domains != null
                ? new Path(path.getParent(), partPath(path, jobId, domain).getName() + "." + UUID.randomUUID() + ".tmp")
                : tempPath(path);
        boolean done = false;
        try {
            long start = appending ? existingLength : domains != null ? domains.start(domain) : 0;
            long end;
            end = writeAndClose(tmp, start);
            if (domains != null) {
                Path part = partPath(path, jobId, domain);
                if (!fs.rename(tmp, part)) {
                    throw new IOException("fileview: could not rename " + tmp + " to " + part
                            + (fs.exists(part) ? " (part already committed)" : ""));
                }
            } else if (!appending) {
                if (!fs.rename(tmp, path)) {
                    throw new IOException("fileview: could not rename " + tmp + " to " + path
                            + (fs.exists(path) ? " (target now exists)" : ""));
                }
            } else if (end > existingLength) {
                appendStaged(tmp);
            }
            done = true;
            return domains != null ? end - start : appending ? Math.max(end, existingLength) : end;
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
            if (domains != null) {
                end = writeZeros(out, end, domains.end(domain));
            }
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

    private static long writeZeros(FSDataOutputStream out, long pos, long end) throws IOException {
        byte[] zeros = new byte[(int) Math.min(64 * 1024, Math.max(0, end - pos))];
        while (pos < end) {
            int n = (int) Math.min(zeros.length, end - pos);
            out.write(zeros, 0, n);
            pos += n;
        }
        return pos;
    }

    private long writeStaged(FSDataOutputStream out, long start) throws IOException {
        long pos = start;
        for (Extent e : staged.values()) {
            pos = writeZeros(out, pos, e.fileOffset());
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
        Path full = tempPath(path);
        try {
            try (FSDataOutputStream out = fs.create(full, false);
                    FSDataInputStream oldIn = fs.open(path);
                    FSDataInputStream newIn = fs.open(tmp)) {
                oldIn.transferTo(out);
                newIn.transferTo(out);
            }
            replace(full);
        } finally {
            fs.delete(full, false);
        }
    }

    /** Puts {@code full} in place of {@code path} ({@link #renameOver}). */
    private void replace(Path full) throws IOException {
        renameOver(fs, full, path);
    }

    /**
     * Renames {@code from} to {@code to}, replacing {@code to} if it exists, in one step where the
     * file system can, so a reader of {@code to} sees the old file or the new one, never none: on
     * the local file system one {@code rename(2)} (the old checksum file is dropped first, old bytes
     * without a checksum stay readable, and {@code from}'s is moved in after); on HDFS the namenode's
     * rename with {@link org.apache.hadoop.fs.Options.Rename#OVERWRITE}. Other file systems get
     * {@link org.apache.hadoop.fs.FileUtil#rename}'s own behaviour (for most: delete, then rename).
     */
    public static void renameOver(FileSystem fs, Path from, Path to) throws IOException {
        FileSystem raw = fs instanceof ChecksumFileSystem c ? c.getRawFileSystem() : fs;
        if (raw instanceof RawLocalFileSystem local) {
            if (fs instanceof ChecksumFileSystem c) {
                local.delete(c.getChecksumFile(to), false);
            }
            java.nio.file.Files.move(
                    local.pathToFile(from).toPath(), local.pathToFile(to).toPath(), StandardCopyOption.ATOMIC_MOVE);
            if (fs instanceof ChecksumFileSystem c) {
                java.io.File crc = local.pathToFile(c.getChecksumFile(from));
                if (crc.exists()) {
                    java.nio.file.Files.move(
                            crc.toPath(),
                            local.pathToFile(c.getChecksumFile(to)).toPath(),
                            StandardCopyOption.ATOMIC_MOVE);
                }
            }
            return;
        }
        org.apache.hadoop.fs.FileUtil.rename(fs, from, to, org.apache.hadoop.fs.Options.Rename.OVERWRITE);
    }

    /** Discards staged data unless {@link #commit()} ran; nothing is written. */
    @Override
    public void close() {
        finished = true;
        staged.clear();
    }
}
