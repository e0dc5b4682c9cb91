package dev.layout.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Transport} whose processes are threads of one JVM: each endpoint has a mailbox, a send
 * copies the payload into the destination's mailbox ({@link #sendOwned} puts the handed-over array
 * itself there). A receive posted with {@link #postReceive} waits in a second queue of its endpoint;
 * {@link #sendToPosted} takes it and copies the sender's region straight into the receiver's (the
 * single-copy path: one engine pass, on the sender's thread).
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
    private final MatchQueue<Post> posts;
    private final Set<Post> pending = ConcurrentHashMap.newKeySet();
    private final AtomicLong sentMessages = new AtomicLong();
    private final AtomicLong sentBytes = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();

    private InProcessTransport(Fabric fabric, int process) {
        this.fabric = fabric;
        this.process = process;
        this.mailbox = new MatchQueue<>(process, source -> "");
        this.posts = new MatchQueue<>(process, source -> "");
    }

    /**
     * Creates a fabric of {@code size} connected endpoints, endpoint i being process i. Closing any
     * endpoint closes the whole fabric, so that a failing process releases all waiting peers.
     *
     * @throws IllegalArgumentException if size < 1
     */
    public static List<InProcessTransport> create(int size) {
        return create(size, true);
    }

    /**
     * Creates a fabric of {@code size} connected endpoints whose endpoints close one by one: closing
     * one fails its own waits and later messages to it, and leaves the others working (for
     * processes of one JVM that are part of a larger fabric and end at different times).
     *
     * @throws IllegalArgumentException if size < 1
     */
    public static List<InProcessTransport> createClosingEach(int size) {
        return create(size, false);
    }

    private static List<InProcessTransport> create(int size, boolean closeAll) {
        if (size < 1) {
            throw new IllegalArgumentException("inProcessTransport: size " + size + " (expected: >= 1)");
        }
        Fabric fabric = new Fabric(size, closeAll);
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
        if (closed(dest)) {
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
                key -> closed(process)
                        ? new IOException("receive: fabric closed while process " + process + " waited for process "
                                + key.source() + " (context " + Long.toHexString(key.context()) + ", tag " + key.tag()
                                + ")")
                        : null);
    }

    @Override
    public PostedReceive postReceive(int source, long context, int tag, TypedRegion into) throws IOException {
        checkProcess("postReceive", "source", source);
        if (into == null) {
            throw new IllegalArgumentException("postReceive: into null (expected: a TypedRegion)");
        }
        if (closed(process)) {
            throw new IOException("postReceive: fabric closed (process " + process + " <- process " + source + ")");
        }
        MatchQueue.Key key = new MatchQueue.Key(source, context, tag);
        Post post = new Post(into);
        pending.add(post);
        posts.put(key, post);
        if (closed(process)) { // closed between the check and the put: close() may have missed this post
            post.withdraw(closedWhileWaiting(key));
        }
        return timeout -> awaitPost(post, key, timeout);
    }

    private long awaitPost(Post post, MatchQueue.Key key, Duration timeout) throws IOException {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("await: timeout " + timeout + " (expected: >= 0)");
        }
        try {
            return post.await(timeout);
        } catch (TimeoutException e) {
            if (post.state.compareAndSet(Post.WAITING, Post.WITHDRAWN)) {
                pending.remove(post);
                throw new TransportTimeoutException("postReceive: no sender matched the receive process " + process
                        + " posted for process " + key.source() + " (context " + Long.toHexString(key.context())
                        + ", tag " + key.tag() + ") within " + timeout);
            }
            // a sender is copying into the region: its copy is bounded, let it finish
            try {
                return post.await(timeout);
            } catch (TimeoutException again) {
                throw new TransportTimeoutException("postReceive: the copy from process " + key.source()
                        + " into process " + process + " took longer than " + timeout);
            }
        } finally {
            pending.remove(post);
        }
    }

    /** Takes dest's oldest receive posted for this process and key, copies {@code from} into it and completes it. */
    @Override
    public void sendToPosted(int dest, long context, int tag, TypedRegion from, Duration timeout) throws IOException {
        checkProcess("sendToPosted", "dest", dest);
        if (from == null) {
            throw new IllegalArgumentException("sendToPosted: from null (expected: a TypedRegion)");
        }
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("sendToPosted: timeout " + timeout + " (expected: >= 0)");
        }
        if (closed(dest)) {
            throw new IOException("sendToPosted: fabric closed (process " + process + " -> process " + dest + ")");
        }
        InProcessTransport peer = fabric.endpoints[dest];
        MatchQueue.Key key = new MatchQueue.Key(process, context, tag);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Post post;
            try {
                post = peer.posts.take(
                        key,
                        Duration.ofNanos(Math.max(0, deadline - System.nanoTime())),
                        "sendToPosted",
                        k -> closed(dest) || closed(process)
                                ? new IOException("sendToPosted: fabric closed while process " + process
                                        + " waited for process " + dest + " to post a receive")
                                : null);
            } catch (TransportTimeoutException e) {
                throw new TransportTimeoutException("sendToPosted: process " + dest + " posted no receive for process "
                        + process + " (context " + Long.toHexString(context) + ", tag " + tag + ") within " + timeout);
            }
            if (!post.state.compareAndSet(Post.WAITING, Post.COPYING)) {
                continue; // withdrawn after its timeout: the next post of this key is the match
            }
            sentMessages.incrementAndGet();
            sentBytes.addAndGet(from.length());
            if (from.length() != post.into.length()) {
                post.complete(from.length()); // the receiver reports the mismatch; its memory is untouched
                return;
            }
            try {
                TypedRegion.copy(from, post.into);
                post.complete(from.length());
            } catch (RuntimeException | Error e) {
                // The receiver must learn it whatever was thrown, or it waits for a copy that never
                // ends. A fault in mapped memory inside compiled code reaches this thread as an
                // InternalError only at a later safepoint: complete() is inside the try for one that
                // comes as the copy returns; one that comes later is beyond this method.
                IOException fault = new IOException(
                        "copying from process " + process + " into the receive process " + dest + " posted (context "
                                + Long.toHexString(context) + ", tag " + tag + ") failed: " + e,
                        e);
                post.fail(new IOException("postReceive: " + fault.getMessage(), e));
                if (e instanceof InternalError) { // the JVM's report of a fault in the memory, e.g. a truncated mapping
                    throw new IOException("sendToPosted: " + fault.getMessage(), e);
                }
                throw e;
            }
            return;
        }
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

    /**
     * Closes the whole fabric ({@link #create}) or only this endpoint ({@link #createClosingEach}),
     * failing the waits of the endpoints it closes.
     */
    @Override
    public void close() {
        if (fabric.closeAll ? fabric.closed.compareAndSet(false, true) : closed.compareAndSet(false, true)) {
            for (InProcessTransport e : fabric.closeAll ? fabric.endpoints : new InProcessTransport[] {this}) {
                e.mailbox.wakeAll();
                e.posts.wakeAll();
                for (Post post : e.pending) {
                    post.withdraw(new IOException(
                            "postReceive: fabric closed while process " + e.process + " waited for a sender"));
                }
            }
            if (!fabric.closeAll) { // a sender waiting for this endpoint's post waits on the other queues
                for (InProcessTransport e : fabric.endpoints) {
                    e.posts.wakeAll();
                }
            }
        }
    }

    /** Whether this endpoint has been closed (by itself, or with the whole fabric). */
    public boolean isClosed() {
        return closed(process);
    }

    private boolean closed(int p) {
        return fabric.closed.get() || fabric.endpoints[p].closed.get();
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

    private IOException closedWhileWaiting(MatchQueue.Key key) {
        return new IOException("postReceive: fabric closed while process " + process + " waited for process "
                + key.source() + " (context " + Long.toHexString(key.context()) + ", tag " + key.tag() + ")");
    }

    /**
     * A posted receive; state goes WAITING to COPYING (a sender took it) or WITHDRAWN (its receiver
     * timed out), once, so a sender never writes into memory its receiver has given up on.
     */
    private static final class Post {
        static final int WAITING = 0;
        static final int COPYING = 1;
        static final int WITHDRAWN = 2;
        final TypedRegion into;
        final AtomicInteger state = new AtomicInteger(WAITING);
        final CompletableFuture<Long> done = new CompletableFuture<>();

        Post(TypedRegion into) {
            this.into = into;
        }

        void complete(long sent) {
            done.complete(sent);
        }

        void fail(IOException e) {
            done.completeExceptionally(e);
        }

        /** Fails this post unless a sender is already copying into it (then the copy completes it). */
        void withdraw(IOException e) {
            if (state.compareAndSet(WAITING, WITHDRAWN)) {
                fail(e);
            }
        }

        long await(Duration timeout) throws IOException, TimeoutException {
            try {
                return done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("postReceive: interrupted while waiting for a sender");
            }
        }
    }

    private static final class Fabric {
        final int size;
        final boolean closeAll;
        final AtomicBoolean closed = new AtomicBoolean();
        InProcessTransport[] endpoints;

        Fabric(int size, boolean closeAll) {
            this.size = size;
            this.closeAll = closeAll;
        }
    }
}
