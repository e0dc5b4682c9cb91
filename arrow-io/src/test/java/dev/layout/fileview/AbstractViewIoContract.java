package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.arrow.ArrowMemory;
import dev.layout.arrow.VectorPacking;
import dev.layout.arrow.VectorRegions;
import dev.layout.dataloop.Packing;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Distribution;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** View reads and writes against one file system; subclassed for the local FS and MiniDFSCluster. */
abstract class AbstractViewIoContract {
    static final Primitive F64 = Primitive.FLOAT64;
    static final long[] SIZES = {12, 10, 8};
    static final long N = 12 * 10 * 8;

    abstract FileSystem fs();

    abstract Path dir();

    Path file(String name) {
        return new Path(dir(), name);
    }

    static byte[] readWhole(FileSystem fs, Path p, FileView view, ReadOptions o) throws IOException {
        try (ViewReader r = ViewReader.open(fs, p, view, o)) {
            byte[] out = new byte[(int) view.tileByteSize()];
            r.readAt(0, out, 0, Primitive.BYTE, out.length);
            return out;
        }
    }

    static Datatype darray(int size, int rank, Distribution[] d, long[] dargs, long[] psizes) {
        return Datatype.darray(size, rank, SIZES, d, dargs, psizes, Order.C, F64);
    }

    static Stream<Arguments> distributions() {
        Distribution b = Distribution.BLOCK;
        Distribution c = Distribution.CYCLIC;
        Distribution n = Distribution.NONE;
        long dflt = Datatype.DEFAULT_DARG;
        return Stream.of(
                Arguments.of(
                        "block-block-block 2x2x2",
                        new Distribution[] {b, b, b},
                        new long[] {dflt, dflt, dflt},
                        new long[] {2, 2, 2}),
                Arguments.of(
                        "cyclic(2)-block-none 3x2x1",
                        new Distribution[] {c, b, n},
                        new long[] {2, dflt, dflt},
                        new long[] {3, 2, 1}),
                Arguments.of(
                        "block-cyclic-cyclic(3) 1x2x2",
                        new Distribution[] {b, c, c},
                        new long[] {dflt, 1, 3},
                        new long[] {1, 2, 2}));
    }

    @Test
    void subarrayViewReadsTheBlock() throws IOException {
        Path p = file("sub.bin");
        byte[] file = Cubes.write(fs(), p, N);
        Datatype block = Datatype.subarray(SIZES, new long[] {4, 6, 5}, new long[] {3, 2, 1}, Order.C, F64);
        FileView view = new FileView(0, F64, block);
        assertThat(readWhole(fs(), p, view, ReadOptions.defaults())).isEqualTo(Packing.pack(block, 1, file, 0));
    }

    @Test
    void subarrayViewWithDisplacementAndOffsetAcrossTiles() throws IOException {
        Path p = file("tiles.bin");
        long header = 64;
        byte[] file = Cubes.write(fs(), p, N + header / 8);
        // Each tile: 2 rows of 3 doubles from a 4x4 plane; tiles repeat every 128 bytes.
        Datatype tile = Datatype.subarray(new long[] {4, 4}, new long[] {2, 3}, new long[] {1, 1}, Order.C, F64);
        FileView view = new FileView(header, F64, tile);
        byte[] all = Cubes.expected(file, view, 7);
        try (ViewReader r = ViewReader.open(fs(), p, view)) {
            byte[] out = new byte[8 * 20];
            ReadStats s = r.readAt(5, out, 0, F64, 20); // etypes 5..24: from tile 0 into tile 4
            assertThat(out).isEqualTo(java.util.Arrays.copyOfRange(all, 40, 40 + 160));
            assertThat(s.bytes()).isEqualTo(160);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("distributions")
    void everyRanksDarrayViewReconstructsTheWholeFile(String name, Distribution[] d, long[] dargs, long[] psizes)
            throws IOException {
        Path p = file("darray-" + name.replaceAll("[^a-z0-9]", "") + ".bin");
        byte[] file = Cubes.write(fs(), p, N);
        int size = (int) (psizes[0] * psizes[1] * psizes[2]);
        byte[] rebuilt = new byte[file.length];
        long total = 0;
        for (int rank = 0; rank < size; rank++) {
            Datatype part = darray(size, rank, d, dargs, psizes);
            FileView view = new FileView(0, F64, part);
            byte[] local = readWhole(fs(), p, view, ReadOptions.defaults());
            total += local.length;
            Packing.unpack(part, 1, local, rebuilt, 0);
        }
        assertThat(total).isEqualTo(file.length);
        assertThat(rebuilt).isEqualTo(file);
    }

    static Stream<Arguments> viewsAndPolicies() {
        Datatype yz = VectorRegions.face(F64, SIZES, 2, 3);
        Datatype xz = VectorRegions.face(F64, SIZES, 1, 9);
        Datatype dar = darray(
                6,
                4,
                new Distribution[] {Distribution.CYCLIC, Distribution.BLOCK, Distribution.NONE},
                new long[] {2, Datatype.DEFAULT_DARG, Datatype.DEFAULT_DARG},
                new long[] {3, 2, 1});
        List<SievingPolicy> policies = List.of(
                SievingPolicy.perPiece(),
                SievingPolicy.adjacentOnly(),
                SievingPolicy.defaults(),
                SievingPolicy.defaults()
                        .withHoleThreshold(100)
                        .withMaxRangeBytes(256)
                        .withMaxPiecesPerBatch(7));
        return Stream.of(yz, xz, dar).flatMap(t -> policies.stream().map(pol -> Arguments.of(t, pol)));
    }

    @ParameterizedTest
    @MethodSource("viewsAndPolicies")
    void vectoredAndPerRangeReadsAreIdentical(Datatype filetype, SievingPolicy policy) throws IOException {
        Path p = file("vec.bin");
        byte[] file = Cubes.write(fs(), p, N);
        FileView view = new FileView(0, F64, filetype);
        byte[] vectored = readWhole(
                fs(), p, view, ReadOptions.defaults().withSieving(policy).withMode(ReadMode.VECTORED));
        byte[] positioned = readWhole(
                fs(), p, view, ReadOptions.defaults().withSieving(policy).withMode(ReadMode.POSITIONED));
        byte[] auto = readWhole(fs(), p, view, ReadOptions.defaults().withSieving(policy));
        assertThat(vectored).isEqualTo(positioned).isEqualTo(auto).isEqualTo(Packing.pack(filetype, 1, file, 0));
    }

    static Stream<Arguments> viewsPoliciesAndBuffers() {
        return viewsAndPolicies()
                .flatMap(a -> IntStream.of(1, 7, 64, 1000).mapToObj(n -> Arguments.of(a.get()[0], a.get()[1], n)));
    }

    /**
     * Chunked reads (the buffer far smaller than the ranges, pieces cut at chunk boundaries) give the
     * pack's bytes, in one read or in three reads at odd offsets, into a packed buffer or through a
     * non-contiguous memtype (staging and unpack chunk by chunk), and no read call asks for more than
     * the buffer.
     */
    @ParameterizedTest
    @MethodSource("viewsPoliciesAndBuffers")
    void chunkedReadsOfEveryBufferSizeMatchThePack(Datatype filetype, SievingPolicy policy, int buffer)
            throws IOException {
        Path p = file("chunks.bin");
        byte[] file = Cubes.write(fs(), p, N);
        FileView view = new FileView(0, F64, filetype);
        byte[] expected = Packing.pack(filetype, 1, file, 0);
        CountingFs counting = new CountingFs(fs());
        for (ReadMode mode : new ReadMode[] {ReadMode.POSITIONED, ReadMode.AUTO}) {
            ReadOptions o =
                    ReadOptions.defaults().withSieving(policy).withMode(mode).withBufferBytes(buffer);
            assertThat(readWhole(fs(), p, view, o)).as("%s, %s", mode, policy).isEqualTo(expected);
            assertThat(readWhole(counting, p, view, o))
                    .as("%s, %s, counted", mode, policy)
                    .isEqualTo(expected);
            byte[] parts = new byte[expected.length];
            long etypes = expected.length / 8;
            long[] cuts = {0, etypes / 3, etypes / 3 + 1, etypes};
            try (ViewReader r = ViewReader.open(fs(), p, view, o)) {
                for (int i = 0; i + 1 < cuts.length; i++) {
                    r.readAt(cuts[i], parts, cuts[i] * 8, F64, cuts[i + 1] - cuts[i]);
                }
                byte[] cube = new byte[file.length];
                r.readAt(0, cube, 0, filetype, 1);
                assertThat(Packing.pack(filetype, 1, cube, 0))
                        .as("%s, %s, through the filetype as memtype", mode, policy)
                        .isEqualTo(expected);
            }
            assertThat(parts).as("%s, %s, in three reads", mode, policy).isEqualTo(expected);
        }
        assertThat(counting.longestCall.get()).isBetween(1L, (long) buffer);
    }

    /** A YZ face sieved into one extent is one stream: no positioned read, one seek, chunks of the buffer, the extent's bytes once. */
    @Test
    void aSievedFaceStreamsItsExtentInChunksOfTheBuffer() throws IOException {
        Path p = file("dense.bin");
        byte[] file = Cubes.write(fs(), p, N);
        Datatype yz = VectorRegions.face(F64, SIZES, 2, 3);
        CountingFs counting = new CountingFs(fs());
        byte[] out = new byte[(int) yz.byteSize()];
        ReadStats s;
        try (ViewReader r = ViewReader.open(
                counting, p, new FileView(0, F64, yz), ReadOptions.defaults().withBufferBytes(512))) {
            s = r.readAt(0, out, 0, Primitive.BYTE, out.length);
        }
        assertThat(out).isEqualTo(Packing.pack(yz, 1, file, 0));
        long first = 3 * 8;
        long end = (11 * 80 + 9 * 8 + 3) * 8 + 8;
        assertThat(s.ranges()).isEqualTo(1);
        assertThat(s.fileBytes()).isEqualTo(end - first);
        assertThat(counting.positionedReads.get()).isZero();
        assertThat(counting.seeks.get()).isEqualTo(1);
        assertThat(counting.sequentialBytes.get()).isEqualTo(end - first);
        assertThat(counting.longestCall.get()).isLessThanOrEqualTo(512);
    }

    /**
     * Ranges far apart (1000 bytes every 256 KiB, beyond the 64 KiB the reader streams across): a
     * range that fits the buffer is one positioned read (except on the local file system, which
     * always streams), a longer one is streamed in chunks; the bytes are the pack's either way.
     */
    @Test
    void isolatedRangesAreReadByPositionOrStreamedWhenLongerThanTheBuffer() throws IOException {
        Path p = file("sparse.bin");
        byte[] file = Cubes.write(fs(), p, (2 << 20) / 8);
        FileView view = new FileView(
                0, Primitive.BYTE, Datatype.resized(0, 256 << 10, Datatype.contiguous(1000, Primitive.BYTE)));
        byte[] expected = Cubes.expected(file, view, 8);
        for (int buffer : new int[] {4096, 300}) {
            CountingFs counting = new CountingFs(fs());
            byte[] out = new byte[expected.length];
            ReadStats s;
            try (ViewReader r =
                    ViewReader.open(counting, p, view, ReadOptions.defaults().withBufferBytes(buffer))) {
                s = r.readAt(0, out, 0, Primitive.BYTE, out.length);
            }
            assertThat(out).as("buffer %d", buffer).isEqualTo(expected);
            assertThat(s.ranges()).isEqualTo(8);
            assertThat(counting.bytesRead()).as("buffer %d", buffer).isEqualTo(8000);
            assertThat(counting.longestCall.get()).isLessThanOrEqualTo(buffer);
            if (buffer == 4096) {
                assertThat(counting.positionedReads.get())
                        .as("positioned reads")
                        .isEqualTo(8);
                assertThat(counting.sequentialReads.get())
                        .as("sequential reads")
                        .isZero();
            } else {
                assertThat(counting.positionedReads.get())
                        .as("positioned reads")
                        .isZero();
                assertThat(counting.seeks.get())
                        .as("one seek per range but the first, at byte 0")
                        .isEqualTo(7);
            }
        }
    }

    /**
     * Short isolated ranges are read by position with several reads in flight (as many as allowed,
     * the round's ranges sharing the buffer), one at a time with parallelReads 1; same bytes.
     */
    @Test
    void isolatedRangesAreReadInParallelWithinTheBuffer() throws IOException {
        Path p = file("sparse-parallel.bin");
        byte[] file = Cubes.write(fs(), p, (2 << 20) / 8);
        // 100 bytes every 80 KiB (beyond the 64 KiB the reader streams across): 25 ranges, 10 per round of the
        // 1000-byte buffer
        FileView view = new FileView(
                0, Primitive.BYTE, Datatype.resized(0, 80 << 10, Datatype.contiguous(100, Primitive.BYTE)));
        byte[] expected = Cubes.expected(file, view, 25);
        for (int parallel : new int[] {1, 4}) {
            CountingFs counting = new CountingFs(fs());
            byte[] out = new byte[expected.length];
            ReadOptions o = ReadOptions.defaults().withBufferBytes(1000).withParallelReads(parallel);
            try (ViewReader r = ViewReader.open(counting, p, view, o)) {
                r.readAt(0, out, 0, Primitive.BYTE, out.length);
            }
            assertThat(out).as("%d in flight", parallel).isEqualTo(expected);
            assertThat(counting.positionedReads.get()).isEqualTo(25);
            assertThat(counting.mostInFlight.get())
                    .as("most positioned reads in flight")
                    .isBetween(1L, (long) parallel);
            if (parallel == 1) {
                assertThat(counting.mostInFlight.get()).isEqualTo(1);
            }
        }
    }

    /** A positioned read failing among parallel ones fails the view read with its error (the file being unchanged). */
    @Test
    void aFailingParallelReadFailsTheRead() throws IOException {
        Path p = file("sparse-failing.bin");
        Cubes.write(fs(), p, (2 << 20) / 8);
        FileView view = new FileView(
                0, Primitive.BYTE, Datatype.resized(0, 80 << 10, Datatype.contiguous(100, Primitive.BYTE)));
        CountingFs counting = new CountingFs(fs(), 3, () -> {
            throw new IOException("injected failure of a positioned read");
        });
        try (ViewReader r = ViewReader.open(
                counting, p, view, ReadOptions.defaults().withBufferBytes(1000).withParallelReads(4))) {
            assertThatThrownBy(() -> r.readAt(0, new byte[2500], 0, Primitive.BYTE, 2500))
                    .isInstanceOf(IOException.class)
                    .hasMessage("injected failure of a positioned read");
            // the reader stays usable: the next read gets the bytes
            byte[] again = new byte[2500];
            r.readAt(0, again, 0, Primitive.BYTE, 2500);
        }
    }

    @Test
    void fileReplacedDuringAChunkedReadIsAnError() throws IOException {
        Path p = file("replaced.bin");
        Cubes.write(fs(), p, N);
        CountingFs counting = new CountingFs(fs(), 3, () -> {
            fs().delete(p, false);
            Cubes.write(fs(), p, N / 2);
        });
        try (ViewReader r = ViewReader.open(
                counting, p, FileView.contiguous(0, F64), ReadOptions.defaults().withBufferBytes(256))) {
            assertThatThrownBy(() -> r.readAt(0, new byte[(int) N * 8], 0, F64, N))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(p.toString())
                    .hasMessageContaining("changed during read at offset 0");
        }
        assertThat(counting.readCalls()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void readsStraightIntoAnArrowVector() throws IOException {
        Path p = file("arrow.bin");
        byte[] file = Cubes.write(fs(), p, N);
        Datatype yz = VectorRegions.face(F64, SIZES, 2, 0);
        try (BufferAllocator a = new RootAllocator();
                Float8Vector v = VectorPacking.denseFloat8(a, "cube", (int) N);
                ViewReader r = ViewReader.open(fs(), p, new FileView(0, F64, yz))) {
            // Read the face into the same face of an in-memory cube: the memtype is the face itself.
            r.readAt(0, ArrowMemory.ofData(v), 0, yz, 1);
            assertThat(v.get(0)).isEqualTo(0);
            assertThat(v.get(8)).isEqualTo(8);
            assertThat(v.get(9)).isEqualTo(0);
            assertThat(VectorPacking.pack(v, yz, 1, 0)).isEqualTo(Packing.pack(yz, 1, file, 0));
        }
    }

    @Test
    void viewPastEndOfFileIsAnError() throws IOException {
        Path p = file("short.bin");
        Cubes.write(fs(), p, N - 1);
        FileView view = new FileView(0, F64, VectorRegions.face(F64, SIZES, 2, 7));
        assertThatThrownBy(() -> readWhole(fs(), p, view, ReadOptions.defaults()))
                .isInstanceOf(EOFException.class)
                .hasMessageContaining(p.toString())
                .hasMessageContaining("offset 0")
                .hasMessageContaining("past its end at " + (N - 1) * 8);
    }

    @Test
    void negativeOffsetIsAnError() throws IOException {
        Path p = file("neg.bin");
        Cubes.write(fs(), p, N);
        try (ViewReader r = ViewReader.open(fs(), p, FileView.contiguous(0, F64))) {
            assertThatThrownBy(() -> r.readAt(-3, new byte[8], 0, F64, 1))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("negative offset -3")
                    .hasMessageContaining(p.toString());
        }
    }

    @Test
    void fileChangedDuringReadIsAnError() throws IOException {
        Path p = file("changing.bin");
        Cubes.write(fs(), p, N);
        try (ViewReader r = ViewReader.open(fs(), p, FileView.contiguous(0, F64))) {
            fs().delete(p, false);
            Cubes.write(fs(), p, N / 2);
            assertThatThrownBy(() -> r.readAt(0, new byte[64], 0, F64, 8))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(p.toString())
                    .hasMessageContaining("changed during read at offset 0");
        }
    }

    @Test
    void everyRanksDarrayWriteProducesTheCanonicalFile() throws IOException {
        Path p = file("written.bin");
        byte[] canonical = Cubes.bytes(N);
        Distribution b = Distribution.BLOCK;
        long dflt = Datatype.DEFAULT_DARG;
        try (ViewWriter w = ViewWriter.create(fs(), p)) {
            for (int rank = 7; rank >= 0; rank--) {
                Datatype part = darray(
                        8, rank, new Distribution[] {b, b, b}, new long[] {dflt, dflt, dflt}, new long[] {2, 2, 2});
                byte[] local = Packing.pack(part, 1, canonical, 0);
                w.writeAt(new FileView(0, F64, part), 0, Memory.ofArray(local), 0, F64, local.length / 8);
            }
            assertThat(fs().exists(p)).isFalse();
            assertThat(w.commit()).isEqualTo(canonical.length);
        }
        try (ViewReader r = ViewReader.open(fs(), p, FileView.contiguous(0, F64))) {
            byte[] all = new byte[canonical.length];
            r.readAt(0, all, 0, F64, N);
            assertThat(all).isEqualTo(canonical);
        }
        assertThat(fs().listStatus(dir())).noneMatch(s -> s.getPath().getName().endsWith(".tmp"));
    }

    @Test
    void writingAByteTwiceIsRefused() throws IOException {
        Path p = file("twice.bin");
        Datatype face = VectorRegions.face(F64, SIZES, 1, 0);
        Datatype plane = VectorRegions.face(F64, SIZES, 0, 2);
        try (ViewWriter w = ViewWriter.create(fs(), p)) {
            w.writeAt(
                    new FileView(0, F64, face),
                    0,
                    Memory.ofArray(new byte[(int) face.byteSize()]),
                    0,
                    Primitive.BYTE,
                    face.byteSize());
            assertThatThrownBy(() -> w.writeAt(
                            new FileView(0, F64, plane),
                            0,
                            Memory.ofArray(new byte[(int) plane.byteSize()]),
                            0,
                            Primitive.BYTE,
                            plane.byteSize()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rewrites bytes [1280, 1344) of " + p);
        }
        assertThat(fs().exists(p)).isFalse();
    }

    @Test
    void closeWithoutCommitLeavesNothing() throws IOException {
        Path p = file("aborted.bin");
        try (ViewWriter w = ViewWriter.create(fs(), p)) {
            w.writeAt(FileView.contiguous(0, F64), 0, Memory.ofArray(new byte[64]), 0, F64, 8);
        }
        assertThat(fs().exists(p)).isFalse();
    }

    @Test
    void createRefusesAnExistingFile() throws IOException {
        Path p = file("exists.bin");
        Cubes.write(fs(), p, 4);
        assertThatThrownBy(() -> ViewWriter.create(fs(), p))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(p.toString())
                .hasMessageContaining("write-once");
    }

    @Test
    void appendAddsBytesAndRefusesToRewrite() throws IOException {
        Path p = file("append.bin");
        byte[] first = Cubes.write(fs(), p, 16);
        try (ViewWriter w = ViewWriter.append(fs(), p)) {
            assertThatThrownBy(
                            () -> w.writeAt(FileView.contiguous(0, F64), 15, Memory.ofArray(new byte[16]), 0, F64, 2))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("would rewrite bytes [120, 128) of existing " + p);
            byte[] more = Cubes.bytes(24);
            w.writeAt(FileView.contiguous(0, F64), 16, Memory.ofArray(more), 128, F64, 8);
            assertThat(w.commit()).isEqualTo(24 * 8);
        }
        try (ViewReader r = ViewReader.open(fs(), p, FileView.contiguous(0, F64))) {
            byte[] all = new byte[24 * 8];
            r.readAt(0, all, 0, F64, 24);
            assertThat(all).isEqualTo(Cubes.bytes(24));
            assertThat(java.util.Arrays.copyOf(all, 128)).isEqualTo(first);
        }
        assertThat(fs().listStatus(dir())).noneMatch(s -> s.getPath().getName().endsWith(".tmp"));
    }

    /** Plane-aligned domains of the test cube: planes [0, 4), [4, 9), [9, 12) of 10 x 8 doubles. */
    static final FileDomains PLANE_DOMAINS = FileDomains.of(0, 4 * 640, 9 * 640, 12 * 640);

    /** Domain writer {@code i} writes its planes of {@code canonical} through a subarray view, then commits its part. */
    void commitDomain(Path p, String job, int i, byte[] canonical) throws IOException {
        long a = PLANE_DOMAINS.start(i) / 640;
        long b = PLANE_DOMAINS.end(i) / 640;
        Datatype planes = Datatype.subarray(SIZES, new long[] {b - a, 10, 8}, new long[] {a, 0, 0}, Order.C, F64);
        byte[] local = Packing.pack(planes, 1, canonical, 0);
        try (ViewWriter w = ViewWriter.forDomain(fs(), p, PLANE_DOMAINS, i, job)) {
            w.writeAt(new FileView(0, F64, planes), 0, Memory.ofArray(local), 0, F64, local.length / 8);
            assertThat(w.commit()).isEqualTo(PLANE_DOMAINS.end(i) - PLANE_DOMAINS.start(i));
        }
    }

    @Test
    void domainWritersAreAssembledInCanonicalOrder() throws IOException {
        Path p = file("domains.bin");
        byte[] canonical = Cubes.bytes(N);
        for (int i : new int[] {2, 0, 1}) {
            commitDomain(p, "job-1", i, canonical);
        }
        assertThat(fs().exists(p)).isFalse();
        assertThat(ViewWriter.assemble(fs(), p, PLANE_DOMAINS, "job-1")).isEqualTo(canonical.length);
        try (ViewReader r = ViewReader.open(fs(), p, FileView.contiguous(0, F64))) {
            byte[] all = new byte[canonical.length];
            r.readAt(0, all, 0, F64, N);
            assertThat(all).isEqualTo(canonical);
        }
        assertThat(fs().listStatus(dir()))
                .extracting(s -> s.getPath().getName())
                .containsExactly("domains.bin");
    }

    @Test
    void domainWriterRefusesBytesOutsideItsDomainAndAssemblyNamesAMissingPart() throws IOException {
        Path p = file("partial.bin");
        byte[] canonical = Cubes.bytes(N);
        try (ViewWriter w = ViewWriter.forDomain(fs(), p, PLANE_DOMAINS, 1, "job-2")) {
            assertThatThrownBy(
                            () -> w.writeAt(FileView.contiguous(0, F64), 300, Memory.ofArray(new byte[64]), 0, F64, 8))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("outside file domain 1 [2560, 5760)");
        }
        commitDomain(p, "job-2", 0, canonical);
        commitDomain(p, "job-2", 2, canonical);
        assertThatThrownBy(() -> ViewWriter.assemble(fs(), p, PLANE_DOMAINS, "job-2"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("part 1 of " + p)
                .hasMessageContaining("did not commit");
        assertThat(fs().exists(p)).isFalse();
        ViewWriter.discardParts(fs(), p, PLANE_DOMAINS, "job-2");
        assertThat(fs().listStatus(dir())).isEmpty();
    }

    /** Writes raw bytes (helper for subclasses). */
    void writeRaw(Path p, byte[] b) throws IOException {
        try (OutputStream out = fs().create(p, true)) {
            out.write(b);
        }
    }
}
