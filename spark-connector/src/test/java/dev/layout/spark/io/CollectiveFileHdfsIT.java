package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileDomains;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import dev.layout.spark.testing.MiniDfsExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * writeAll / readAll on HDFS (MiniDFSCluster) for 1 to 9 ranks of the in-process communicator, 2D
 * and 3D fields with uneven blocks: the file's bytes are the field's, its blocks are the domains'
 * (64 KiB block size, so that the fields span several), no part is left beside it, and both read
 * strategies give every rank its block back.
 */
@Tag("hdfs")
@ExtendWith(MiniDfsExtension.class)
class CollectiveFileHdfsIT {
    private static final long BLOCK = 64 * 1024;

    static Stream<Arguments> splits() {
        return Stream.of(
                Arguments.of(new FieldSplit(new long[] {70_000}, new int[] {1})),
                Arguments.of(new FieldSplit(new long[] {301, 157}, new int[] {2, 1})),
                Arguments.of(new FieldSplit(new long[] {300, 301}, new int[] {2, 2})),
                Arguments.of(new FieldSplit(new long[] {257, 253}, new int[] {1, 5})),
                Arguments.of(new FieldSplit(new long[] {299, 303}, new int[] {3, 3})),
                Arguments.of(new FieldSplit(new long[] {41, 43, 47}, new int[] {2, 2, 2})),
                Arguments.of(new FieldSplit(new long[] {33, 50, 61}, new int[] {3, 1, 3})));
    }

    private static CollectiveFile file(MiniDFSCluster dfs, String name) throws IOException {
        return CollectiveFile.of(dfs.getConfiguration(0), dfs.getFileSystem().getUri() + "/collective/" + name)
                .withBlockSize(BLOCK);
    }

    @ParameterizedTest
    @MethodSource("splits")
    void writeAllMakesTheFieldFromBlockAlignedPartsAndReadAllGivesTheBlocksBack(FieldSplit split, MiniDFSCluster dfs)
            throws IOException {
        String name = "f" + Arrays.toString(split.sizes()).replaceAll("\\D+", "_") + split.ranks() + ".f64";
        CollectiveFile f = file(dfs, name);
        List<IoResult> results = InProcessLauncher.run(split.ranks(), Duration.ofSeconds(60), comm -> {
            byte[] block = split.block(comm.rank());
            try {
                return f.writeAll(
                        comm,
                        new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank())),
                        0,
                        Memory.ofArray(block),
                        0,
                        Primitive.BYTE,
                        block.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        FileSystem fs = dfs.getFileSystem();
        Path p = new Path(f.path());
        FileStatus st = fs.getFileStatus(p);
        assertThat(st.getLen()).isEqualTo(split.cells() * 8);
        byte[] all = new byte[(int) st.getLen()];
        try (FSDataInputStream in = fs.open(p)) {
            in.readFully(0, all);
        }
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.nativeOrder());
        for (int i = 0; i < split.cells(); i++) {
            if (b.getDouble(i * 8) != i) {
                throw new AssertionError("cell " + i + " = " + b.getDouble(i * 8));
            }
        }
        assertThat(fs.listStatus(p.getParent()))
                .extracting(s -> s.getPath().getName())
                .doesNotContain(".tmp")
                .allSatisfy(n -> assertThat(n).doesNotStartWith("." + name));
        IoResult r = results.get(0);
        if (r.strategy() == Strategy.TWO_PHASE) {
            for (int d = 1; d < r.domains().count(); d++) {
                assertThat(r.domains().bound(d) % BLOCK)
                        .as("domain bound %d of %s", d, r.domains())
                        .isZero();
            }
            // Every block of the file is a full 64 KiB block but the last: the parts were whole blocks.
            long full = Arrays.stream(fs.getFileBlockLocations(st, 0, st.getLen()))
                    .filter(l -> l.getLength() == BLOCK)
                    .count();
            assertThat(full).isEqualTo(st.getLen() / BLOCK);
        }
        for (Strategy s : new Strategy[] {Strategy.TWO_PHASE, Strategy.INDEPENDENT}) {
            CollectiveFile rf = f.withStrategy(s);
            List<Boolean> same = InProcessLauncher.run(split.ranks(), Duration.ofSeconds(60), comm -> {
                byte[] want = split.block(comm.rank());
                byte[] got = new byte[want.length];
                try {
                    rf.readAll(
                            comm,
                            new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank())),
                            0,
                            Memory.ofArray(got),
                            0,
                            Primitive.BYTE,
                            got.length);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return Arrays.equals(want, got);
            });
            assertThat(same).as("read %s", s).containsOnly(true);
        }
    }

    @Test
    void aDeferredWriteLeavesOnlyPartsUntilCommitAndAbortRemovesThem(MiniDFSCluster dfs) throws IOException {
        FieldSplit split = new FieldSplit(new long[] {200, 190}, new int[] {2, 2});
        CollectiveFile f = file(dfs, "deferred.f64").deferCommit();
        FileSystem fs = dfs.getFileSystem();
        Path p = new Path(f.path());
        List<IoResult> results = InProcessLauncher.run(split.ranks(), Duration.ofSeconds(60), comm -> {
            byte[] block = split.block(comm.rank());
            try {
                // Run the "stage" twice, as a re-attempted barrier stage would: the second attempt replaces the first
                // one's parts.
                f.writeAll(
                        comm,
                        new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank())),
                        0,
                        Memory.ofArray(block),
                        0,
                        Primitive.BYTE,
                        block.length);
                return f.writeAll(
                        comm,
                        new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank())),
                        0,
                        Memory.ofArray(block),
                        0,
                        Primitive.BYTE,
                        block.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        assertThat(fs.exists(p)).isFalse();
        assertThat(results).allSatisfy(r -> assertThat(r.committed()).isFalse());
        long parts = Arrays.stream(fs.listStatus(p.getParent()))
                .filter(s -> s.getPath().getName().startsWith(".deferred.f64." + f.writeId() + ".part-"))
                .count();
        assertThat(parts).isEqualTo(results.get(0).domains().count());
        assertThat(fs.exists(DomainOutput.marker(p, f.writeId())))
                .as("the write is open")
                .isTrue();
        assertThat(f.commit(results.get(0))).isEqualTo(split.cells() * 8);
        assertThat(fs.getFileStatus(p).getLen()).isEqualTo(split.cells() * 8);
        assertThat(fs.listStatus(p.getParent()))
                .extracting(s -> s.getPath().getName())
                .noneMatch(n -> n.startsWith(".deferred.f64"));

        CollectiveFile g = file(dfs, "aborted.f64").deferCommit();
        InProcessLauncher.run(split.ranks(), Duration.ofSeconds(60), comm -> {
            byte[] block = split.block(comm.rank());
            try {
                return g.writeAll(
                        comm,
                        new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank())),
                        0,
                        Memory.ofArray(block),
                        0,
                        Primitive.BYTE,
                        block.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        assertThat(g.abort()).isGreaterThan(0);
        assertThat(fs.listStatus(p.getParent()))
                .extracting(s -> s.getPath().getName())
                .noneMatch(n -> n.contains("aborted.f64"));
    }

    @Test
    void aShortFileFailsTheReadAtEveryRankNamingTheRankAndBytes(MiniDFSCluster dfs) throws IOException {
        FileSystem fs = dfs.getFileSystem();
        CollectiveFile f = file(dfs, "short.f64");
        try (var out = fs.create(new Path(f.path()))) {
            out.write(new byte[1000]);
        }
        assertThatThrownBy(() -> InProcessLauncher.runEach(3, Duration.ofSeconds(30), comm -> {
                    byte[] got = new byte[800];
                    try {
                        f.readAll(
                                comm,
                                FileView.contiguous(comm.rank() * 400L, Primitive.FLOAT64),
                                0,
                                Memory.ofArray(got),
                                0,
                                Primitive.BYTE,
                                400);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }))
                .hasRootCauseInstanceOf(IOException.class)
                .rootCause()
                .hasMessageContaining("rank 2 of 3")
                .hasMessageContaining("has 1000 bytes, the view needs bytes up to 1200");
    }

    /**
     * A domain's part on HDFS takes the bytes of heap and direct buffers alike (a heap buffer with
     * an array offset and a position; a direct buffer larger than the copy's chunk), in file order.
     */
    @Test
    void aDomainPartTakesHeapAndDirectBuffers(MiniDFSCluster dfs) throws IOException {
        FileSystem fs = dfs.getFileSystem();
        Path p = new Path("/collective/buffers.bin");
        byte[] want = new byte[300_000];
        new java.util.Random(7).nextBytes(want);
        FileDomains domains = FileDomains.of(0, 100_000, 300_000);
        DomainOutput.begin(fs, p, "buffers", 0);
        try (DomainOutput d0 = DomainOutput.open(fs, p, domains, 0, "buffers", BLOCK);
                DomainOutput d1 = DomainOutput.open(fs, p, domains, 1, "buffers", BLOCK)) {
            byte[] padded = new byte[40_010];
            System.arraycopy(want, 0, padded, 10, 40_000);
            ByteBuffer heap = ByteBuffer.wrap(padded).slice(5, 40_005).position(5); // array offset 5, position 5
            d0.write(0, heap);
            assertThat(heap.hasRemaining()).isFalse();
            ByteBuffer direct =
                    ByteBuffer.allocateDirect(60_000).put(want, 40_000, 60_000).flip();
            d0.write(40_000, direct);
            ByteBuffer large = ByteBuffer.allocateDirect(200_000)
                    .put(want, 100_000, 200_000)
                    .flip();
            d1.write(100_000, large);
            assertThat(large.hasRemaining()).isFalse();
            d0.commit();
            d1.commit();
        }
        assertThat(DomainOutput.commit(fs, p, "buffers", domains)).isEqualTo(want.length);
        byte[] got = new byte[want.length];
        try (FSDataInputStream in = fs.open(p)) {
            in.readFully(got);
        }
        assertThat(got).isEqualTo(want);
    }
}
