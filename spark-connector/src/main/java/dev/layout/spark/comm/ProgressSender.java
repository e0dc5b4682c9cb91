package dev.layout.spark.comm;

import dev.layout.transport.JobSecret;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task's end of a progress channel (see {@link ProgressReceiver}): {@link #report} only stores
 * the count and wakes a daemon thread, which connects, authenticates and sends the latest count at
 * most every {@link #MIN_INTERVAL} (older counts are dropped, never queued). Nothing here can
 * block or fail the computation: while the receiver cannot be reached, drops the connection or
 * goes away, the thread tries again (after 50 ms, doubling up to {@link #MAX_BACKOFF}), so a
 * receiver busy with strangers' connections is reached once it drops them; after {@link #close}
 * a failed attempt ends the thread with a debug log line.
 *
 * <pre>{@code
 * try (ProgressSender progress = ProgressSender.start(address, secret)) {
 *   for (int i = 0; i < n; i++) {
 *     step(i);
 *     progress.report(i + 1);
 *   }
 * }
 * }</pre>
 */
public final class ProgressSender implements AutoCloseable {
    /** At most one message per interval: a console bar needs no more, and the driver stays idle. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(100);

    private static final Logger LOG = LoggerFactory.getLogger(ProgressSender.class);
    /** Longest wait between two attempts to reach the receiver. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(1);

    private static final long NOTHING = -1;

    private final ProgressReceiver.Address to;
    private final JobSecret secret;
    private final AtomicLong latest = new AtomicLong(NOTHING);
    private final Thread thread;
    private volatile boolean idle;
    private volatile boolean closing;
    private volatile boolean stopped;

    private ProgressSender(ProgressReceiver.Address to, byte[] secret) {
        this.to = to;
        this.secret = JobSecret.forJob(secret);
        this.thread = new Thread(this::run, "layout-progress-sender->" + to);
        thread.setDaemon(true);
    }

    /**
     * Starts the sending thread; connecting happens on it, so this returns at once.
     *
     * @param secret the job secret (as {@link JobSecret#forJob})
     */
    public static ProgressSender start(ProgressReceiver.Address to, byte[] secret) {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(secret, "secret");
        ProgressSender s = new ProgressSender(to, secret);
        s.thread.start();
        return s;
    }

    /** Records that {@code done} units are complete; lock-free, never blocks. */
    public void report(long done) {
        latest.set(done);
        if (idle) {
            LockSupport.unpark(thread);
        }
    }

    /** True once the thread has ended: after {@link #close} sent the last count, or after a failure. */
    public boolean isStopped() {
        return stopped;
    }

    private void run() {
        long backoff = 50;
        try {
            while (true) {
                try {
                    session();
                    return;
                } catch (IOException | RuntimeException e) {
                    if (closing) {
                        LOG.debug("progress sender to {}: stopped reporting: {}", to, e.toString());
                        return;
                    }
                    LOG.debug("progress sender to {}: trying again in {} ms: {}", to, backoff, e.toString());
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(backoff)); // close() cuts the wait short
                    backoff = Math.min(MAX_BACKOFF.toMillis(), backoff * 2);
                }
            }
        } finally {
            stopped = true;
        }
    }

    /** One connection: authenticates, then sends counts until {@link #close} and the last count are sent. */
    private void session() throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(to.host(), to.port()), (int) ProgressReceiver.HANDSHAKE.toMillis());
            s.setSoTimeout((int) ProgressReceiver.HANDSHAKE.toMillis());
            s.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(s.getInputStream());
            int magic = in.readInt();
            if (magic != ProgressReceiver.MAGIC) {
                throw new IOException("magic " + Integer.toHexString(magic) + " (expected: "
                        + Integer.toHexString(ProgressReceiver.MAGIC) + ")");
            }
            byte[] nonce = new byte[32];
            in.readFully(nonce);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 64));
            out.write(secret.hmac(ProgressReceiver.CONTEXT, nonce));
            out.flush();
            long sent = NOTHING;
            long lastSend = System.nanoTime() - MIN_INTERVAL.toNanos();
            while (true) {
                boolean last = closing; // read before latest: a count reported before close() is never missed
                long v = latest.get();
                if (v != sent) {
                    long wait = lastSend + MIN_INTERVAL.toNanos() - System.nanoTime();
                    if (wait > 0 && !last) {
                        LockSupport.parkNanos(this, wait); // rate limit; report() does not wake this park
                        continue;
                    }
                    out.writeLong(v);
                    out.flush();
                    sent = v;
                    lastSend = System.nanoTime();
                    continue;
                }
                if (last) {
                    return;
                }
                idle = true;
                if (latest.get() == sent && !closing) {
                    LockSupport.park(this);
                }
                idle = false;
            }
        }
    }

    /**
     * Sends the last reported count (on the thread, without waiting for it) and ends the thread.
     */
    @Override
    public void close() {
        closing = true;
        LockSupport.unpark(thread);
    }

    /** Waits up to {@code timeout} for the thread to end; true if it did (tests). */
    boolean awaitStopped(Duration timeout) throws InterruptedException {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeout.toNanos())));
        return stopped;
    }

    @Override
    public String toString() {
        return "ProgressSender[" + to + "]";
    }
}
