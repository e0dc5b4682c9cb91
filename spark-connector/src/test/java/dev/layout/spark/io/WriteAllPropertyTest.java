package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import dev.layout.transport.InProcessTransport;
import dev.layout.transport.JobSecret;
import dev.layout.transport.PackingTransport;
import dev.layout.transport.TcpOptions;
import dev.layout.transport.TcpTransport;
import dev.layout.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.hadoop.conf.Configuration;

/**
 * {@link CollectiveFile#writeAll} against a naive byte-by-byte model: the file's bytes are dealt at
 * random to the ranks (or left as holes); each rank's view is an {@code hindexed} of its bytes, its
 * memory a strided type with random bytes between the elements, and the file must hold, at every
 * byte, the data byte of the rank that owns it and zeros in the holes. Over the three exchanges a
 * write can take: ranks of one JVM copying straight into the aggregator's buffer (in process), the
 * same fabric packing and unpacking every message, and loopback TCP. Random cycle, domain and block
 * sizes make domains of one or many cycles and ranks with and without data; a random aggregator
 * count (1 to more than the ranks, or the default) makes ranks with and without a domain.
 */
class WriteAllPropertyTest {

    enum Exchange {
        SINGLE_COPY,
        PACKED,
        TCP
    }

    /** A rank's view and memory layout, with the model's file byte of each of its data bytes. */
    private record RankCase(FileView view, long[] fileOffsets, int origin, int blockLen, int stride, byte[] memory) {
        Datatype memtype() {
            return Datatype.vector(fileOffsets.length / blockLen, blockLen, stride, Primitive.BYTE);
        }

        /** Memory byte of data byte {@code j}. */
        int place(int j) {
            return origin + j / blockLen * stride + j % blockLen;
        }
    }

    @Property(tries = 60)
    void theFileHoldsEveryRanksBytesWhereItsViewPutsThem(
            @ForAll @IntRange(min = 1, max = 5) int ranks,
            @ForAll @IntRange(min = 1, max = 400) int cycleBytes,
            @ForAll @IntRange(min = 1, max = 300) int minDomainBytes,
            @ForAll @IntRange(min = 16, max = 600) int blockSize,
            @ForAll Exchange exchange,
            @ForAll @IntRange(min = 0, max = 6) int aggregators,
            @ForAll long seed)
            throws IOException {
        Random rnd = new Random(seed);
        RankCase[] cases = deal(rnd, ranks, 1 + rnd.nextInt(700));
        long fileLength = 0;
        for (RankCase c : cases) {
            for (long f : c.fileOffsets()) {
                fileLength = Math.max(fileLength, f + 1);
            }
        }
        byte[] expected = new byte[(int) fileLength];
        for (RankCase c : cases) {
            for (int j = 0; j < c.fileOffsets().length; j++) {
                expected[(int) c.fileOffsets()[j]] = c.memory()[c.place(j)];
            }
        }
        Path dir = Files.createTempDirectory("writeall-property");
        try {
            Path file = dir.resolve("data.bin");
            Configuration conf = new Configuration();
            conf.setLong("fs.local.block.size", blockSize);
            CollectiveFile f = CollectiveFile.of(conf, file.toString())
                    .withCycleBytes(cycleBytes)
                    .withMinDomainBytes(minDomainBytes)
                    .withAggregators(aggregators)
                    .withStrategy(Strategy.TWO_PHASE);
            run(exchange, ranks, comm -> {
                RankCase c = cases[comm.rank()];
                try {
                    return f.writeAll(comm, c.view(), 0, Memory.ofArray(c.memory()), c.origin(), c.memtype(), 1);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertThat(Files.readAllBytes(file))
                    .as("%s, %d ranks", exchange, ranks)
                    .isEqualTo(expected);
            try (Stream<Path> left = Files.list(dir)) {
                assertThat(left.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".data.bin.crc")))
                        .containsExactly("data.bin");
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static <T> List<T> run(Exchange exchange, int ranks, Function<Communicator, T> body) throws IOException {
        Duration timeout = Duration.ofSeconds(30);
        List<? extends Transport> fabric =
                switch (exchange) {
                    case SINGLE_COPY -> InProcessTransport.create(ranks);
                    case PACKED -> PackingTransport.inProcess(ranks);
                    case TCP -> TcpTransport.loopbackFabric(ranks, JobSecret.random(), TcpOptions.defaults());
                };
        return InProcessLauncher.runOn(fabric, timeout, body);
    }

    /**
     * Deals file bytes {@code [0, span)} to the ranks at random, in runs (a byte no rank gets is a
     * hole); each rank's view lists its runs, its memory is a random strided layout of its bytes.
     */
    private static RankCase[] deal(Random rnd, int ranks, int span) {
        List<List<long[]>> runs = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            runs.add(new ArrayList<>());
        }
        for (int at = 0; at < span; ) {
            int len = 1 + rnd.nextInt(40);
            int owner = rnd.nextInt(ranks + 1); // ranks: a hole
            if (owner < ranks) {
                runs.get(owner).add(new long[] {at, Math.min(len, span - at)});
            }
            at += len;
        }
        RankCase[] cases = new RankCase[ranks];
        for (int r = 0; r < ranks; r++) {
            List<long[]> mine = runs.get(r);
            int blockLen = 1 + rnd.nextInt(6);
            long total = mine.stream().mapToLong(x -> x[1]).sum();
            long usable = total - total % blockLen; // the view's bytes, trimmed to whole memory blocks
            List<Long> offsets = new ArrayList<>();
            List<Long> lens = new ArrayList<>();
            List<Long> displs = new ArrayList<>();
            long left = usable;
            for (long[] run : mine) {
                long take = Math.min(run[1], left);
                if (take > 0) {
                    displs.add(run[0]);
                    lens.add(take);
                    for (long b = 0; b < take; b++) {
                        offsets.add(run[0] + b);
                    }
                    left -= take;
                }
            }
            Datatype filetype = displs.isEmpty()
                    ? Datatype.hindexed(new long[] {1}, new long[] {0}, Primitive.BYTE) // no data: count 0
                    : Datatype.hindexed(
                            lens.stream().mapToLong(Long::longValue).toArray(),
                            displs.stream().mapToLong(Long::longValue).toArray(),
                            Primitive.BYTE);
            int stride = blockLen + rnd.nextInt(3);
            int count = (int) (usable / blockLen);
            int origin = rnd.nextInt(4);
            byte[] memory = new byte[origin + count * stride + 3];
            rnd.nextBytes(memory);
            cases[r] = new RankCase(
                    new FileView(0, Primitive.BYTE, filetype),
                    offsets.stream().mapToLong(Long::longValue).toArray(),
                    origin,
                    blockLen,
                    stride,
                    memory);
        }
        return cases;
    }
}
