package dev.layout.spark.comm;

import dev.layout.spark.shim.SparkShim;
import dev.layout.transport.JobSecret;
import dev.layout.transport.LogThrottle;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.Serializable;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.spark.SparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's end of a barrier stage's progress channel: listens on the driver host, accepts
 * connections from {@link ProgressSender}s that prove they hold the job secret, and hands every
 * reported count to a consumer. A barrier loop runs inside one Spark stage, so Spark itself tells
 * the driver nothing until the stage ends; this channel is how rank 0 says "iteration i done".
 *
 * <pre>{@code
 * try (ProgressReceiver r = ProgressReceiver.open("127.0.0.1", "127.0.0.1", secret, done -> bar.update(done))) {
 *   ProgressReceiver.Address to = r.address();   // ship to the tasks; rank 0 runs ProgressSender.start(to, secret)
 *   ... run the barrier stage ...
 * }
 * }</pre>
 *
 * <p>Handshake: the receiver sends a magic number and a fresh 32-byte nonce, the sender answers
 * with HMAC-SHA256 under the {@link JobSecret} of "layout-progress" + nonce; a wrong or late
 * answer ({@link #HANDSHAKE}) closes the connection and counts as {@link #refused()}, logged at most
 * once a second (strangers cannot fill the log). After it, the sender writes one 8-byte count per
 * report. Any number of senders may connect over the receiver's life (a retried stage connects
 * again); the latest value received wins. At most {@link #MAX_CONNECTIONS} are open at once. Only
 * counts travel, so the receiver does not prove itself to the sender.
 */
public final class ProgressReceiver implements AutoCloseable {
    static final int MAGIC = 0x4C505247; // "LPRG"
    static final byte[] CONTEXT = "layout-progress".getBytes(StandardCharsets.US_ASCII);
    /** How long a connection may take to prove the secret: short, so strangers free their slots soon (a sender retries). */
    static final Duration HANDSHAKE = Duration.ofSeconds(2);
    /** Open connections at most: one rank 0 reports at a time, so more can only be strangers. */
    static final int MAX_CONNECTIONS = 8;

    private static final Logger LOG = LoggerFactory.getLogger(ProgressReceiver.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Where senders connect: host and port of the driver's listening socket. */
    public record Address(String host, int port) implements Serializable {
        public Address {
            Objects.requireNonNull(host, "host");
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("progressReceiver: port " + port + " (expected: 1..65535)");
            }
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    private final ServerSocket server;
    private final JobSecret secret;
    private final LogThrottle refusals = new LogThrottle(LogThrottle.DEFAULT_INTERVAL);
    private final LongConsumer onReport;
    private final Address address;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private long refused; // guarded by this: tests wait for it
    private final AtomicLong received = new AtomicLong();
    private final Thread acceptor;
    private volatile boolean closed;

    private ProgressReceiver(ServerSocket server, String advertisedHost, byte[] secret, LongConsumer onReport) {
        this.server = server;
        this.secret = JobSecret.forJob(secret);
        this.onReport = onReport;
        this.address = new Address(advertisedHost, server.getLocalPort());
        this.acceptor = new Thread(this::acceptLoop, "layout-progress-accept-" + address.port());
        acceptor.setDaemon(true);
    }

    /**
     * Listens on {@code bindHost} (port chosen by the system) and advertises {@code advertisedHost}
     * to senders (Spark's {@code spark.driver.bindAddress} and {@code spark.driver.host}).
     *
     * @param onReport called with each reported count, from the receiver's connection threads
     * @throws IOException if the socket cannot be bound
     */
    public static ProgressReceiver open(String bindHost, String advertisedHost, byte[] secret, LongConsumer onReport)
            throws IOException {
        Objects.requireNonNull(bindHost, "bindHost");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(onReport, "onReport");
        ServerSocket s = new ServerSocket();
        try {
            s.bind(new InetSocketAddress(InetAddress.getByName(bindHost), 0), 16);
        } catch (IOException e) {
            s.close();
            throw new IOException("progressReceiver: cannot listen on " + bindHost + ": " + e.getMessage(), e);
        }
        ProgressReceiver r = new ProgressReceiver(s, advertisedHost, secret, onReport);
        r.acceptor.start();
        return r;
    }

    /**
     * A receiver on the driver of {@code sc} ({@code spark.driver.bindAddress}, advertised as {@code
     * spark.driver.host}), or null, with a warning in the log, if it cannot listen: progress is
     * optional, the computation is not.
     */
    public static ProgressReceiver forDriver(SparkContext sc, byte[] secret, LongConsumer onReport) {
        String host = SparkShim.driverHost(sc);
        try {
            return open(SparkShim.driverBindAddress(sc), host, secret, onReport);
        } catch (IOException | RuntimeException e) {
            LOG.warn("no progress reports from the running stage ({})", e.getMessage());
            return null;
        }
    }

    public Address address() {
        return address;
    }

    /** Connections closed for a wrong proof or no proof in time. */
    public synchronized long refused() {
        return refused;
    }

    /** Waits up to {@code timeout} until {@code n} connections have been refused; true if they were. */
    synchronized boolean awaitRefused(long n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (refused < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** Counts a refusal and logs it, at most a line a second. */
    private void refuse(Object peer, String why) {
        synchronized (this) {
            refused++;
            notifyAll();
        }
        long skipped = refusals.admit();
        if (skipped >= 0) {
            LOG.warn(
                    "progress receiver {}: refused {} ({}){}",
                    address,
                    peer,
                    why,
                    skipped == 0 ? "" : " and " + skipped + " more not logged");
        }
    }

    /** Counts received from authenticated senders. */
    public long received() {
        return received.get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn(
                            "progress receiver {}: accept failed, no more progress reports: {}",
                            address,
                            e.getMessage());
                }
                return;
            }
            if (connections.size() >= MAX_CONNECTIONS) {
                refuse(s.getRemoteSocketAddress(), MAX_CONNECTIONS + " connections open already");
                closeQuietly(s);
                continue;
            }
            connections.add(s);
            if (closed) {
                closeQuietly(s);
                return;
            }
            Thread t = new Thread(() -> serve(s), "layout-progress-" + s.getRemoteSocketAddress());
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setSoTimeout((int) HANDSHAKE.toMillis());
            s.setTcpNoDelay(true);
            byte[] nonce = new byte[32];
            RANDOM.nextBytes(nonce);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeInt(MAGIC);
            out.write(nonce);
            out.flush();
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 4096));
            byte[] proof = new byte[32];
            in.readFully(proof);
            if (!MessageDigest.isEqual(proof, secret.hmac(CONTEXT, nonce))) {
                refuse(s.getRemoteSocketAddress(), "wrong proof of the job secret");
                return;
            }
            s.setSoTimeout(0); // reports come as the computation goes; close() ends the wait
            while (!closed) {
                long done = in.readLong();
                if (done < 0) {
                    LOG.warn(
                            "progress receiver {}: count {} from {} (expected: >= 0), connection closed",
                            address,
                            done,
                            s.getRemoteSocketAddress());
                    return;
                }
                received.incrementAndGet();
                onReport.accept(done);
            }
        } catch (java.net.SocketTimeoutException e) {
            refuse(s.getRemoteSocketAddress(), "no proof within " + HANDSHAKE);
        } catch (EOFException e) {
            // the sender closed: its task ended
        } catch (IOException e) {
            if (!closed) {
                LOG.debug(
                        "progress receiver {}: connection from {} ended: {}",
                        address,
                        s.getRemoteSocketAddress(),
                        e.getMessage());
            }
        } finally {
            connections.remove(s);
        }
    }

    /** Stops listening and closes every connection; later reports are not delivered. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(server);
        connections.forEach(ProgressReceiver::closeQuietly);
        try {
            acceptor.join(HANDSHAKE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing to stop: nothing to recover
        }
    }

    @Override
    public String toString() {
        return "ProgressReceiver[" + address + "]";
    }
}
