package dev.layout.spark.grid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.InProcessLauncher;
import dev.layout.spark.io.IoResult;
import dev.layout.spark.io.Strategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Barrier-mode checkpoints take the policy's aggregator count: a 512 x 512 field (2 MiB, two file
 * domains of the 1 MiB minimum by default) over 2 x 2 ranks in one JVM, saved and read back with
 * 1, 2 and the default aggregators.
 */
class BlockCheckpointsTest {
    private static final DistributedGrid GRID =
            DistributedGrid.of(new int[] {512, 512}, new int[] {2, 2}, 1, new boolean[] {false, false});

    @TempDir
    java.nio.file.Path dir;

    private static double value(int[] at) {
        return at[0] * 1000.0 + at[1];
    }

    @ParameterizedTest(name = "aggregators {0}")
    @CsvSource({"1, 1", "2, 2", "0, 2"})
    void checkpointsAreWrittenAndReadWithThePolicysAggregators(int aggregators, int domains) {
        String ckpt = dir.resolve("ckpt-" + aggregators).toString();
        List<IoResult[]> results = InProcessLauncher.run(GRID.ranks(), Duration.ofSeconds(60), world -> {
            try {
                BlockCheckpoints c = new BlockCheckpoints(null, ckpt, aggregators);
                GridBlock b = GRID.newBlock(world.rank(), BlockCheckpointsTest::value);
                IoResult saved = c.save(world, GRID, 5, b);
                GridBlock back = GRID.newBlock(world.rank(), at -> -1.0);
                IoResult loaded = c.load(world, GRID, 5, back);
                int[] n = back.interior();
                for (int i = 0; i < n[0]; i++) {
                    for (int j = 0; j < n[1]; j++) {
                        int[] at = {back.start()[0] + i, back.start()[1] + j};
                        if (back.get(back.index(i + 1, j + 1)) != value(at)) {
                            throw new AssertionError("rank " + world.rank() + " read "
                                    + back.get(back.index(i + 1, j + 1)) + " at " + at[0] + ", " + at[1]);
                        }
                    }
                }
                return new IoResult[] {saved, loaded};
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        for (int k = 0; k < 2; k++) {
            int call = k;
            assertThat(results).allSatisfy(r -> {
                assertThat(r[call].strategy()).isEqualTo(Strategy.TWO_PHASE);
                assertThat(r[call].domains().count()).isEqualTo(domains);
            });
            assertThat(results.stream().filter(r -> r[call].aggregatedDomain() >= 0))
                    .as(call == 0 ? "aggregators of the save" : "aggregators of the load")
                    .hasSize(domains);
        }
    }
}
