package dev.layout.transport;

import java.util.HashMap;
import java.util.Map;
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
 * <p>Bounded: at most {@link #MAX_PENDING} reports are awaited at once; a send that finds the table
 * full does not ask for one. A receiver that ignores the request (an older build) therefore costs
 * at most that many small entries, and a report nobody asked for, or a second one, is refused (the
 * caller drops the peer). Thread-safe; the listener runs on the thread that completes the pair,
 * outside the lock.
 */
final class CompletionReports {
    /** Most reports awaited at once per connection (and queued by a receiver, see {@link ReportOutbox}). */
    static final int MAX_PENDING = 64;

    private static final long UNKNOWN = -1;

    private static final class Pending {
        long headerDelay = UNKNOWN;
        long senderNanos;
        long receiverNanos = UNKNOWN;
        LongConsumer listener;
    }

    private final Map<Integer, Pending> pending = new HashMap<>();

    /** Reserves a report for message {@code id}; false (ask for none) when {@link #MAX_PENDING} are awaited. */
    synchronized boolean reserve(int id) {
        if (pending.size() >= MAX_PENDING) {
            return false;
        }
        pending.put(id, new Pending());
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
        Pending p;
        synchronized (this) {
            p = pending.get(id);
            if (p == null) {
                return;
            }
            p.headerDelay = Math.max(0, headerDelay);
            p.senderNanos = senderNanos;
            p.listener = listener;
            if (p.receiverNanos == UNKNOWN) {
                return;
            }
            pending.remove(id);
        }
        listener.accept(endToEnd(p));
    }

    /** Message {@code id} will not be sent (its send failed or timed out): no report is awaited. */
    synchronized void cancel(int id) {
        pending.remove(id);
    }

    /**
     * The report of {@code id} arrived: the receiver took {@code receiverNanos} to its last byte
     * (from its clear-to-send, or an eager frame's header). False if no report of {@code id} is awaited (never asked, or already in).
     */
    boolean complete(int id, long receiverNanos) {
        Pending p;
        synchronized (this) {
            p = pending.get(id);
            if (p == null || p.receiverNanos != UNKNOWN) {
                return false;
            }
            p.receiverNanos = Math.max(0, receiverNanos);
            if (p.listener == null) {
                return true; // the sending thread has not recorded its part yet: it completes the pair
            }
            pending.remove(id);
        }
        p.listener.accept(endToEnd(p));
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
    private static long endToEnd(Pending p) {
        return Math.max(1, Math.max(p.senderNanos, p.headerDelay + p.receiverNanos));
    }

    /** The connection is gone: no report will come. */
    synchronized void clear() {
        pending.clear();
    }

    synchronized int size() {
        return pending.size();
    }
}
