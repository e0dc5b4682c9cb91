package dev.layout.transport;

/**
 * The completion reports ({@link Frame#DONE}) one {@link Connection} owes its peer. Each goes out in
 * front of the next frame written to the peer, in the same write, so that in a request-reply
 * exchange a report costs neither a write nor a wake-up of its own: measured on a loaded 2-cpu
 * machine, a report frame written at once, or a timer armed per report to flush it, each cost 5-20%
 * of a 64 KiB ping-pong round trip, and this none measurable. When no frame takes the reports
 * along (a one-way stream), the next report owed once the oldest has waited
 * {@link #FLUSH_DELAY_NANOS}, or once half the outbox is used, asks for a flush by a worker; the last
 * reports of a burst wait for the connection's next frame or its goodbye. A report's value is a
 * duration measured by the receiver, so lateness does not bias it.
 *
 * <p>Bounded: a sender awaits at most {@link CompletionReports#MAX_PENDING} reports, so reports
 * beyond that are owed to nobody and are dropped. Thread-safe.
 */
final class ReportOutbox {
    /** How long the oldest report may wait for a frame to travel with before the next one asks for a flush. */
    static final long FLUSH_DELAY_NANOS = 1_000_000;

    private static final int CAPACITY = CompletionReports.MAX_PENDING;

    /** Receives each queued report when drained. */
    interface Sink {
        void report(long context, int tag, int id, long receiverNanos);
    }

    private final long[] context = new long[CAPACITY];
    private final int[] tag = new int[CAPACITY];
    private final int[] id = new int[CAPACITY];
    private final long[] nanos = new long[CAPACITY];
    private int size;
    private long oldestAt;
    private boolean flushAsked;

    /** Queues a report owed since {@code now}; true if the caller should have the outbox flushed now. */
    synchronized boolean add(long context, int tag, int id, long receiverNanos, long now) {
        if (size < CAPACITY) {
            if (size == 0) {
                oldestAt = now;
            }
            this.context[size] = context;
            this.tag[size] = tag;
            this.id[size] = id;
            this.nanos[size] = receiverNanos;
            size++;
        }
        if (!flushAsked && (now - oldestAt >= FLUSH_DELAY_NANOS || size >= CAPACITY / 2)) {
            flushAsked = true;
            return true;
        }
        return false;
    }

    /** Hands every queued report to sink, oldest first, and empties the outbox. */
    synchronized void drain(Sink sink) {
        for (int i = 0; i < size; i++) {
            sink.report(context[i], tag[i], id[i], nanos[i]);
        }
        size = 0;
        flushAsked = false;
    }

    synchronized boolean isEmpty() {
        return size == 0;
    }
}
