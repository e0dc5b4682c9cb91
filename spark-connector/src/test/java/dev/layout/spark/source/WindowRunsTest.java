package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A write task's rows in runs, spilled and merged back window by window. */
class WindowRunsTest {
    private static byte[] bytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    @Test
    void everyRowComesBackOnceWindowByWindowAfterSpills() throws Exception {
        List<Long> indexes = new ArrayList<>();
        for (long i = 0; i < 1000; i += 1 + i % 3) {
            indexes.add(i);
        }
        Collections.shuffle(indexes, new Random(7));
        List<long[]> back = new ArrayList<>(); // index, value
        try (WindowRuns runs = new WindowRuns(8, 64, 100)) {
            for (long i : indexes) {
                runs.add(i, bytes(i * 3 + 1));
            }
            assertThat(runs.spilled()).isEqualTo((indexes.size() - 1) / 100);
            runs.drain((index, b, off) ->
                    back.add(new long[] {index, ByteBuffer.wrap(b, off, 8).getLong()}));
            assertThat(runs.spilled()).as("the temporary files are gone").isZero();
        }
        assertThat(back).hasSameSizeAs(indexes);
        for (int k = 1; k < back.size(); k++) {
            assertThat(back.get(k)[0] / 64).as("window of row %d", k).isGreaterThanOrEqualTo(back.get(k - 1)[0] / 64);
        }
        assertThat(back.stream().map(r -> r[0]).sorted().toList())
                .isEqualTo(indexes.stream().sorted().toList());
        assertThat(back).allSatisfy(r -> assertThat(r[1]).isEqualTo(r[0] * 3 + 1));
    }

    @Test
    void noRowsDrainToNothing() throws Exception {
        try (WindowRuns runs = new WindowRuns(4, 16, 1)) {
            List<Long> back = new ArrayList<>();
            runs.drain((index, b, off) -> back.add(index));
            assertThat(back).isEmpty();
        }
    }

    @Test
    void sizesBelowOneAreRefused() {
        assertThatThrownBy(() -> new WindowRuns(8, 0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "fileview: window runs of element bytes 8, window elements 0, run rows 10 (expected: each >= 1)");
    }
}
