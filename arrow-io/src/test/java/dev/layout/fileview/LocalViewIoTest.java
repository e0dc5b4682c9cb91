package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The view I/O contract on the local file system (checksummed {@code LocalFileSystem}). */
class LocalViewIoTest extends AbstractViewIoContract {
    @TempDir
    java.nio.file.Path temp;

    @Override
    FileSystem fs() {
        try {
            return FileSystem.getLocal(new Configuration());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    org.apache.hadoop.fs.Path dir() {
        return new org.apache.hadoop.fs.Path(temp.toUri());
    }

    /** A local file system that checks, at every call the writer makes, that a watched file exists. */
    static final class WatchingLocalFs extends LocalFileSystem {
        org.apache.hadoop.fs.Path watched;
        final List<String> violations = new ArrayList<>();

        private void check(String call, org.apache.hadoop.fs.Path p) {
            if (watched != null && !Files.exists(pathToFile(watched).toPath())) {
                violations.add(call + "(" + p + "): " + watched + " missing");
            }
        }

        @Override
        public boolean delete(org.apache.hadoop.fs.Path p, boolean recursive) throws IOException {
            check("delete before", p);
            if (p.equals(watched)) {
                violations.add("delete(" + p + ") of the watched file");
            }
            boolean r = super.delete(p, recursive);
            check("delete after", p);
            return r;
        }

        @Override
        public boolean rename(org.apache.hadoop.fs.Path src, org.apache.hadoop.fs.Path dst) throws IOException {
            check("rename before", src);
            boolean r = super.rename(src, dst);
            check("rename after", src);
            return r;
        }
    }

    /** A file cut short in place mid-read: the read fails with the change named, the end of file as the cause. */
    @Test
    void fileTruncatedDuringAChunkedReadIsAnErrorNamingTheChange() throws IOException {
        org.apache.hadoop.fs.Path p = file("truncated.bin");
        Cubes.write(fs(), p, N);
        CountingFs counting = new CountingFs(fs(), 2, () -> {
            try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(
                    temp.resolve("truncated.bin"), java.nio.file.StandardOpenOption.WRITE)) {
                c.truncate(1000);
            }
        });
        try (ViewReader r = ViewReader.open(
                counting,
                p,
                FileView.contiguous(0, Primitive.FLOAT64),
                ReadOptions.defaults().withBufferBytes(256))) {
            assertThatThrownBy(() -> r.readAt(0, new byte[(int) N * 8], 0, Primitive.FLOAT64, N))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(p.toString())
                    .hasMessageContaining("changed during read at offset 0")
                    .hasMessageContaining("length 7680 -> 1000")
                    .hasCauseInstanceOf(java.io.EOFException.class);
        }
    }

    @Test
    void localAppendReplacesTheFileInOneRenameAndKeepsChecksums() throws IOException {
        WatchingLocalFs fs = new WatchingLocalFs();
        fs.initialize(URI.create("file:///"), new Configuration());
        org.apache.hadoop.fs.Path p = file("atomic.bin");
        byte[] first = Cubes.write(fs, p, 16);
        Object inodeBefore = Files.readAttributes(temp.resolve("atomic.bin"), BasicFileAttributes.class)
                .fileKey();
        try (FSDataInputStream before = fs.open(p)) {
            fs.watched = fs.makeQualified(p);
            try (ViewWriter w = ViewWriter.append(fs, p)) {
                w.writeAt(
                        FileView.contiguous(0, Primitive.FLOAT64),
                        16,
                        Memory.ofArray(Cubes.bytes(24)),
                        128,
                        Primitive.FLOAT64,
                        8);
                assertThat(w.commit()).isEqualTo(24 * 8);
            }
            fs.watched = null;
            // A reader that opened the old file keeps reading the old bytes (the new file is a new inode).
            byte[] old = new byte[128];
            before.readFully(0, old);
            assertThat(old).isEqualTo(first);
        }
        assertThat(fs.violations).isEmpty();
        assertThat(Files.readAttributes(temp.resolve("atomic.bin"), BasicFileAttributes.class)
                        .fileKey())
                .isNotEqualTo(inodeBefore);
        byte[] all = new byte[24 * 8];
        try (FSDataInputStream in = fs.open(p)) { // checksummed read: the .crc file matches the new bytes
            in.readFully(0, all);
        }
        assertThat(all).isEqualTo(Cubes.bytes(24));
        assertThat(Files.exists(temp.resolve(".atomic.bin.crc"))).isTrue();
        try (var names = Files.list(temp)) {
            assertThat(names.map(x -> x.getFileName().toString()))
                    .containsExactlyInAnyOrder("atomic.bin", ".atomic.bin.crc");
        }
    }
}
