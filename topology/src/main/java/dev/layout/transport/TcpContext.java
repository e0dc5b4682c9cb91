package dev.layout.transport;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the parts of one {@link TcpTransport} share: who this process is, the peers' endpoints, the
 * options and secret, the worker threads and the watchdog that bounds every wait, the closed flag,
 * and the log of refused peers.
 */
final class TcpContext {
    private static final System.Logger LOG = System.getLogger(TcpTransport.class.getName());
    private static final int MAX_REJECTIONS = 64;

    final int process;
    final List<Endpoint> endpoints;
    final JobSecret secret;
    final TcpOptions options;
    final ExecutorService workers;
    final ScheduledThreadPoolExecutor watchdog;
    final AtomicBoolean closed = new AtomicBoolean();
    private final ArrayDeque<String> rejections = new ArrayDeque<>();
    private final LogThrottle rejectionLog = new LogThrottle(LogThrottle.DEFAULT_INTERVAL);

    TcpContext(int process, List<Endpoint> endpoints, JobSecret secret, TcpOptions options) {
        this.process = process;
        this.endpoints = List.copyOf(endpoints);
        this.secret = secret;
        this.options = options;
        AtomicInteger threads = new AtomicInteger();
        this.workers = Executors.newCachedThreadPool(
                r -> daemon(r, "layout-tcp-p" + process + "-worker-" + threads.incrementAndGet()));
        // Every write arms a stall guard that is cancelled when the write completes: cancelled guards
        // must leave the queue at once, or they pile up for a whole sendTimeout (found by TcpSoakIT:
        // ~1.2 KB of heap per halo iteration, 29 MB of cancelled tasks after 40,000 iterations).
        this.watchdog = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "layout-tcp-p" + process + "-watchdog"));
        watchdog.setRemoveOnCancelPolicy(true);
    }

    Endpoint endpoint(int p) {
        return endpoints.get(p);
    }

    int size() {
        return endpoints.size();
    }

    /** Keeps the reason a peer was refused or dropped, and logs it (at most a line a second, with a count of the rest). */
    void reject(String reason) {
        long suppressed = rejectionLog.admit();
        if (suppressed >= 0) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "layout transport, process {0}: {1}{2}",
                    process,
                    reason,
                    suppressed == 0 ? "" : " (" + suppressed + " more refusals not logged)");
        }
        synchronized (rejections) {
            if (rejections.size() == MAX_REJECTIONS) {
                rejections.removeFirst();
            }
            rejections.addLast(reason);
        }
    }

    List<String> rejections() {
        synchronized (rejections) {
            return List.copyOf(rejections);
        }
    }

    /** A failure of op with peer as an IOException naming the peer's endpoint (a timeout stays a timeout). */
    IOException asIo(String op, int peer, Throwable t) {
        if (t instanceof TransportTimeoutException tt) {
            return new TransportTimeoutException(op + ": " + tt.getMessage());
        }
        return new IOException(
                op + ": " + (t == null ? "failed" : t.getMessage()) + " (process " + peer + " at " + endpoint(peer)
                        + ")",
                t);
    }

    static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    static void closeQuietly(Closeable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (IOException ignored) {
            // closing: nothing left to report
        }
    }

    static void writeAll(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
