package dev.layout.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.bench.memory.Target;
import dev.layout.dataloop.RossCase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The pack suite's statistic and one real (tiny-budget) row. */
class PackSuiteTest {
    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(PackSuite.median(new double[] {3, 1, 2})).isEqualTo(2);
        assertThat(PackSuite.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        double[] v = {5, 4};
        PackSuite.median(v);
        assertThat(v).containsExactly(5, 4); // the input is left alone
        assertThatThrownBy(() -> PackSuite.median(new double[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no values");
    }

    @Test
    void aRowComesFromSlicePairsOfBothSides() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PackSuite suite = new PackSuite(List.of(Target.OFFHEAP), 2_000_000L, 8_000_000L, 1);
        List<PackSuite.Row> rows =
                suite.run(List.of(RossCase.CONTIG_F32), new PrintStream(buf, true, StandardCharsets.UTF_8));
        assertThat(rows).hasSize(2);
        for (PackSuite.Row r : rows) {
            assertThat(r.manual()).isPositive();
            assertThat(r.engine()).isPositive();
            assertThat(r.ratio()).isPositive();
            assertThat(r.target()).isEqualTo("offheap");
        }
        assertThat(buf.toString(StandardCharsets.UTF_8)).contains("Contig(float32)");
    }

    @Test
    void aPairDuringWhichTheJitCompiledIsMeasuredAgainWithinABound() {
        Runnable op = () -> {};
        long[] reads = {0};
        // The JIT's clock moves during the first two pairs (two reads each), then stands still.
        LongSupplier twoBusyPairs = () -> reads[0]++ < 4 ? reads[0] : 4;
        PackSuite.paired(op, op, 1, 50_000, 4, twoBusyPairs);
        assertThat(reads[0]).isEqualTo(2 * (4 + 2));

        long[] always = {0};
        PackSuite.Paired p = PackSuite.paired(op, op, 1, 50_000, 3, () -> always[0]++);
        assertThat(always[0]).isEqualTo(2 * (3 + 3)); // at most as many pairs again
        assertThat(p.ratio()).isPositive();
    }

    @Test
    void theJitClockNeverRunsBackwards() {
        long a = Meter.jitMillis();
        assertThat(Meter.jitMillis()).isGreaterThanOrEqualTo(a).isNotNegative();
    }
}
