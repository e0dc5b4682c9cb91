package dev.layout.spark.io;

import dev.layout.fileview.DomainPart;
import dev.layout.fileview.FileDomains;
import dev.layout.fileview.SharedFile;
import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where the writer of one file domain puts its bytes, in file order: its place in the one shared
 * file on the local file system ({@link SharedFile}, positional writes, nothing to join), else its
 * own part ({@link DomainPart}, joined by {@code concat} at commit).
 */
interface DomainOutput extends Closeable {
    /** Writes {@code len} bytes at file byte {@code fileOffset}, the byte after the previous write's last. */
    void write(long fileOffset, byte[] buf, int off, int len) throws IOException;

    /** Marks the domain complete (its part committed); close() without it discards a part. */
    void commit() throws IOException;

    /** True if the write goes to one shared file made before the writers start (see {@link SharedFile#create}). */
    static boolean shared(FileSystem fs) {
        return SharedFile.supports(fs);
    }

    static DomainOutput open(FileSystem fs, Path path, FileDomains domains, int domain, String writeId, long blockSize)
            throws IOException {
        if (shared(fs)) {
            SharedFile f = SharedFile.open(fs, path, writeId, domains, domain);
            return new DomainOutput() {
                @Override
                public void write(long fileOffset, byte[] buf, int off, int len) throws IOException {
                    f.write(fileOffset, buf, off, len);
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
        DomainPart part = DomainPart.create(fs, path, domains, domain, writeId, blockSize);
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
            public void commit() throws IOException {
                part.commit();
            }

            @Override
            public void close() throws IOException {
                part.close();
            }
        };
    }
}
