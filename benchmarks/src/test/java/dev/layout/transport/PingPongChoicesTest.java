package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Process 1's per-row counts of what its adaptive echoes used, as bench pingpong sends and prints them. */
class PingPongChoicesTest {
    @Test
    void theCountsSurviveTheMessage() {
        int[] used = new int[SendStrategy.values().length];
        used[SendStrategy.PACK.ordinal()] = 3;
        used[SendStrategy.GATHER.ordinal()] = 197;
        assertThat(PingPongBenchmark.choices(PingPongBenchmark.choices(used))).containsExactly(used);
    }

    @Test
    void theMostUsedStrategyAndItsShareArePrinted() {
        int[] used = new int[SendStrategy.values().length];
        assertThat(PingPongBenchmark.mostUsed(used)).isNull();
        assertThat(PingPongBenchmark.share(null, used)).isEqualTo("-");
        used[SendStrategy.PACK.ordinal()] = 6;
        used[SendStrategy.GATHER.ordinal()] = 194;
        assertThat(PingPongBenchmark.mostUsed(used)).isEqualTo(SendStrategy.GATHER);
        assertThat(PingPongBenchmark.share(SendStrategy.GATHER, used)).isEqualTo("gather 97%");
        used[SendStrategy.PACK.ordinal()] = 194;
        assertThat(PingPongBenchmark.mostUsed(used)).as("a tie").isEqualTo(SendStrategy.PACK);
    }

    @Test
    void aMessageOfTheWrongLengthIsRefused() {
        assertThatThrownBy(() -> PingPongBenchmark.choices(new byte[5]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("5 bytes");
    }
}
