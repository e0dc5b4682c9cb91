package dev.layout.transport;

import static dev.layout.transport.TcpContext.closeQuietly;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The listening side of a {@link TcpTransport}: accepts connections and runs each one's
 * {@link Handshake} on a worker, under three bounds that keep strangers from locking the job's
 * processes out. At most {@link #MAX_PENDING_HANDSHAKES} handshakes at once, at most
 * {@link #MAX_PENDING_PER_ADDRESS} of them from one source address; more are closed at once (a
 * dialing process retries until its connect timeout). A connection must authenticate within
 * {@link #preAuthTimeout} (a quarter of the connect timeout, at most 5 s), so a flood of silent
 * connections frees its slots long before a dialer gives up.
 */
final class Acceptor implements Runnable {
    /** Most connections in their handshake at once (each holds a worker thread until it authenticates or times out). */
    static final int MAX_PENDING_HANDSHAKES = 64;
    /** Most of them from one address (several processes of a host may dial at once). */
    static final int MAX_PENDING_PER_ADDRESS = 16;

    private static final Duration MAX_PRE_AUTH = Duration.ofSeconds(5);

    private final TcpContext ctx;
    private final ServerSocketChannel server;
    private final Handshake handshake;
    private final ConnectionTable table;
    private final Map<InetAddress, Integer> pending = new HashMap<>();
    private int pendingTotal;

    Acceptor(TcpContext ctx, ServerSocketChannel server, Handshake handshake, ConnectionTable table) {
        this.ctx = ctx;
        this.server = server;
        this.handshake = handshake;
        this.table = table;
    }

    /** How long an accepted connection may take to authenticate. */
    static Duration preAuthTimeout(TcpOptions options) {
        Duration quarter = options.connectTimeout().dividedBy(4);
        return quarter.compareTo(MAX_PRE_AUTH) < 0 ? quarter : MAX_PRE_AUTH;
    }

    @Override
    public void run() {
        while (!ctx.closed.get()) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                if (!ctx.closed.get()) {
                    ctx.reject("accept on " + ctx.endpoint(ctx.process) + " failed: " + e);
                }
                return;
            }
            InetAddress source = source(ch);
            String full = admit(source);
            if (full != null) {
                closeQuietly(ch);
                ctx.reject("refused connection from " + source + ": " + full);
                continue;
            }
            try {
                ctx.workers.execute(() -> {
                    try {
                        authenticate(ch);
                    } finally {
                        release(source);
                    }
                });
            } catch (RejectedExecutionException e) {
                release(source);
                closeQuietly(ch);
                return;
            }
        }
    }

    /** Takes a handshake slot for source; null if taken, else why not. */
    private synchronized String admit(InetAddress source) {
        if (pendingTotal >= MAX_PENDING_HANDSHAKES) {
            return MAX_PENDING_HANDSHAKES + " handshakes already pending";
        }
        int mine = pending.getOrDefault(source, 0);
        if (mine >= MAX_PENDING_PER_ADDRESS) {
            return MAX_PENDING_PER_ADDRESS + " handshakes already pending from that address";
        }
        pending.put(source, mine + 1);
        pendingTotal++;
        return null;
    }

    private synchronized void release(InetAddress source) {
        pendingTotal--;
        pending.computeIfPresent(source, (a, n) -> n == 1 ? null : n - 1);
    }

    private void authenticate(SocketChannel ch) {
        String from;
        try {
            from = String.valueOf(ch.getRemoteAddress());
        } catch (IOException e) {
            from = "?";
        }
        ScheduledFuture<?> dog;
        try {
            dog = ctx.watchdog.schedule(
                    () -> closeQuietly(ch), preAuthTimeout(ctx.options).toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            closeQuietly(ch);
            return;
        }
        try {
            Handshake.Hello hello = handshake.accept(ch, from);
            if (!dog.cancel(false)) {
                throw new IOException("handshake timed out");
            }
            table.adopt(hello, ch);
        } catch (IOException | RuntimeException e) {
            dog.cancel(false);
            if (!ctx.closed.get()) {
                ctx.reject("refused connection from " + from + ": " + e.getMessage());
            }
            closeQuietly(ch);
        }
    }

    private static InetAddress source(SocketChannel ch) {
        try {
            return ((InetSocketAddress) ch.getRemoteAddress()).getAddress();
        } catch (IOException | RuntimeException e) {
            return InetAddress.getLoopbackAddress(); // unknown: counted with the local ones
        }
    }
}
