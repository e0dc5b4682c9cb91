package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.dataloop.Packing;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Datanode faults (issue 11) on a MiniDFSCluster with 2 datanodes and replication 2. The fault is
 * injected at a deterministic point inside the operation: a {@link FilterFileSystem} counts the
 * positioned reads of a view read (many small batches) or the bytes of a view commit and stops a
 * datanode when the count is reached. A read then completes with the right bytes (from the other
 * replica); a commit either completes with the right file or fails, and no partial file is ever
 * visible under the final name. The {@code @Timeout}s are safety nets.
 */
@Tag("hdfs")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HdfsFaultIT {
    private static final int BLOCK = 1 << 20;
    private static final int FILE_BYTES = 5 * BLOCK / 2;
    private static MiniDFSCluster cluster;
    private static FileSystem hdfs;

    @BeforeAll
    static void startCluster() throws IOException {
        Configuration conf = new Configuration();
        File base = new File("target/minidfs/" + HdfsFaultIT.class.getSimpleName()).getAbsoluteFile();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getPath());
        conf.setLong("dfs.blocksize", BLOCK);
        conf.setInt("dfs.replication", 2);
        conf.setInt("dfs.client.socket-timeout", 10_000);
        conf.setInt("ipc.client.connect.max.retries", 1);
        conf.setInt("dfs.client.retry.window.base", 100);
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(2).format(true).build();
        cluster.waitActive();
        hdfs = cluster.getFileSystem();
    }

    @AfterAll
    static void stopCluster() throws IOException {
        if (hdfs != null) {
            hdfs.close();
        }
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    static byte[] content() {
        byte[] b = new byte[FILE_BYTES];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 131 + (i >>> 11));
        }
        return b;
    }

    /** Every other 4 KiB chunk of the file. */
    static FileView stripes() {
        return new FileView(0, Primitive.BYTE, Datatype.resized(0, 8192, Datatype.contiguous(4096, Primitive.BYTE)));
    }

    @Order(1)
    @Test
    void aDatanodeStoppedDuringAViewReadLeavesTheReadCorrect() throws IOException {
        Path p = new Path("/fault/read.bin");
        byte[] file = content();
        try (FSDataOutputStream out = hdfs.create(p, (short) 2)) {
            out.write(file);
        }
        // close() returns once one replica is complete; the second datanode reports its replica to the
        // namenode asynchronously. Wait (bounded) until the namenode lists both.
        try {
            DFSTestUtil.waitReplication(hdfs, p, (short) 2);
        } catch (java.util.concurrent.TimeoutException | InterruptedException e) {
            throw new AssertionError("the second replica of " + p + " was never reported: " + e.getMessage(), e);
        }
        for (BlockLocation loc : hdfs.getFileBlockLocations(p, 0, FILE_BYTES)) {
            assertThat(loc.getNames())
                    .as("replicas of block at %d", loc.getOffset())
                    .hasSize(2);
        }
        FileView view = stripes();
        long tiles = FILE_BYTES / 8192;
        byte[] expected = Packing.pack(Datatype.contiguous(tiles, view.filetype()), 1, file, 0);
        ReadOptions small = ReadOptions.defaults()
                .withMode(ReadMode.POSITIONED)
                .withSieving(new SievingPolicy(-1, 4096, 8, 16 * 4096));
        // one run per datanode: whichever replica the client reads, one run takes it away mid-read
        for (int dn = 0; dn < 2; dn++) {
            int victim = dn;
            MiniDFSCluster.DataNodeProperties[] stopped = new MiniDFSCluster.DataNodeProperties[1];
            FaultFs fs = new FaultFs(hdfs, 5, () -> stopped[0] = cluster.stopDataNode(victim));
            byte[] got = new byte[expected.length];
            try (ViewReader r = ViewReader.open(fs, p, view, small)) {
                r.readAt(0, got, 0, Primitive.BYTE, got.length);
            }
            assertThat(stopped[0])
                    .as("datanode %d stopped during the read", victim)
                    .isNotNull();
            assertThat(fs.reads.get()).as("positioned reads").isGreaterThan(5);
            assertThat(got)
                    .as("bytes read with datanode %d stopped mid-read", victim)
                    .isEqualTo(expected);
            assertThat(cluster.restartDataNode(stopped[0], true)).isTrue();
            cluster.waitActive();
        }
    }

    @Order(2)
    @Test
    void aDatanodeStoppedDuringAViewCommitNeverLeavesAPartialFile() throws IOException {
        Path p = new Path("/fault/written-one.bin");
        byte[] file = content();
        MiniDFSCluster.DataNodeProperties[] stopped = new MiniDFSCluster.DataNodeProperties[1];
        FaultFs fs = new FaultFs(hdfs, BLOCK + 12345, () -> stopped[0] = cluster.stopDataNode(1));
        boolean committed;
        try (ViewWriter w = ViewWriter.create(fs, p)) {
            writeInTwoViews(w, file);
            try {
                assertThat(w.commit()).isEqualTo(FILE_BYTES);
                committed = true;
            } catch (IOException failed) {
                assertThat(failed.getMessage()).isNotBlank();
                committed = false;
            }
        }
        assertThat(stopped[0]).as("datanode stopped during the commit").isNotNull();
        System.out.println("HdfsFaultIT: commit with one of two datanodes stopped mid-write "
                + (committed ? "completed" : "failed cleanly"));
        if (committed) {
            assertThat(readAll(p)).isEqualTo(file);
        } else {
            assertThat(hdfs.exists(p)).isFalse();
        }
        assertThat(hdfs.listStatus(p.getParent()))
                .noneMatch(s -> s.getPath().getName().endsWith(".tmp"));
        assertThat(cluster.restartDataNode(stopped[0], true)).isTrue();
        cluster.waitActive();
    }

    @Order(3)
    @Test
    void everyDatanodeStoppedDuringAViewCommitFailsItAndNothingIsVisible() throws IOException {
        Path p = new Path("/fault/written-none.bin");
        byte[] file = content();
        FaultFs fs = new FaultFs(hdfs, BLOCK + 12345, () -> {
            cluster.stopDataNode(1);
            cluster.stopDataNode(0);
        });
        try (ViewWriter w = ViewWriter.create(fs, p)) {
            writeInTwoViews(w, file);
            assertThatThrownBy(w::commit).isInstanceOf(IOException.class).hasMessageContaining(p.toString());
        }
        assertThat(fs.faulted).isTrue();
        assertThat(hdfs.exists(p)).as("final name after a failed commit").isFalse();
    }

    /** The file as even and odd 4 KiB stripes, written through two views. */
    private static void writeInTwoViews(ViewWriter w, byte[] file) throws IOException {
        FileView even = stripes();
        FileView odd = new FileView(4096, Primitive.BYTE, even.filetype());
        long tiles = FILE_BYTES / 8192;
        byte[] e = Packing.pack(Datatype.contiguous(tiles, even.filetype()), 1, file, 0);
        byte[] o = Packing.pack(Datatype.contiguous(tiles, even.filetype()), 1, file, 4096);
        w.writeAt(even, 0, Memory.ofArray(e), 0, Primitive.BYTE, e.length);
        w.writeAt(odd, 0, Memory.ofArray(o), 0, Primitive.BYTE, o.length);
    }

    private static byte[] readAll(Path p) throws IOException {
        byte[] b = new byte[(int) hdfs.getFileStatus(p).getLen()];
        try (FSDataInputStream in = hdfs.open(p)) {
            in.readFully(0, b);
        }
        return b;
    }

    /** Runs {@code fault} once, at the n-th positioned read or after n bytes written. */
    static final class FaultFs extends FilterFileSystem {
        final AtomicLong reads = new AtomicLong();
        final AtomicLong written = new AtomicLong();
        final long at;
        final Runnable fault;
        volatile boolean faulted;

        FaultFs(FileSystem fs, long at, Runnable fault) {
            super(fs);
            this.at = at;
            this.fault = fault;
        }

        private synchronized void tick(AtomicLong counter, long n) {
            if (counter.addAndGet(n) >= at && !faulted) {
                faulted = true;
                fault.run();
            }
        }

        @Override
        public FSDataInputStream open(Path f, int bufferSize) throws IOException {
            FSDataInputStream in = fs.open(f, bufferSize);
            return new FSDataInputStream(new ForwardingInputStream(in) {
                @Override
                public int read(long position, byte[] buffer, int offset, int length) throws IOException {
                    tick(reads, 1);
                    return in.read(position, buffer, offset, length);
                }

                @Override
                public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
                    tick(reads, 1);
                    in.readFully(position, buffer, offset, length);
                }

                // Sequential reads count too: the reader serves runs of nearby ranges with seek + readFully.
                @Override
                public int read(byte[] buffer, int offset, int length) throws IOException {
                    tick(reads, 1);
                    return in.read(buffer, offset, length);
                }
            });
        }

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
            FSDataOutputStream out = fs.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
            return new FSDataOutputStream(
                    new OutputStream() {
                        @Override
                        public void write(int b) throws IOException {
                            out.write(b);
                            tick(written, 1);
                        }

                        @Override
                        public void write(byte[] b, int off, int len) throws IOException {
                            out.write(b, off, len);
                            tick(written, len);
                        }

                        @Override
                        public void flush() throws IOException {
                            out.flush();
                        }

                        @Override
                        public void close() throws IOException {
                            out.close();
                        }
                    },
                    null);
        }
    }
}
