package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When owed completion reports ask for a flush of their own, and what the outbox holds at most. */
class ReportOutboxTest {
    static final long D = ReportOutbox.FLUSH_DELAY_NANOS;

    static List<Integer> drain(ReportOutbox o) {
        List<Integer> ids = new ArrayList<>();
        o.drain((context, tag, id, nanos) -> ids.add(id));
        return ids;
    }

    @Test
    void reportsWaitForAFrameUntilTheOldestHasWaitedTheFlushDelay() {
        ReportOutbox o = new ReportOutbox();
        assertThat(o.add(0, 0, 1, 10, 0)).isFalse();
        assertThat(o.add(0, 0, 2, 10, D - 1)).isFalse();
        assertThat(o.add(0, 0, 3, 10, D)).as("the oldest waited the delay").isTrue();
        assertThat(o.add(0, 0, 4, 10, 2 * D)).as("a flush is already asked for").isFalse();
        assertThat(drain(o)).containsExactly(1, 2, 3, 4);
        assertThat(o.isEmpty()).isTrue();
        assertThat(o.add(0, 0, 5, 10, 3 * D))
                .as("the delay counts from the oldest still owed")
                .isFalse();
    }

    @Test
    void aHalfFullOutboxAsksForAFlushAndAFullOneDropsReportsNobodyAwaits() {
        ReportOutbox o = new ReportOutbox();
        int half = CompletionReports.MAX_PENDING / 2;
        for (int i = 1; i < half; i++) {
            assertThat(o.add(0, 0, i, 10, 0)).isFalse();
        }
        assertThat(o.add(0, 0, half, 10, 0)).isTrue();
        for (int i = half + 1; i <= CompletionReports.MAX_PENDING + 10; i++) {
            o.add(0, 0, i, 10, 0);
        }
        List<Integer> ids = drain(o);
        assertThat(ids).hasSize(CompletionReports.MAX_PENDING);
        assertThat(ids.get(ids.size() - 1)).isEqualTo(CompletionReports.MAX_PENDING);
    }
}
