package dev.layout.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Transport} whose processes are threads of one JVM: each endpoint has a mailbox, a send
 * copies the payload into the destination's mailbox ({@link #sendOwned} puts the handed-over array
 * itself there).
 *
 * <pre>{@code
 * List<InProcessTransport> endpoints = InProcessTransport.create(4);
 * // hand endpoints.get(i) to the thread playing process i; close any endpoint to shut the fabric
 * }</pre>
 */
public final class InProcessTransport implements Transport {

    private final Fabric fabric;
    private final int process;
    private final MatchQueue<byte[]> mailbox;
    private final AtomicLong sentMessages = new AtomicLong();
    private final AtomicLong sentBytes = new AtomicLong();

    private InProcessTransport(Fabric fabric, int process) {
        this.fabric = fabric;
        this.process = process;
        this.mailbox = new MatchQueue<>(process, source -> "");
    }

    /**
     * Creates a fabric of {@code size} connected endpoints, endpoint i being process i. Closing any
     * endpoint closes the whole fabric, so that a failing process releases all waiting peers.
     *
     * @throws IllegalArgumentException if size < 1
     */
    public static List<InProcessTransport> create(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("inProcessTransport: size " + size + " (expected: >= 1)");
        }
        Fabric fabric = new Fabric(size);
        List<InProcessTransport> endpoints = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            endpoints.add(new InProcessTransport(fabric, i));
        }
        fabric.endpoints = endpoints.toArray(new InProcessTransport[0]);
        return Collections.unmodifiableList(endpoints);
    }

    @Override
    public int process() {
        return process;
    }

    @Override
    public int size() {
        return fabric.size;
    }

    @Override
    public void send(int dest, long context, int tag, byte[] payload) throws IOException {
        deliver("send", dest, context, tag, payload, true);
    }

    /** Delivers the array itself: the caller has handed it over (see {@link Transport#sendOwned}). */
    @Override
    public void sendOwned(int dest, long context, int tag, byte[] payload) throws IOException {
        deliver("sendOwned", dest, context, tag, payload, false);
    }

    private void deliver(String op, int dest, long context, int tag, byte[] payload, boolean copy) throws IOException {
        checkProcess(op, "dest", dest);
        if (payload == null) {
            throw new IllegalArgumentException(op + ": payload null (expected: a byte array)");
        }
        if (fabric.closed.get()) {
            throw new IOException(op + ": fabric closed (process " + process + " -> process " + dest + ")");
        }
        sentMessages.incrementAndGet();
        sentBytes.addAndGet(payload.length);
        fabric.endpoints[dest].mailbox.put(new MatchQueue.Key(process, context, tag), copy ? payload.clone() : payload);
    }

    @Override
    public byte[] receive(int source, long context, int tag, Duration timeout) throws IOException {
        checkProcess("receive", "source", source);
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("receive: timeout " + timeout + " (expected: >= 0)");
        }
        return mailbox.take(
                new MatchQueue.Key(source, context, tag),
                timeout,
                "receive",
                key -> fabric.closed.get()
                        ? new IOException("receive: fabric closed while process " + process + " waited for process "
                                + key.source() + " (context " + Long.toHexString(key.context()) + ", tag " + key.tag()
                                + ")")
                        : null);
    }

    @Override
    public long sentMessages() {
        return sentMessages.get();
    }

    @Override
    public long sentBytes() {
        return sentBytes.get();
    }

    /** Total messages sent by all endpoints of this fabric. */
    public long fabricMessages() {
        return Arrays.stream(fabric.endpoints)
                .mapToLong(InProcessTransport::sentMessages)
                .sum();
    }

    @Override
    public void close() {
        if (fabric.closed.compareAndSet(false, true)) {
            for (InProcessTransport e : fabric.endpoints) {
                e.mailbox.wakeAll();
            }
        }
    }

    /** Whether the fabric has been closed. */
    public boolean isClosed() {
        return fabric.closed.get();
    }

    @Override
    public String toString() {
        return "inProcess(process " + process + " of " + fabric.size + ")";
    }

    private void checkProcess(String op, String arg, int p) {
        if (p < 0 || p >= fabric.size) {
            throw new IllegalArgumentException(op + ": " + arg + " " + p + " (expected: 0.." + (fabric.size - 1) + ")");
        }
    }

    private static final class Fabric {
        final int size;
        final AtomicBoolean closed = new AtomicBoolean();
        InProcessTransport[] endpoints;

        Fabric(int size) {
            this.size = size;
        }
    }
}
