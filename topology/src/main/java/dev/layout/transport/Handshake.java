package dev.layout.transport;

import static dev.layout.transport.TcpContext.closeQuietly;
import static dev.layout.transport.TcpContext.writeAll;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The authentication of a new {@link TcpTransport} connection, HMAC-SHA256 challenge-response under
 * the {@link JobSecret} with fresh nonces on both sides:
 *
 * <pre>
 * dialer   -> acceptor  hello     magic, version, dialer, target, nonceD, dialer's grant
 * acceptor -> dialer    challenge magic, acceptor, nonceA, HMAC("acceptor", nonceD, nonceA, acceptor, dialer), acceptor's grant
 * dialer   -> acceptor  response  HMAC("dialer", nonceD, nonceA, dialer, acceptor)
 * acceptor -> dialer    verdict   ACCEPTED, or REJECTED when the acceptor's own dial wins
 * </pre>
 *
 * The acceptor remembers recent dialer nonces and refuses a replayed hello.
 */
final class Handshake {
    static final int MAGIC = 0x4C595431; // "LYT1"
    static final int VERSION = 1;
    static final int HELLO_BYTES = 4 + 4 + 4 + 4 + 32 + 8;
    static final int CHALLENGE_BYTES = 4 + 4 + 32 + 32 + 8;
    static final byte ACCEPTED = 1;
    static final byte REJECTED = 2;
    private static final int MAX_NONCES = 1 << 16;

    /** An authenticated dialer, before the verdict. */
    record Hello(int dialer, long budget) {}

    /** An authenticated, accepted connection dialled to a peer, with the buffer the peer granted. */
    record Dialled(SocketChannel channel, long budget) {}

    /** The peer closed or reset the connection before its challenge: it shed load; dial again. */
    private static final class Shed extends IOException {
        private static final long serialVersionUID = 1L;

        Shed(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private final TcpContext ctx;
    private final Set<String> seenNonces = new LinkedHashSet<>();

    Handshake(TcpContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Dials and authenticates dest, trying again until the deadline while dest refuses connections
     * or drops them before its challenge (not listening yet, or shedding a flood of connections);
     * null if dest refused because its own dial wins.
     */
    Dialled dial(int dest, long deadline) throws IOException {
        long backoff = 1;
        while (true) {
            SocketChannel ch = connect(dest, deadline);
            try {
                return authenticate(dest, ch, deadline);
            } catch (Shed e) {
                if (System.nanoTime() + backoff * 1_000_000 >= deadline) {
                    throw (IOException) e.getCause();
                }
                sleepBackoff(backoff);
                backoff = Math.min(100, backoff * 2);
            }
        }
    }

    private SocketChannel connect(int dest, long deadline) throws IOException {
        Endpoint ep = ctx.endpoint(dest);
        long backoff = 1;
        while (true) {
            SocketChannel attempt = SocketChannel.open();
            try {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new TransportTimeoutException("connect timed out after " + ctx.options.connectTimeout());
                }
                attempt.socket().connect(ep.toSocketAddress(), (int) Math.min(Integer.MAX_VALUE, left));
                return attempt;
            } catch (ConnectException e) {
                closeQuietly(attempt);
                if (System.nanoTime() + backoff * 1_000_000 >= deadline) {
                    throw e;
                }
                sleepBackoff(backoff);
                backoff = Math.min(100, backoff * 2);
            } catch (IOException e) {
                closeQuietly(attempt);
                throw e;
            }
        }
    }

    private Dialled authenticate(int dest, SocketChannel channel, long deadline) throws IOException {
        Endpoint ep = ctx.endpoint(dest);
        int process = ctx.process;
        ScheduledFuture<?> dog = ctx.watchdog.schedule(
                () -> closeQuietly(channel), Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            byte[] nonceD = JobSecret.nonce();
            ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
            hello.putInt(MAGIC)
                    .putInt(VERSION)
                    .putInt(process)
                    .putInt(dest)
                    .put(nonceD)
                    .putLong(ctx.options.peerBufferBytes())
                    .flip();
            ByteBuffer chal = ByteBuffer.allocate(CHALLENGE_BYTES);
            try {
                writeAll(channel, hello);
                read(channel, chal, "challenge from process " + dest + " at " + ep);
            } catch (EOFException | SocketException e) {
                throw new Shed(e);
            }
            chal.flip();
            int magic = chal.getInt();
            int who = chal.getInt();
            byte[] nonceA = new byte[32];
            byte[] macA = new byte[32];
            chal.get(nonceA).get(macA);
            long budget = chal.getLong();
            if (magic != MAGIC || who != dest) {
                throw new IOException("handshake: " + ep + " is not process " + dest + " of this job (magic "
                        + Integer.toHexString(magic) + ", process " + who + ")");
            }
            byte[] expect = ctx.secret.hmac(label("acceptor"), nonceD, nonceA, intBytes(dest), intBytes(process));
            if (!MessageDigest.isEqual(expect, macA)) {
                throw new IOException("handshake: authentication of process " + dest + " at " + ep
                        + " failed (wrong job secret, or not a layout peer)");
            }
            byte[] macD = ctx.secret.hmac(label("dialer"), nonceD, nonceA, intBytes(process), intBytes(dest));
            writeAll(channel, ByteBuffer.wrap(macD));
            ByteBuffer verdict = ByteBuffer.allocate(1);
            read(
                    channel,
                    verdict,
                    "verdict from process " + dest + " at " + ep + " (it refused the handshake: wrong job secret?)");
            byte v = verdict.get(0);
            if (!dog.cancel(false)) {
                throw new TransportTimeoutException("handshake with process " + dest + " timed out");
            }
            if (v == REJECTED) {
                closeQuietly(channel);
                return null;
            }
            if (v != ACCEPTED) {
                throw new IOException("handshake: process " + dest + " at " + ep + " answered verdict " + v);
            }
            if (budget < 0) {
                throw new IOException("handshake: process " + dest + " granted a negative buffer " + budget);
            }
            return new Dialled(channel, budget);
        } catch (IOException e) {
            dog.cancel(false);
            closeQuietly(channel);
            throw e;
        }
    }

    /**
     * Reads and checks the hello of a dialer that reached us from {@code from}, answers its challenge
     * and checks the response; the caller bounds the time and writes the verdict.
     *
     * @throws IOException naming what was wrong (not a layout peer, wrong job secret, replay, ...)
     */
    Hello accept(SocketChannel ch, String from) throws IOException {
        int process = ctx.process;
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
        read(ch, hello, "hello from " + from);
        hello.flip();
        int magic = hello.getInt();
        int version = hello.getInt();
        int dialer = hello.getInt();
        int target = hello.getInt();
        byte[] nonceD = new byte[32];
        hello.get(nonceD);
        long budget = hello.getLong();
        if (magic != MAGIC) {
            throw new IOException("bad magic " + Integer.toHexString(magic) + " (not a layout peer)");
        }
        if (version != VERSION) {
            throw new IOException("protocol version " + version + " (expected: " + VERSION + ")");
        }
        if (target != process || dialer < 0 || dialer >= ctx.size() || dialer == process || budget < 0) {
            throw new IOException("hello claims process " + dialer + " dialling process " + target
                    + " (this is process " + process + " of " + ctx.size() + ")");
        }
        String nonceKey = HexFormat.of().formatHex(nonceD);
        synchronized (seenNonces) {
            if (!seenNonces.add(nonceKey)) {
                throw new IOException("replayed handshake (nonce already used) claiming process " + dialer);
            }
            if (seenNonces.size() > MAX_NONCES) {
                seenNonces.remove(seenNonces.iterator().next());
            }
        }
        byte[] nonceA = JobSecret.nonce();
        byte[] macA = ctx.secret.hmac(label("acceptor"), nonceD, nonceA, intBytes(process), intBytes(dialer));
        ByteBuffer chal = ByteBuffer.allocate(CHALLENGE_BYTES);
        chal.putInt(MAGIC)
                .putInt(process)
                .put(nonceA)
                .put(macA)
                .putLong(ctx.options.peerBufferBytes())
                .flip();
        writeAll(ch, chal);
        ByteBuffer macD = ByteBuffer.allocate(32);
        read(ch, macD, "response from " + from + " claiming process " + dialer);
        byte[] expect = ctx.secret.hmac(label("dialer"), nonceD, nonceA, intBytes(dialer), intBytes(process));
        if (!MessageDigest.isEqual(expect, macD.array())) {
            throw new IOException("authentication failed for peer claiming process " + dialer + " (wrong job secret)");
        }
        return new Hello(dialer, budget);
    }

    private static void read(SocketChannel ch, ByteBuffer b, String what) throws IOException {
        while (b.hasRemaining()) {
            int r;
            try {
                r = ch.read(b);
            } catch (ClosedChannelException e) {
                throw new IOException(
                        "handshake: " + what + " timed out or was closed after " + b.position() + " bytes");
            }
            if (r < 0) {
                throw new EOFException("handshake: end of stream in " + what + " after " + b.position() + " bytes");
            }
        }
    }

    private static void sleepBackoff(long ms) throws InterruptedIOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("connect: interrupted");
        }
    }

    private static byte[] label(String s) {
        return ("layout-transport-v1/" + s).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] intBytes(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }
}
