package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.fileview.SharedFile;
import dev.layout.memory.Memory;
import dev.layout.transport.InProcessTransport;
import dev.layout.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** writeAll / readAll over the in-process communicator on the local file system, checked against the field's bytes. */
class CollectiveFileTest {
    @TempDir
    java.nio.file.Path dir;

    /** Small blocks and cycles, so that small fields still have several domains and cycles. */
    private CollectiveFile file(String name) {
        Configuration conf = new Configuration();
        conf.setLong("fs.local.block.size", 4096);
        return CollectiveFile.of(conf, dir.resolve(name).toString())
                .withCycleBytes(1000)
                .withMinDomainBytes(512);
    }

    static Stream<Arguments> splits() {
        return Stream.of(
                Arguments.of(new FieldSplit(new long[] {37}, new int[] {1}), Strategy.AUTO),
                Arguments.of(new FieldSplit(new long[] {100}, new int[] {3}), Strategy.AUTO),
                Arguments.of(new FieldSplit(new long[] {30, 41}, new int[] {2, 2}), Strategy.AUTO),
                Arguments.of(new FieldSplit(new long[] {30, 41}, new int[] {2, 2}), Strategy.TWO_PHASE),
                Arguments.of(new FieldSplit(new long[] {29, 31}, new int[] {3, 3}), Strategy.AUTO),
                Arguments.of(new FieldSplit(new long[] {64, 8}, new int[] {4, 1}), Strategy.AUTO),
                Arguments.of(new FieldSplit(new long[] {64, 8}, new int[] {4, 1}), Strategy.TWO_PHASE),
                Arguments.of(new FieldSplit(new long[] {9, 10, 11}, new int[] {2, 2, 2}), Strategy.AUTO),
                Arguments.of(new FieldSplit(new long[] {7, 13, 5}, new int[] {1, 3, 3}), Strategy.TWO_PHASE));
    }

    @ParameterizedTest
    @MethodSource("splits")
    void writeAllThenReadAllRoundTripsTheField(FieldSplit split, Strategy strategy) throws IOException {
        CollectiveFile f = file("field.f64").withStrategy(strategy);
        List<IoResult> written = InProcessLauncher.run(split.ranks(), Duration.ofSeconds(30), comm -> {
            byte[] block = split.block(comm.rank());
            FileView view = new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank()));
            try {
                return f.writeAll(comm, view, 0, Memory.ofArray(block), 0, Primitive.BYTE, block.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        ByteBuffer bytes =
                ByteBuffer.wrap(Files.readAllBytes(dir.resolve("field.f64"))).order(ByteOrder.nativeOrder());
        assertThat(bytes.capacity()).isEqualTo(split.cells() * 8);
        for (long i = 0; i < split.cells(); i++) {
            assertThat(bytes.getDouble((int) i * 8)).as("cell %d", i).isEqualTo((double) i);
        }
        try (Stream<java.nio.file.Path> left = Files.list(dir)) {
            // the file and maybe its checksum (the local join drops it), nothing else
            assertThat(left.map(p -> p.getFileName().toString()).filter(n -> !n.equals(".field.f64.crc")))
                    .containsExactly("field.f64");
        }
        assertThat(written).allSatisfy(r -> assertThat(r.committed()).isTrue());
        assertThat(written.stream().map(IoResult::strategy).distinct()).hasSize(1);
        if (strategy != Strategy.AUTO) {
            assertThat(written.get(0).strategy()).isEqualTo(strategy);
        }
        for (Strategy read : new Strategy[] {Strategy.TWO_PHASE, Strategy.INDEPENDENT, Strategy.AUTO}) {
            List<Boolean> same = readsBack(
                    f.withStrategy(read), split, r -> assertThat(r.strategy()).isNotEqualTo(Strategy.AUTO));
            assertThat(same).as("read %s", read).containsOnly(true);
        }
    }

    @Test
    void overlappingViewsAreRefusedAtEveryRankAndLeaveNothing() {
        CollectiveFile f = file("clash.f64");
        assertThatThrownBy(() -> InProcessLauncher.runEach(3, Duration.ofSeconds(30), comm -> {
                    byte[] block = new byte[800];
                    // ranks 0 and 1 both write doubles [50, 100); rank 2 writes [100, 150)
                    long start = comm.rank() == 0 ? 0 : comm.rank() == 1 ? 50 : 100;
                    FileView view = FileView.contiguous(start * 8, Primitive.FLOAT64);
                    try {
                        f.withStrategy(Strategy.TWO_PHASE)
                                .writeAll(
                                        comm,
                                        view,
                                        0,
                                        Memory.ofArray(block),
                                        0,
                                        Primitive.BYTE,
                                        comm.rank() == 0 ? 800 : 400);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ranks 0 and 1 both write file byte 400");
        assertThat(dir.toFile().list()).isEmpty();
    }

    /**
     * A rank that dies in the middle of a two-phase write (its endpoint closes at its third send of
     * data, after earlier cycles were written into the shared file) fails the call at every rank,
     * and nothing is left: no file, no hidden file, no lease.
     */
    @Test
    void aRankDyingMidWriteFailsEveryRankAndLeavesNothing() {
        // half rows: every domain holds the bytes of two ranks, so ranks send to other aggregators
        List<Transport> fabric = new ArrayList<>(InProcessTransport.create(HALF_ROWS.ranks()));
        fabric.set(2, new DyingTransport(fabric.get(2), "float64", 3)); // its data is float64s
        assertThat(failedWrites("dies.f64", fabric)).hasSize(HALF_ROWS.ranks());
        assertThat(dir.toFile().list()).isEmpty();
    }

    /** A rank lost before the plan round (its endpoint closed): every rank fails, and root's new file is gone. */
    @Test
    void aRankLostBeforeThePlanFailsEveryRankAndLeavesNothing() {
        List<Transport> fabric = new ArrayList<>(InProcessTransport.create(HALF_ROWS.ranks()));
        fabric.get(3).close();
        assertThat(failedWrites("lost.f64", fabric)).hasSize(HALF_ROWS.ranks());
        assertThat(dir.toFile().list()).isEmpty();
    }

    private static final FieldSplit HALF_ROWS = new FieldSplit(new long[] {64, 8}, new int[] {2, 2});

    /** A two-phase write of {@link #HALF_ROWS} over {@code fabric}; the failures of the ranks. */
    private List<Throwable> failedWrites(String name, List<Transport> fabric) {
        CollectiveFile f = file(name).withCycleBytes(256).withStrategy(Strategy.TWO_PHASE);
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        InProcessLauncher.runOn(fabric, Duration.ofSeconds(5), comm -> {
            byte[] block = HALF_ROWS.block(comm.rank());
            FileView view = new FileView(0, Primitive.FLOAT64, HALF_ROWS.filetype(comm.rank()));
            try {
                f.writeAll(comm, view, 0, Memory.ofArray(block), 0, Primitive.FLOAT64, block.length / 8);
            } catch (IOException | RuntimeException e) {
                failures.add(e);
            }
            return null;
        });
        return failures;
    }

    /**
     * The two ways an aggregator reads its domain on the local file system give the same bytes: a
     * mapping of the file (no checksum file beside it) and a checksummed stream (a file written
     * through Hadoop's checksummed local file system, whose checks a mapping would skip).
     */
    @Test
    void twoPhaseReadsGiveTheFieldWhetherTheDomainIsMappedOrStreamed() throws IOException {
        FieldSplit split = new FieldSplit(new long[] {29, 31}, new int[] {3, 3});
        ByteBuffer field = ByteBuffer.allocate((int) split.cells() * 8).order(ByteOrder.nativeOrder());
        for (long i = 0; i < split.cells(); i++) {
            field.putDouble((double) i);
        }
        Configuration conf = new Configuration();
        org.apache.hadoop.fs.Path plain =
                new org.apache.hadoop.fs.Path(dir.resolve("plain.f64").toUri());
        org.apache.hadoop.fs.Path summed =
                new org.apache.hadoop.fs.Path(dir.resolve("summed.f64").toUri());
        Files.write(dir.resolve("plain.f64"), field.array());
        org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(conf);
        try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(summed)) {
            out.write(field.array());
        }
        assertThat(SharedFile.localFile(fs, plain)).isNotNull();
        assertThat(SharedFile.localFile(fs, summed))
                .as("a checksummed file is streamed")
                .isNull();
        for (org.apache.hadoop.fs.Path p : List.of(plain, summed)) {
            // domains of the configured blocks, whatever the cached local file system's own block size
            CollectiveFile f =
                    file(p.getName()).withStrategy(Strategy.TWO_PHASE).withBlockSize(4096);
            List<Boolean> same = readsBack(f, split, r -> {
                assertThat(r.strategy()).isEqualTo(Strategy.TWO_PHASE);
                assertThat(r.cycles())
                        .as("two domains of 4096 and 3096 bytes in cycles of 1000")
                        .isEqualTo(5);
            });
            assertThat(same).as("read %s", p.getName()).containsOnly(true);
        }
    }

    /**
     * An aggregator whose read fails (a checksum error in its domain of a checksummed local file)
     * goes on exchanging, sending zeros, so every rank gets the failure from the agreement instead of
     * waiting for the aggregator until the timeout.
     */
    @Test
    void anAggregatorsReadFailureFailsEveryRankWithItsMessageAndNoRankWaitsForIt() throws IOException {
        FieldSplit split = new FieldSplit(new long[] {29, 31}, new int[] {3, 3});
        byte[] field = new byte[(int) split.cells() * 8];
        org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(new Configuration());
        org.apache.hadoop.fs.Path p =
                new org.apache.hadoop.fs.Path(dir.resolve("summed.f64").toUri());
        try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(p)) {
            out.write(field);
        }
        try (java.nio.channels.FileChannel ch =
                java.nio.channels.FileChannel.open(dir.resolve("summed.f64"), java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {42}), 5000); // in the second domain, its cycle 0: [4096, 5096)
        }
        CollectiveFile f = file("summed.f64").withStrategy(Strategy.TWO_PHASE).withBlockSize(4096);
        List<String> outcomes = InProcessLauncher.run(split.ranks(), Duration.ofSeconds(60), comm -> {
            byte[] got = new byte[split.block(comm.rank()).length];
            FileView view = new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank()));
            try {
                f.readAll(comm, view, 0, Memory.ofArray(got), 0, Primitive.BYTE, got.length);
                return "returned";
            } catch (IOException e) {
                return e.getMessage();
            }
        });
        assertThat(outcomes.get(0))
                .startsWith("readAll " + f.path() + ": rank ")
                .contains("readAll: reading bytes [4096, ")
                .contains("Checksum error");
        assertThat(outcomes).as("the same failure at every rank").containsOnly(outcomes.get(0));
    }

    /** Every rank reads its block back with {@code f}; true per rank if it got the field's bytes. */
    private static List<Boolean> readsBack(CollectiveFile f, FieldSplit split, Consumer<IoResult> check) {
        return InProcessLauncher.run(split.ranks(), Duration.ofSeconds(30), comm -> {
            byte[] want = split.block(comm.rank());
            byte[] got = new byte[want.length];
            FileView view = new FileView(0, Primitive.FLOAT64, split.filetype(comm.rank()));
            try {
                check.accept(f.readAll(comm, view, 0, Memory.ofArray(got), 0, Primitive.BYTE, got.length));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return java.util.Arrays.equals(want, got);
        });
    }

    private static IoResult writeBlock(CollectiveFile f, dev.layout.comm.Communicator comm, FieldSplit split) {
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
    }

    private List<String> names() throws IOException {
        try (Stream<java.nio.file.Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aDeferredWriteLeavesOneHiddenFileUntilCommitAndAbortRemovesIt() throws IOException {
        FieldSplit split = new FieldSplit(new long[] {30, 41}, new int[] {2, 2});
        CollectiveFile f = file("deferred.f64").deferCommit();
        List<IoResult> results = InProcessLauncher.run(split.ranks(), Duration.ofSeconds(30), comm -> {
            writeBlock(f, comm, split); // a first attempt of the stage: the second replaces what it wrote
            return writeBlock(f, comm, split);
        });
        assertThat(results).allSatisfy(r -> assertThat(r.committed()).isFalse());
        assertThat(results.get(0).domains().count()).isGreaterThan(1);
        // the domains are written in place into one file: no parts to join on a file system without concat
        assertThat(names()).containsExactly(".deferred.f64." + f.writeId() + ".whole");
        assertThat(f.commit(results.get(0))).isEqualTo(split.cells() * 8);
        assertThat(names()).containsExactly("deferred.f64");
        ByteBuffer bytes =
                ByteBuffer.wrap(Files.readAllBytes(dir.resolve("deferred.f64"))).order(ByteOrder.nativeOrder());
        for (int i = 0; i < split.cells(); i++) {
            assertThat(bytes.getDouble(i * 8)).as("cell %d", i).isEqualTo((double) i);
        }

        CollectiveFile g = file("aborted.f64").deferCommit();
        InProcessLauncher.run(split.ranks(), Duration.ofSeconds(30), comm -> writeBlock(g, comm, split));
        assertThat(g.abort()).isEqualTo(1);
        assertThat(names()).containsExactly("deferred.f64");
    }

    @Test
    void anExistingFileIsRefusedAtEveryRankAndLeavesNoHiddenFile() throws IOException {
        FieldSplit split = new FieldSplit(new long[] {30, 41}, new int[] {2, 2});
        Files.write(dir.resolve("taken.f64"), new byte[] {1, 2, 3});
        CollectiveFile f = file("taken.f64");
        assertThatThrownBy(() -> InProcessLauncher.runEach(
                        split.ranks(), Duration.ofSeconds(30), comm -> writeBlock(f, comm, split)))
                .hasMessageContaining("taken.f64 already exists");
        assertThat(names()).containsExactly("taken.f64");
        assertThat(Files.readAllBytes(dir.resolve("taken.f64"))).containsExactly(1, 2, 3);
    }

    @Test
    void aNamedWriteIdNamesTheHiddenFileAndARetryUnderItReplacesTheFirstAttempt() throws IOException {
        FieldSplit split = new FieldSplit(new long[] {30, 41}, new int[] {2, 2});
        assertThatThrownBy(() -> file("x.f64").withWriteId("../up"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("collective file: write id '../up' (expected: 1-64 letters, digits, '-' or '_')");
        CollectiveFile first = file("named.f64").withWriteId("stage-7_run2").deferCommit();
        InProcessLauncher.run(split.ranks(), Duration.ofSeconds(30), comm -> writeBlock(first, comm, split));
        assertThat(names()).containsExactly(".named.f64.stage-7_run2.whole");
        // a new description (e.g. after a driver restart) with the same id: the retry replaces the attempt's file, one
        // commit makes it
        CollectiveFile retry = file("named.f64").withWriteId("stage-7_run2").deferCommit();
        assertThat(retry.writeId()).isEqualTo("stage-7_run2");
        List<IoResult> results =
                InProcessLauncher.run(split.ranks(), Duration.ofSeconds(30), comm -> writeBlock(retry, comm, split));
        assertThat(retry.commit(results.get(0))).isEqualTo(split.cells() * 8);
        assertThat(names()).containsExactly("named.f64");
    }
}
