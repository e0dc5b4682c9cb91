package dev.layout.spark.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import dev.layout.transport.InProcessTransport;
import dev.layout.transport.JobSecret;
import dev.layout.transport.TcpOptions;
import dev.layout.transport.TcpTransport;
import dev.layout.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The aggregator count of two-phase calls ({@link CollectiveFile#withAggregators}), and ranks that
 * were given other options than their peers: their plans would differ, and with them the sizes of
 * the blocks a pair exchanges (one side sending nothing, the other waiting for bytes).
 */
class CollectiveFileAggregatorsTest {
    /** 3 x 3 ranks over a field of 7192 bytes: 15 blocks of 512 bytes, enough for a domain per rank. */
    private static final FieldSplit SPLIT = new FieldSplit(new long[] {29, 31}, new int[] {3, 3});

    @TempDir
    java.nio.file.Path dir;

    private CollectiveFile file(String name) {
        return CollectiveFile.of(new Configuration(), dir.resolve(name).toString())
                .withStrategy(Strategy.TWO_PHASE)
                .withBlockSize(512)
                .withCycleBytes(1000)
                .withMinDomainBytes(256);
    }

    @Test
    void everyCountFromOneToTheRanksWritesAndReadsTheFieldWithThatManyDomains() throws IOException {
        for (int k = 1; k <= SPLIT.ranks(); k++) {
            CollectiveFile f = file("field-" + k + ".f64").withAggregators(k);
            List<IoResult> written = run(InProcessTransport.create(SPLIT.ranks()), comm -> write(f, comm));
            int count = k;
            assertThat(written).allSatisfy(r -> assertThat(r.domains().count()).isEqualTo(count));
            assertThat(written.stream().filter(r -> r.aggregatedDomain() >= 0))
                    .as("%d aggregators", k)
                    .hasSize(k);
            // read back with another count: the file is the same whatever wrote it
            CollectiveFile g = f.withAggregators(SPLIT.ranks() + 1 - k);
            assertThat(run(InProcessTransport.create(SPLIT.ranks()), comm -> read(g, comm)))
                    .as("read with %d aggregators of a file written with %d", SPLIT.ranks() + 1 - k, k)
                    .containsOnly("read the field");
        }
    }

    @Test
    void aNegativeCountIsRefused() {
        assertThatThrownBy(() -> file("x").withAggregators(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("collective file: aggregators -1 (expected: >= 1, or 0 for one per host)");
    }

    /**
     * Rank 4 was given a cycle of 2000 bytes where the others have 1000: its cycles would not match
     * theirs. Every rank fails at once with one message naming rank 4 and both options, over the
     * in-process transport and over TCP.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aRankGivenOtherOptionsFailsTheReadAtEveryRankNamingItInsteadOfWaiting(boolean tcp) throws IOException {
        CollectiveFile f = file("field.f64");
        run(InProcessTransport.create(SPLIT.ranks()), comm -> write(f, comm));
        List<String> out =
                run(fabric(tcp), comm -> outcome(() -> read(comm.rank() == 4 ? f.withCycleBytes(2000) : f, comm)));
        assertThat(out).as("the same failure at every rank").containsOnly(out.get(0));
        assertThat(out.get(0))
                .startsWith("readAll " + f.path() + ": rank 4 of 9: options strategy TWO_PHASE, cycle bytes 2000, ")
                .contains("(expected: rank 0's strategy TWO_PHASE, cycle bytes 1000, ")
                .endsWith("; every rank calls with the same CollectiveFile)");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aRankGivenOtherAggregatorsFailsTheWriteAtEveryRankAndLeavesNothing(boolean tcp) throws IOException {
        CollectiveFile f = file("field.f64");
        List<String> out =
                run(fabric(tcp), comm -> outcome(() -> write(comm.rank() == 7 ? f.withAggregators(2) : f, comm)));
        assertThat(out).containsOnly(out.get(0));
        assertThat(out.get(0))
                .startsWith("writeAll " + f.path() + ": rank 7 of 9: options ")
                .contains("aggregators 2, ")
                .contains("(expected: rank 0's ")
                .contains("aggregators default, ");
        try (var left = Files.list(dir)) {
            assertThat(left).isEmpty();
        }
    }

    private static List<? extends Transport> fabric(boolean tcp) throws IOException {
        return tcp
                ? TcpTransport.loopbackFabric(SPLIT.ranks(), JobSecret.random(), TcpOptions.defaults())
                : InProcessTransport.create(SPLIT.ranks());
    }

    private static <T> List<T> run(
            List<? extends Transport> fabric, java.util.function.Function<Communicator, T> body) {
        return InProcessLauncher.runOn(fabric, Duration.ofSeconds(60), body);
    }

    private interface Call {
        Object call() throws IOException;
    }

    private static String outcome(Call c) {
        try {
            return String.valueOf(c.call());
        } catch (IOException | RuntimeException e) {
            return e.getMessage();
        }
    }

    private static IoResult write(CollectiveFile f, Communicator comm) {
        byte[] block = SPLIT.block(comm.rank());
        FileView view = new FileView(0, Primitive.FLOAT64, SPLIT.filetype(comm.rank()));
        try {
            return f.writeAll(comm, view, 0, Memory.ofArray(block), 0, Primitive.BYTE, block.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(CollectiveFile f, Communicator comm) {
        byte[] want = SPLIT.block(comm.rank());
        byte[] got = new byte[want.length];
        FileView view = new FileView(0, Primitive.FLOAT64, SPLIT.filetype(comm.rank()));
        try {
            f.readAll(comm, view, 0, Memory.ofArray(got), 0, Primitive.BYTE, got.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Arrays.equals(want, got) ? "read the field" : "other bytes";
    }
}
