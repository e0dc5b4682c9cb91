package dev.layout.spark.io;

import dev.layout.fileview.DomainPart;
import dev.layout.fileview.FileDomains;
import dev.layout.fileview.SharedFile;
import dev.layout.fileview.ViewWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One write of a new file by writers of its file domains, and where each writer puts its bytes, in
 * file order: on the local file system its place in one shared file ({@link SharedFile}, positional
 * writes, the commit only renames), else its own part ({@link DomainPart}, joined by {@code concat}
 * at the commit). The life of a write, the same for {@link CollectiveFile} and the {@code fileview}
 * DataSource:
 *
 * <pre>{@code
 * DomainOutput.begin(fs, path, writeId, length);        // once, before any writer
 * try (DomainOutput o = DomainOutput.open(...)) {       // each writer: write(...), then commit()
 * DomainOutput.commit(fs, path, writeId, domains);      // once, after every writer committed
 * DomainOutput.abort(fs, path, writeId);                // or this: nothing is left
 * }</pre>
 *
 * Writers are fenced: a writer opens its output only while the write is open (the shared file
 * under its temporary name, or elsewhere the write's marker file {@code .NAME.WRITEID.job}, checked
 * after the part was created), and the commit and abort close the write first. So a late writer (a
 * task attempt that outlived its job) leaves no part and never touches the file.
 */
public interface DomainOutput extends Closeable {
    /** Writes {@code len} bytes at file byte {@code fileOffset}, the byte after the previous write's last. */
    void write(long fileOffset, byte[] buf, int off, int len) throws IOException;

    /**
     * Writes the remaining bytes of {@code src} at file byte {@code fileOffset} (as {@link
     * #write(long, byte[], int, int)}; its position advances past them). The shared file takes a
     * direct buffer with no copy before the write syscall's; a part takes a heap buffer's array.
     */
    default void write(long fileOffset, ByteBuffer src) throws IOException {
        if (src.hasArray()) {
            write(fileOffset, src.array(), src.arrayOffset() + src.position(), src.remaining());
            src.position(src.limit());
            return;
        }
        byte[] chunk = new byte[Math.min(src.remaining(), 64 * 1024)];
        for (long at = fileOffset; src.hasRemaining(); ) {
            int n = Math.min(chunk.length, src.remaining());
            src.get(chunk, 0, n);
            write(at, chunk, 0, n);
            at += n;
        }
    }

    /** Leaves the bytes up to file byte {@code fileOffset} zeros (holes of the shared file; written zeros in a part). */
    void skipTo(long fileOffset) throws IOException;

    /** Marks the writer's bytes complete (its part committed); close() without it discards a part. */
    void commit() throws IOException;

    /** True if the write goes to one shared file made by {@link #begin} (the local file system). */
    static boolean shared(FileSystem fs) {
        return SharedFile.supports(fs);
    }

    /**
     * Opens a write of the new file {@code path}: removes what an earlier attempt with the same id
     * left, then makes the shared file ({@code length} zero bytes, or empty for writers that fill the
     * whole file) or the write's marker.
     */
    static void begin(FileSystem fs, Path path, String writeId, long length) throws IOException {
        ViewWriter.discardWrite(fs, path, writeId);
        if (shared(fs)) {
            SharedFile.create(fs, path, writeId, length);
        } else {
            fs.create(marker(path, writeId), false).close();
        }
    }

    /** The output of the writer of all of domain {@code domain} (committed only once it is full). */
    static DomainOutput open(FileSystem fs, Path path, FileDomains domains, int domain, String writeId, long blockSize)
            throws IOException {
        if (shared(fs)) {
            return shared(fs, path, domains, domain, writeId);
        }
        return fenced(fs, path, writeId, DomainPart.create(fs, path, domains, domain, writeId, blockSize));
    }

    /**
     * The output of a writer of bytes of domain {@code domain} from {@code start} up to where it
     * stops: on the shared file, positional writes into the domain; elsewhere a part named {@code
     * .NAME.WRITEID.NAME_SUFFIX} when committed, which the caller joins (a task writing the rows it
     * was given, which need not fill the domain).
     */
    static DomainOutput openRange(
            FileSystem fs,
            Path path,
            String writeId,
            String partSuffix,
            FileDomains domains,
            int domain,
            long start,
            long blockSize)
            throws IOException {
        if (shared(fs)) {
            return shared(fs, path, domains, domain, writeId);
        }
        DomainPart part = DomainPart.createRange(
                fs, path, rangePart(path, writeId, partSuffix), start, domains.end(domain), blockSize);
        return fenced(fs, path, writeId, part);
    }

    /** The committed name of an {@link #openRange} part. */
    static Path rangePart(Path path, String writeId, String partSuffix) {
        ViewWriter.partPath(path, writeId, 0); // checks the id
        return new Path(path.getParent(), "." + path.getName() + "." + writeId + "." + partSuffix);
    }

    /** The file whose presence says the write is open (elsewhere than the local file system). */
    static Path marker(Path path, String writeId) {
        return rangePart(path, writeId, "job");
    }

    /**
     * Closes the write to writers (no part can be created after it returns; on the shared file, the
     * writers still inside are waited for by {@link SharedFile#commit}).
     */
    static void fence(FileSystem fs, Path path, String writeId) throws IOException {
        if (!shared(fs)) {
            fs.delete(marker(path, writeId), false);
        }
    }

    /**
     * Makes the file from the domains' outputs: renames the shared file, or joins the domains'
     * parts ({@link ViewWriter#assemble}); {@code domains} null: an empty file. Returns its length.
     */
    static long commit(FileSystem fs, Path path, String writeId, FileDomains domains) throws IOException {
        return commit(fs, path, writeId, domains, false);
    }

    /**
     * {@link #commit(FileSystem, Path, String, FileDomains)}; with {@code overwrite} an existing file
     * is replaced in one rename where the file system can ({@link ViewWriter#renameOver}: the local
     * file system and HDFS), so a reader sees the old file or the new one, never none.
     */
    static long commit(FileSystem fs, Path path, String writeId, FileDomains domains, boolean overwrite)
            throws IOException {
        if (shared(fs)) {
            return SharedFile.commit(fs, path, writeId, domains == null ? 0 : domains.fileLength(), overwrite);
        }
        fence(fs, path, writeId);
        if (domains == null) {
            Path empty = rangePart(path, writeId, "empty");
            fs.create(empty, false).close(); // no writer wrote a byte: an empty file
            if (overwrite) {
                ViewWriter.renameOver(fs, empty, path);
            } else if (!fs.rename(empty, path)) {
                fs.delete(empty, false);
                throw new org.apache.hadoop.fs.FileAlreadyExistsException(
                        "fileview: " + path + " already exists (files are write-once)");
            }
            return 0;
        }
        long length = ViewWriter.assemble(fs, path, domains, writeId, overwrite);
        ViewWriter.discardWrite(fs, path, writeId); // what late writers made before the fence
        return length;
    }

    /** Closes the write and removes everything it left beside the target; returns the files removed. */
    static int abort(FileSystem fs, Path path, String writeId) throws IOException {
        fence(fs, path, writeId);
        return ViewWriter.discardWrite(fs, path, writeId);
    }

    private static DomainOutput shared(FileSystem fs, Path path, FileDomains domains, int domain, String writeId)
            throws IOException {
        SharedFile f = SharedFile.open(fs, path, writeId, domains, domain);
        return new DomainOutput() {
            @Override
            public void write(long fileOffset, byte[] buf, int off, int len) throws IOException {
                f.write(fileOffset, buf, off, len);
            }

            @Override
            public void write(long fileOffset, ByteBuffer src) throws IOException {
                f.write(fileOffset, src);
            }

            @Override
            public void skipTo(long fileOffset) {
                // The shared file's bytes are zeros until written.
            }

            @Override
            public void commit() throws IOException {
                f.close();
            }

            @Override
            public void close() throws IOException {
                f.close();
            }
        };
    }

    /** {@code part}, if the write is still open once it exists; else it is deleted and the open fails. */
    private static DomainOutput fenced(FileSystem fs, Path path, String writeId, DomainPart part) throws IOException {
        try {
            if (!fs.exists(marker(path, writeId))) {
                throw new IOException("fileview: the write " + writeId + " of " + path
                        + " is over (committed or aborted; expected: a writer of an open write)");
            }
        } catch (IOException | RuntimeException e) {
            part.close();
            throw e;
        }
        return new DomainOutput() {
            @Override
            public void write(long fileOffset, byte[] buf, int off, int len) throws IOException {
                if (fileOffset != part.position()) {
                    throw new IllegalStateException("DomainOutput: write at file byte " + fileOffset + " (expected: "
                            + part.position() + ", in file order)");
                }
                part.write(buf, off, len);
            }

            @Override
            public void skipTo(long fileOffset) throws IOException {
                part.skipTo(fileOffset);
            }

            /**
             * Commits the part, then checks that the write is still open: a writer that got past the
             * open's check but commits after the fence (the commit may already have listed what to
             * discard) removes its own part.
             */
            @Override
            public void commit() throws IOException {
                part.commit();
                if (!fs.exists(marker(path, writeId))) {
                    fs.delete(part.part(), false);
                    throw new IOException("fileview: the write " + writeId + " of " + path
                            + " ended while this writer was writing (committed or aborted; its part is discarded)");
                }
            }

            @Override
            public void close() throws IOException {
                part.close();
            }
        };
    }
}
