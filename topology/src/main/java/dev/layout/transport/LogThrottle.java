package dev.layout.transport;

import java.time.Duration;

/**
 * Rate limit for log lines that strangers can trigger (refused connections): at most one line per
 * interval, the next one saying how many were left out. A flood of connections then costs a line a
 * second, not a line a connection.
 *
 * <pre>{@code
 * long skipped = throttle.admit();
 * if (skipped >= 0) {
 *   log.warn("refused {} ({} more not logged)", peer, skipped);
 * }
 * }</pre>
 */
public final class LogThrottle {
    /** One line a second. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

    private final long intervalNanos;
    private long next = Long.MIN_VALUE;
    private long suppressed;

    /** @throws IllegalArgumentException if interval is null or negative */
    public LogThrottle(Duration interval) {
        if (interval == null || interval.isNegative()) {
            throw new IllegalArgumentException("logThrottle: interval " + interval + " (expected: >= 0)");
        }
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Whether to log this event: the number of events left out since the last logged one (0 or more)
     * if it is to be logged, or -1 if not.
     */
    public synchronized long admit() {
        long now = System.nanoTime();
        if (next != Long.MIN_VALUE && now - next < 0) {
            suppressed++;
            return -1;
        }
        next = now + intervalNanos;
        long s = suppressed;
        suppressed = 0;
        return s;
    }
}
