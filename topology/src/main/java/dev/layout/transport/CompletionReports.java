package dev.layout.transport;

import java.util.function.LongConsumer;

/**
 * The completion reports ({@link Frame#DONE}) that one {@link Connection}'s sampled adaptive sends
 * (rendezvous, and eager ones of {@link TcpTransport#EAGER_REPORT_MIN_BYTES} or more) are waiting
 * for, so that a send is learnt from what it costs end to end. A rendezvous message's report
 * carries the receiver's time from its clear-to-send to the last byte read: one clock, and
 * everything the strategy changes between them (the sender's start, the part of the message the
 * socket takes before the reader has read the header, the stream, the tail left in the socket). An
 * eager message has no clear-to-send: its report carries the time from its header to the last byte,
 * to which the sender adds its delay until that header went out (packing the first chunk, or
 * listing the first blocks to gather), and where it counts the figure is at least the sender's own
 * time (see {@link #endToEnd}). The sender's own time alone is not that: a write ends once the
 * socket buffer holds its tail, while the receiver still drains it. What comes after the last byte
 * (an eager message's unpack into the receive's memory) copies the same contiguous bytes whichever
 * strategy sent them, so it is left out: it would add noise and no signal. The report may come late
 * (it travels with the receiver's next frame).
 *
 * <p>Bounded: at most {@link #MAX_PENDING} reports are awaited at once, in fixed slots made with the
 * connection (a report allocates nothing: a map of boxed ids made an entry per sampled send); a
 * send that finds them all taken does not ask for one. A receiver that ignores the request (an
 * older build) therefore costs at most that many slots, and a report nobody asked for, or a second
 * one, is refused (the caller drops the peer). Thread-safe; the listener runs on the thread that
 * completes the pair, outside the lock.
 */
final class CompletionReports {
    /** Most reports awaited at once per connection (and queued by a receiver, see {@link ReportOutbox}). */
    static final int MAX_PENDING = 64;

    private static final long UNKNOWN = -1;

    // slot i is taken while taken[i]; a linear scan of 64 slots costs less than hashing a boxed id
    private final boolean[] taken = new boolean[MAX_PENDING];
    private final int[] ids = new int[MAX_PENDING];
    private final long[] headerDelay = new long[MAX_PENDING];
    private final long[] senderNanos = new long[MAX_PENDING];
    private final long[] receiverNanos = new long[MAX_PENDING];
    private final LongConsumer[] listeners = new LongConsumer[MAX_PENDING];
    private int size;

    /** Reserves a report for message {@code id}; false (ask for none) when {@link #MAX_PENDING} are awaited. */
    synchronized boolean reserve(int id) {
        if (size >= MAX_PENDING) {
            return false;
        }
        int i = slot(id);
        if (i < 0) {
            i = 0;
            while (taken[i]) {
                i++;
            }
            taken[i] = true;
            ids[i] = id;
            size++;
        }
        headerDelay[i] = UNKNOWN;
        senderNanos[i] = 0;
        receiverNanos[i] = UNKNOWN;
        listeners[i] = null;
        return true;
    }

    /**
     * The frame of {@code id} was written: the receiver's figure is to be added {@code headerDelay}
     * ns (an eager frame's header after the send started; 0 for a rendezvous message, whose figure
     * runs from before the send started), and the sender wrote the last byte {@code senderNanos}
     * after the start (0 where that is not to count);
     * {@code listener} is told the end-to-end nanoseconds once the report is in.
     */
    void sent(int id, long headerDelay, long senderNanos, LongConsumer listener) {
        long nanos;
        synchronized (this) {
            int i = slot(id);
            if (i < 0) {
                return;
            }
            this.headerDelay[i] = Math.max(0, headerDelay);
            this.senderNanos[i] = senderNanos;
            listeners[i] = listener;
            if (receiverNanos[i] == UNKNOWN) {
                return;
            }
            nanos = endToEnd(i);
            free(i);
        }
        listener.accept(nanos);
    }

    /** Message {@code id} will not be sent (its send failed or timed out): no report is awaited. */
    synchronized void cancel(int id) {
        int i = slot(id);
        if (i >= 0) {
            free(i);
        }
    }

    /**
     * The report of {@code id} arrived: the receiver took {@code receiverNanos} to its last byte
     * (from its clear-to-send, or an eager frame's header). False if no report of {@code id} is awaited (never asked, or already in).
     */
    boolean complete(int id, long receiverNanos) {
        LongConsumer listener;
        long nanos;
        synchronized (this) {
            int i = slot(id);
            if (i < 0 || this.receiverNanos[i] != UNKNOWN) {
                return false;
            }
            this.receiverNanos[i] = Math.max(0, receiverNanos);
            listener = listeners[i];
            if (listener == null) {
                return true; // the sending thread has not recorded its part yet: it completes the pair
            }
            nanos = endToEnd(i);
            free(i);
        }
        listener.accept(nanos);
        return true;
    }

    /**
     * To the receiver's last byte: its figure plus the header's delay, and at least the sender's
     * own time (its last byte cannot be read before it was written). The first alone left out the
     * write call whenever an eager message arrived at once (loopback, some 64 KiB): the receiver's
     * clock starts only once the call has delivered it, and writing 100 gathered blocks costs the
     * call more than one packed buffer does (without it the arms looked equal where their round
     * trips were not: the pingpong part of benchmarks/graph-and-pingpong.md).
     */
    private long endToEnd(int i) {
        return Math.max(1, Math.max(senderNanos[i], headerDelay[i] + receiverNanos[i]));
    }

    /** The slot awaiting {@code id}, or -1. */
    private int slot(int id) {
        for (int i = 0; i < MAX_PENDING; i++) {
            if (taken[i] && ids[i] == id) {
                return i;
            }
        }
        return -1;
    }

    private void free(int i) {
        taken[i] = false;
        listeners[i] = null;
        size--;
    }

    /** The connection is gone: no report will come. */
    synchronized void clear() {
        java.util.Arrays.fill(taken, false);
        java.util.Arrays.fill(listeners, null);
        size = 0;
    }

    synchronized int size() {
        return size;
    }
}
