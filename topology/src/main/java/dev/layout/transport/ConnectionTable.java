package dev.layout.transport;

import static dev.layout.transport.TcpContext.closeQuietly;
import static dev.layout.transport.TcpContext.writeAll;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The connections of one {@link TcpTransport}, at most one per peer: dialled lazily by whichever
 * side sends first; when both dial at once, the connection dialled by the lower process wins (the
 * acceptor answers the other with a REJECTED verdict, and that dialer waits for the incoming one).
 * Remembers peers that are gone, so operations on them fail at once.
 */
final class ConnectionTable {
    private final TcpContext ctx;
    private final Handshake handshake;
    private final Consumer<Connection> startReading;
    private final Runnable peersChanged;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Connection[] conns;
    private final boolean[] dialing;
    private final boolean[] awaitingIncoming;
    private final AtomicReferenceArray<IOException> peerGone;

    /**
     * @param startReading starts the reader thread of a new connection
     * @param peersChanged told when a peer is gone (receives waiting on it must look again)
     */
    ConnectionTable(TcpContext ctx, Handshake handshake, Consumer<Connection> startReading, Runnable peersChanged) {
        this.ctx = ctx;
        this.handshake = handshake;
        this.startReading = startReading;
        this.peersChanged = peersChanged;
        int n = ctx.size();
        this.conns = new Connection[n];
        this.dialing = new boolean[n];
        this.awaitingIncoming = new boolean[n];
        this.peerGone = new AtomicReferenceArray<>(n);
    }

    /** Why peer is gone (it closed its transport, or its connection failed), or null. */
    IOException gone(int peer) {
        return peerGone.get(peer);
    }

    /** The connection to dest, dialling it if there is none (at most the connect timeout). */
    Connection get(int dest, String op) throws IOException {
        int process = ctx.process;
        long deadline = System.nanoTime() + ctx.options.connectTimeout().toNanos();
        while (true) {
            lock.lock();
            try {
                while (true) {
                    if (ctx.closed.get()) {
                        throw new IOException(
                                op + ": transport closed (process " + process + " -> process " + dest + ")");
                    }
                    IOException gone = peerGone.get(dest);
                    if (gone != null) {
                        throw new IOException(
                                op + ": process " + dest + " (" + ctx.endpoint(dest) + ") is gone: "
                                        + gone.getMessage(),
                                gone);
                    }
                    Connection c = conns[dest];
                    if (c != null) {
                        if (c.failure != null) {
                            throw c.failure(op);
                        }
                        return c;
                    }
                    if (!dialing[dest] && !awaitingIncoming[dest]) {
                        dialing[dest] = true;
                        break;
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new TransportTimeoutException(op + ": no connection to process " + dest + " ("
                                + ctx.endpoint(dest) + ") within " + ctx.options.connectTimeout());
                    }
                    changed.awaitNanos(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(op + ": interrupted while connecting to process " + dest);
            } finally {
                lock.unlock();
            }
            Handshake.Dialled made = null;
            boolean rejected = false;
            IOException error = null;
            try {
                made = handshake.dial(dest, deadline);
                rejected = made == null;
            } catch (IOException e) {
                error = e;
            }
            lock.lock();
            try {
                dialing[dest] = false;
                if (made != null) {
                    if (conns[dest] == null && !ctx.closed.get()) {
                        register(new Connection(ctx, dest, made.channel(), made.budget(), this::lost));
                    } else {
                        closeQuietly(made.channel());
                    }
                } else if (rejected) {
                    awaitingIncoming[dest] = conns[dest] == null;
                }
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            if (error != null) {
                throw new IOException(
                        op + ": cannot connect to process " + dest + " at " + ctx.endpoint(dest) + ": "
                                + error.getMessage(),
                        error);
            }
        }
    }

    /**
     * Answers an authenticated dialer's handshake with the verdict: ACCEPTED and registered, unless
     * the transport is closed, a connection to the dialer exists, or our own dial to it wins.
     */
    void adopt(Handshake.Hello hello, SocketChannel ch) throws IOException {
        int dialer = hello.dialer();
        lock.lock();
        try {
            boolean lose = ctx.closed.get() || conns[dialer] != null || (dialing[dialer] && dialer > ctx.process);
            writeAll(ch, ByteBuffer.wrap(new byte[] {lose ? Handshake.REJECTED : Handshake.ACCEPTED}));
            if (lose) {
                closeQuietly(ch);
                return;
            }
            register(new Connection(ctx, dialer, ch, hello.budget(), this::lost));
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void register(Connection c) {
        // caller holds lock
        conns[c.peer] = c;
        awaitingIncoming[c.peer] = false;
        startReading.accept(c);
    }

    /** Marks peer gone (the first reason stays) and wakes everything waiting on it. */
    void peerClosed(int peer, IOException why) {
        lock.lock();
        try {
            peerGone.compareAndSet(peer, null, why);
        } finally {
            lock.unlock();
        }
        peersChanged.run();
    }

    private void lost(IOException cause, int peer) {
        peerClosed(peer, cause);
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The open connections, waking everyone waiting for one (the transport is closing). */
    List<Connection> closing() {
        List<Connection> all = new ArrayList<>();
        lock.lock();
        try {
            for (Connection c : conns) {
                if (c != null) {
                    all.add(c);
                }
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        return all;
    }
}
