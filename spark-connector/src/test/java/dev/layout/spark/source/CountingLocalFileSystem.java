package dev.layout.spark.source;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system, counting every byte written through its output streams (in this JVM):
 * set as {@code fs.file.impl} (with {@code fs.file.impl.disable.cache}) to see how many bytes a
 * write passed through Hadoop's file system API.
 */
public class CountingLocalFileSystem extends org.apache.hadoop.fs.LocalFileSystem {
    static final AtomicLong BYTES = new AtomicLong();

    @Override
    public FSDataOutputStream create(
            Path f,
            FsPermission permission,
            boolean overwrite,
            int bufferSize,
            short replication,
            long blockSize,
            Progressable progress)
            throws IOException {
        FSDataOutputStream out = super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
        return new FSDataOutputStream(out, null) {
            @Override
            public void write(int b) throws IOException {
                BYTES.incrementAndGet();
                super.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                BYTES.addAndGet(len);
                out.write(b, off, len);
            }
        };
    }
}
