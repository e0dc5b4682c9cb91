package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.hadoop.conf.Configuration;

/**
 * {@link CollectiveFile#readAll} against a naive byte-by-byte model: every rank has a random view
 * (an {@code hindexed} of bytes with a trailing gap, tiled from a displacement; views of different
 * ranks may overlap) and a strided memory type, and must end with file byte {@code model(i)} at
 * memory byte {@code place(j)} for each of its data bytes, and every other memory byte untouched.
 * Random cycle sizes, domain sizes and block sizes make domains of one or many cycles (the read
 * ahead of the exchange) and ranks with and without data; a random aggregator count (1 to more than
 * the ranks, or the default) makes any number of domains per rank and ranks without a domain.
 */
class ReadAllPropertyTest {

    /** A rank's view and memory layout, with the model's file byte of each of its data bytes. */
    private record RankCase(
            FileView view, long offset, long[] fileOffsets, int origin, int blockLen, int stride, byte[] memory) {
        Datatype memtype() {
            return Datatype.vector(fileOffsets.length / blockLen, blockLen, stride, Primitive.BYTE);
        }

        /** Memory byte of data byte {@code j}. */
        int place(int j) {
            return origin + j / blockLen * stride + j % blockLen;
        }
    }

    @Property(tries = 80)
    void everyRankGetsTheFileBytesItsViewSelects(
            @ForAll @IntRange(min = 1, max = 5) int ranks,
            @ForAll @IntRange(min = 1, max = 400) int cycleBytes,
            @ForAll @IntRange(min = 1, max = 300) int minDomainBytes,
            @ForAll @IntRange(min = 16, max = 600) int blockSize,
            @ForAll boolean twoPhase,
            @ForAll @IntRange(min = 0, max = 6) int aggregators,
            @ForAll long seed)
            throws IOException {
        Random rnd = new Random(seed);
        RankCase[] cases = new RankCase[ranks];
        long fileLength = 0;
        for (int r = 0; r < ranks; r++) {
            cases[r] = randomCase(rnd);
            for (long f : cases[r].fileOffsets()) {
                fileLength = Math.max(fileLength, f + 1);
            }
        }
        byte[] content = new byte[(int) fileLength + rnd.nextInt(40)];
        rnd.nextBytes(content);
        Path dir = Files.createTempDirectory("readall-property");
        try {
            Path file = dir.resolve("data.bin");
            Files.write(file, content);
            Configuration conf = new Configuration();
            conf.setLong("fs.local.block.size", blockSize);
            CollectiveFile f = CollectiveFile.of(conf, file.toString())
                    .withCycleBytes(cycleBytes)
                    .withMinDomainBytes(minDomainBytes)
                    .withAggregators(aggregators)
                    .withStrategy(twoPhase ? Strategy.TWO_PHASE : Strategy.INDEPENDENT);
            InProcessLauncher.run(ranks, Duration.ofSeconds(30), comm -> {
                RankCase c = cases[comm.rank()];
                try {
                    return f.readAll(
                            comm, c.view(), c.offset(), Memory.ofArray(c.memory()), c.origin(), c.memtype(), 1);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            for (int r = 0; r < ranks; r++) {
                RankCase c = cases[r];
                byte[] expected = new byte[c.memory().length];
                Arrays.fill(expected, (byte) 0x5a);
                for (int j = 0; j < c.fileOffsets().length; j++) {
                    expected[c.place(j)] = content[(int) c.fileOffsets()[j]];
                }
                assertThat(c.memory()).as("rank %d of %d", r, ranks).isEqualTo(expected);
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A random view and memory layout; the model lists the file byte of each data byte. */
    private static RankCase randomCase(Random rnd) {
        int blocks = 1 + rnd.nextInt(4);
        long[] lens = new long[blocks];
        long[] displs = new long[blocks];
        long at = rnd.nextInt(5);
        for (int i = 0; i < blocks; i++) {
            displs[i] = at;
            lens[i] = 1 + rnd.nextInt(9);
            at += lens[i] + rnd.nextInt(6);
        }
        long extent = at + rnd.nextInt(5);
        Datatype filetype = Datatype.resized(0, extent, Datatype.hindexed(lens, displs, Primitive.BYTE));
        long disp = rnd.nextInt(30);
        long offset = rnd.nextInt(12);
        long[] flat = new long[(int) Arrays.stream(lens).sum()];
        for (int i = 0, k = 0; i < blocks; i++) {
            for (int b = 0; b < lens[i]; b++) {
                flat[k++] = displs[i] + b;
            }
        }
        int blockLen = 1 + rnd.nextInt(6);
        int stride = blockLen + rnd.nextInt(3);
        int count = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(50);
        long[] files = new long[count * blockLen];
        for (int j = 0; j < files.length; j++) {
            long i = offset + j;
            files[j] = disp + i / flat.length * extent + flat[(int) (i % flat.length)];
        }
        int origin = rnd.nextInt(4);
        byte[] memory = new byte[origin + count * stride + 3];
        Arrays.fill(memory, (byte) 0x5a);
        return new RankCase(
                new FileView(disp, Primitive.BYTE, filetype), offset, files, origin, blockLen, stride, memory);
    }
}
