package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LogThrottleTest {
    @Test
    void withinOneIntervalOnlyTheFirstEventIsLogged() {
        LogThrottle t = new LogThrottle(Duration.ofHours(1));
        assertThat(t.admit()).isZero();
        for (int i = 0; i < 1000; i++) {
            assertThat(t.admit()).isEqualTo(-1);
        }
    }

    @Test
    void aZeroIntervalLogsEveryEventWithNothingLeftOut() {
        LogThrottle t = new LogThrottle(Duration.ZERO);
        for (int i = 0; i < 10; i++) {
            assertThat(t.admit()).isZero();
        }
    }

    @Test
    void aNegativeIntervalIsRefused() {
        assertThatThrownBy(() -> new LogThrottle(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("logThrottle: interval PT-1S (expected: >= 0)");
    }
}
