package dev.layout.transport;

import static dev.layout.transport.Frame.DATA;
import static dev.layout.transport.Frame.EAGER;
import static dev.layout.transport.Frame.RTS;

import dev.layout.dataloop.Segment;
import dev.layout.dataloop.ThreadSegments;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.transport.Arrival.Eager;
import dev.layout.transport.MatchQueue.Key;
import dev.layout.transport.Rendezvous.Outgoing;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Transport} over TCP between processes (or threads, over loopback), on blocking java.nio
 * channels: one connection per communicating pair, dialled lazily by whichever side sends first
 * (when both dial at once, the connection dialled by the lower process wins), authenticated by a
 * {@link JobSecret} (HMAC-SHA256 challenge-response, fresh nonces on both sides).
 *
 * <pre>{@code
 * // every process: bind first (port 0 = ephemeral), publish the endpoint, then open
 * TcpTransport.Listener l = TcpTransport.listen(new Endpoint("10.0.0.7", 0));
 * List<Endpoint> all = exchange(l.endpoint());              // e.g. Spark's barrier allGather
 * TcpTransport t = l.open(rank, all, secret, TcpOptions.defaults());
 * Communicator world = Communicator.world(t);
 * }</pre>
 *
 * <p><b>Protocols.</b> Each frame has a 40-byte header (type, source, context, tag, sequence,
 * length, message id). Messages up to {@link TcpOptions#eagerThresholdBytes()} go eagerly when the
 * sender holds enough credit: the receiver grants each peer {@link TcpOptions#peerBufferBytes()}
 * of buffer for unexpected messages and returns credit as they are consumed. Larger messages (or
 * any message when credit is short) use rendezvous: a request-to-send is queued in order with the
 * eager messages of its key, the matching receive answers clear-to-send, and the data is read
 * straight into the posted destination (a typed receive scatters it through the datatype engine
 * chunk by chunk, no full-message staging). {@link #send} never blocks on the receiver (rendezvous
 * payloads are copied and written by a worker); {@link #sendTyped} does not copy the user memory,
 * so a large typed send waits for the matching receive, as MPI's standard mode may.
 *
 * <p><b>Typed sends</b> pack through the engine or hand the blocks to a gathering write, chosen per
 * message by an {@link AdaptiveSendPolicy} that starts from the {@link SendCostModel} and learns
 * from the sends it samples (Furmento and Mercier 2005). A sampled adaptive send of {@link
 * #EAGER_REPORT_MIN_BYTES} or more, eager or rendezvous, asks its receiver for a completion report
 * ({@link CompletionReports}), so that it is learnt from what it cost end to end, until the receiver
 * has read its last byte; a smaller one, for which a report would be a visible share of the round
 * trip, from the sender's own time.
 *
 * <p><b>Failures.</b> Every wait is bounded (connect, send and receive timeouts); errors are
 * {@link IOException}s naming the operation, the peer process and endpoint and the stream offset.
 * A peer without the secret never gets a frame accepted; a peer that sends a malformed frame (bad
 * type, wrong source, out-of-sequence, a length beyond the limits, more eager data than its credit)
 * is dropped before anything is allocated, and the reason kept in {@link #rejections()}. A lost
 * connection fails the pending operations on it at once; messages that arrived complete before
 * the loss can still be received.
 *
 * <p><b>Parts.</b> This class is the facade: the {@link Acceptor} listens and bounds unauthenticated
 * connections, the {@link Handshake} authenticates them, the {@link ConnectionTable} dials and keeps
 * one {@link Connection} per peer (writing {@link Frame}s, its {@link CreditFlow}, its
 * {@link Rendezvous} messages in flight), a {@link FrameReader} per connection checks and dispatches
 * arriving frames, a {@link MatchQueue} (shared with {@link InProcessTransport}) matches them
 * to receives, and the {@link TcpReceiver} completes a matched receive (eager or rendezvous).
 */
public final class TcpTransport implements Transport {
    /** Mean block size from which a typed receive scatters with a scattering read instead of unpacking chunks. */
    static final long SCATTER_MIN_BLOCK = 4096;

    /**
     * Eager messages from this size on ask for a completion report when sampled; smaller ones are
     * learnt from the sender's own time. In the benchmark's ping-pong a report cost 1.5-3% of a 1-4
     * KiB round trip (one sampled send in four), and there the sender's time ranked the arms as the
     * round trips did; at 64 KiB in 100 blocks it did not (a run chose gathering, 8% slower by round
     * trip, as the sender's time had in earlier rounds), and a report is under 1% of such a round trip.
     */
    static final long EAGER_REPORT_MIN_BYTES = 16 << 10;

    private final TcpContext ctx;
    private final int process;
    private final List<Endpoint> endpoints;
    private final TcpOptions options;
    private final AdaptiveSendPolicy sendPolicy;
    private final AtomicBoolean closed;
    private final ServerSocketChannel server;
    private final Thread acceptor;
    private final ConnectionTable connections;
    private final MatchQueue<Arrival> mailbox;
    private final TcpReceiver receiver;
    private final AtomicLong sentMessages = new AtomicLong();
    private final AtomicLong sentBytes = new AtomicLong();
    private final Map<SendStrategy, AtomicLong> strategyCounts = new ConcurrentHashMap<>();

    private TcpTransport(
            int process, List<Endpoint> endpoints, JobSecret secret, TcpOptions options, ServerSocketChannel server) {
        this.ctx = new TcpContext(process, endpoints, secret, options);
        this.process = process;
        this.endpoints = ctx.endpoints;
        this.options = options;
        this.sendPolicy = new AdaptiveSendPolicy(options.costModel());
        this.closed = ctx.closed;
        this.server = server;
        this.mailbox = new MatchQueue<>(process, p -> " (" + ctx.endpoint(p) + ")");
        Handshake handshake = new Handshake(ctx);
        this.connections = new ConnectionTable(ctx, handshake, this::startReading, mailbox::wakeAll);
        this.receiver = new TcpReceiver(ctx, mailbox, connections);
        this.acceptor = TcpContext.daemon(
                new Acceptor(ctx, server, handshake, connections), "layout-tcp-p" + process + "-accept");
        acceptor.start();
    }

    private void startReading(Connection c) {
        c.reader = TcpContext.daemon(
                new FrameReader(ctx, c, mailbox, connections), "layout-tcp-p" + process + "-from-" + c.peer);
        c.reader.start();
    }

    // ---------------------------------------------------------------- creation

    /** A bound listening socket whose endpoint can be published before the transport is opened. */
    public static final class Listener implements AutoCloseable {
        private final ServerSocketChannel server;
        private final Endpoint endpoint;
        private boolean opened;

        private Listener(ServerSocketChannel server, Endpoint endpoint) {
            this.server = server;
            this.endpoint = endpoint;
        }

        /** The bound endpoint (the actual port when bound to port 0). */
        public Endpoint endpoint() {
            return endpoint;
        }

        /**
         * Opens the transport of {@code process} over this listener.
         *
         * @throws IllegalArgumentException if process is not an index of endpoints, endpoints has
         *     nulls, or {@code endpoints.get(process)} is not this listener's port
         * @throws IllegalStateException if already opened
         */
        public synchronized TcpTransport open(
                int process, List<Endpoint> endpoints, JobSecret secret, TcpOptions options) {
            if (opened) {
                throw new IllegalStateException("open: listener " + endpoint + " already opened");
            }
            if (endpoints == null || endpoints.isEmpty() || endpoints.stream().anyMatch(java.util.Objects::isNull)) {
                throw new IllegalArgumentException(
                        "open: endpoints " + endpoints + " (expected: one non-null endpoint per process)");
            }
            if (process < 0 || process >= endpoints.size()) {
                throw new IllegalArgumentException(
                        "open: process " + process + " (expected: 0.." + (endpoints.size() - 1) + ")");
            }
            if (endpoints.get(process).port() != endpoint.port()) {
                throw new IllegalArgumentException("open: endpoints[" + process + "] " + endpoints.get(process)
                        + " (expected: this listener's port " + endpoint.port() + ")");
            }
            if (secret == null || options == null) {
                throw new IllegalArgumentException("open: secret or options null (expected: both)");
            }
            opened = true;
            return new TcpTransport(process, endpoints, secret, options, server);
        }

        @Override
        public synchronized void close() {
            if (!opened) {
                TcpContext.closeQuietly(server);
            }
        }
    }

    /**
     * Binds {@code local} (only that interface; port 0 picks a free port).
     *
     * @throws IOException naming the endpoint if it cannot be bound
     */
    public static Listener listen(Endpoint local) throws IOException {
        ServerSocketChannel s = ServerSocketChannel.open();
        try {
            s.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            s.bind(local.toSocketAddress(), 128);
            int port = ((InetSocketAddress) s.getLocalAddress()).getPort();
            return new Listener(s, new Endpoint(local.host(), port));
        } catch (IOException e) {
            TcpContext.closeQuietly(s);
            throw new IOException("listen: cannot bind " + local + ": " + e.getMessage(), e);
        }
    }

    /** Binds {@code endpoints.get(process)} and opens the transport (fixed ports). */
    public static TcpTransport open(int process, List<Endpoint> endpoints, JobSecret secret, TcpOptions options)
            throws IOException {
        if (endpoints == null || process < 0 || process >= endpoints.size()) {
            throw new IllegalArgumentException("open: process " + process + " (expected: an index of endpoints)");
        }
        Listener l = listen(endpoints.get(process));
        try {
            return l.open(process, endpoints, secret, options);
        } catch (RuntimeException e) {
            l.close();
            throw e;
        }
    }

    /** {@code size} transports on 127.0.0.1 ephemeral ports in this JVM (tests, embedded runs). */
    public static List<TcpTransport> loopbackFabric(int size, JobSecret secret, TcpOptions options) throws IOException {
        if (size < 1) {
            throw new IllegalArgumentException("loopbackFabric: size " + size + " (expected: >= 1)");
        }
        List<Listener> ls = new ArrayList<>();
        try {
            for (int i = 0; i < size; i++) {
                ls.add(listen(new Endpoint("127.0.0.1", 0)));
            }
        } catch (IOException e) {
            ls.forEach(Listener::close);
            throw e;
        }
        List<Endpoint> eps = ls.stream().map(Listener::endpoint).toList();
        List<TcpTransport> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            out.add(ls.get(i).open(i, eps, secret, options));
        }
        return Collections.unmodifiableList(out);
    }

    // ---------------------------------------------------------------- Transport

    @Override
    public int process() {
        return process;
    }

    @Override
    public int size() {
        return endpoints.size();
    }

    /**
     * The host this process advertised to its peers (its endpoint's): processes of one machine that
     * advertise one address are one host, and workers placed on distinct addresses (127.0.0.2,
     * 127.0.0.3, ...) are told apart as separate hosts, as their peers see them.
     */
    @Override
    public String host() {
        return endpoints.get(process).host();
    }

    /** The endpoints of all processes, index = process. */
    public List<Endpoint> endpoints() {
        return endpoints;
    }

    public TcpOptions options() {
        return options;
    }

    @Override
    public void send(int dest, long context, int tag, byte[] payload) throws IOException {
        checkProcess("send", "dest", dest);
        if (payload == null) {
            throw new IllegalArgumentException("send: payload null (expected: a byte array)");
        }
        checkLength("send", payload.length);
        ensureOpen("send", dest);
        sentMessages.incrementAndGet();
        sentBytes.addAndGet(payload.length);
        if (dest == process) {
            mailbox.put(new Key(process, context, tag), new Eager(null, payload.clone()));
            return;
        }
        Connection c = connection(dest, "send");
        int n = payload.length;
        if (n <= options.eagerThresholdBytes() && c.tryTakeCredit(n)) {
            c.writeFrame("send", EAGER, context, tag, 0, ByteBuffer.wrap(payload));
            return;
        }
        byte[] copy = payload.clone();
        int id = c.nextMsgId.incrementAndGet();
        Outgoing o = new Outgoing(() -> ctx.workers.execute(() -> {
            try {
                c.writeFrame("send", DATA, context, tag, id, ByteBuffer.wrap(copy));
            } catch (IOException e) {
                c.fail(e);
            } finally {
                c.asyncSendDone();
            }
        }));
        c.asyncSendStarted();
        c.outgoing.put(id, o);
        try {
            c.writeFrame("send", RTS, context, tag, id, n, null);
        } catch (IOException e) {
            c.asyncSendDone();
            throw e;
        }
    }

    @Override
    public byte[] receive(int source, long context, int tag, Duration timeout) throws IOException {
        checkProcess("receive", "source", source);
        checkTimeout("receive", timeout);
        return receiver.receive(source, context, tag, timeout);
    }

    /** As {@link #sendTyped(int, long, int, Datatype, long, Memory, long, SendStrategy)} with {@link SendStrategy#ADAPTIVE}. */
    @Override
    public void sendTyped(int dest, long context, int tag, Datatype type, long count, Memory memory, long origin)
            throws IOException {
        sendTyped(dest, context, tag, type, count, memory, origin, SendStrategy.ADAPTIVE);
    }

    /**
     * Sends {@code count} elements of {@code type} at byte {@code origin} of {@code memory} with the
     * given strategy ({@link SendStrategy#ADAPTIVE} asks the {@link AdaptiveSendPolicy}); returns the strategy used.
     * Gathering needs a memory with a {@link Memory#asByteBuffer() buffer view}; without one the
     * message is packed. A message above the eager threshold waits (at most the send timeout) for the
     * matching receive, then moves without staging.
     *
     * @throws IOException naming the peer if the connection fails or no receive matches in time
     * @throws IndexOutOfBoundsException if the type's footprint does not lie in the memory
     */
    public SendStrategy sendTyped(
            int dest,
            long context,
            int tag,
            Datatype type,
            long count,
            Memory memory,
            long origin,
            SendStrategy strategy)
            throws IOException {
        checkProcess("sendTyped", "dest", dest);
        if (strategy == null) {
            throw new IllegalArgumentException("sendTyped: strategy null (expected: PACK, GATHER or ADAPTIVE)");
        }
        Segment seg = ThreadSegments.take(type, count, memory, origin);
        try {
            return sendTyped(dest, context, tag, seg, memory, origin, strategy);
        } finally {
            ThreadSegments.give(seg); // written in this thread: nothing uses it once the send returns
        }
    }

    private SendStrategy sendTyped(
            int dest, long context, int tag, Segment seg, Memory memory, long origin, SendStrategy strategy)
            throws IOException {
        long n = seg.byteSize();
        checkLength("sendTyped", n);
        ensureOpen("sendTyped", dest);
        if (dest == process) {
            byte[] packed = new byte[(int) n];
            seg.pack(Memory.ofArray(packed), 0, n);
            sentMessages.incrementAndGet();
            sentBytes.addAndGet(n);
            mailbox.put(new Key(process, context, tag), new Eager(null, packed));
            return count(SendStrategy.PACK);
        }
        SendStrategy chosen = strategy;
        SendCell cell = null; // the policy's cell of an adaptive send: one look-up per send
        if (strategy == SendStrategy.ADAPTIVE) {
            // heap memory has an array for base; direct buffers and raw addresses pack alike
            cell = sendPolicy.cell(dest, BlockEstimates.estimate(seg), n, memory.base() != null);
            chosen = SendCell.strategy(cell.choose());
        }
        GatherWrite g = chosen == SendStrategy.GATHER ? GatherWrite.over(memory) : null;
        if (chosen == SendStrategy.GATHER && g == null) {
            chosen = SendStrategy.PACK; // no view (a raw address, or over 2 GiB): packed, and not learnt
            cell = null;
        }
        // the policy learns from the sends it chose and samples (every exploration, some exploitations)
        boolean learn = cell != null && cell.sample(SendCell.arm(chosen));
        Connection c = connection(dest, "sendTyped");
        sentMessages.incrementAndGet();
        sentBytes.addAndGet(n);
        if (n <= options.eagerThresholdBytes() && c.tryTakeCredit(n)) {
            // a sampled eager send of EAGER_REPORT_MIN_BYTES or more is learnt from end to end: until
            // the receiver has read its last byte; a smaller one from the sender's own time
            boolean endToEnd = learn && n >= EAGER_REPORT_MIN_BYTES;
            int id = endToEnd ? c.nextMsgId.incrementAndGet() : 0;
            boolean report = endToEnd && c.reports.reserve(id);
            long t0 = System.nanoTime();
            long firstWrite;
            try {
                firstWrite = c.writeTyped(
                        "sendTyped", EAGER, report ? Frame.REPORT : 0, context, tag, id, seg, origin, chosen, g);
            } catch (IOException | RuntimeException e) {
                c.reports.cancel(id);
                throw e;
            }
            if (learn) { // a sampled adaptive send (report implies learn)
                cell.learn(c.reports, id, report, learn, chosen, t0, firstWrite - t0);
            }
            return count(chosen);
        }
        int id = c.nextMsgId.incrementAndGet();
        Outgoing o = new Outgoing(null);
        c.outgoing.put(id, o);
        // a rendezvous send is learnt from end to end: until the receiver reports it consumed the data
        boolean report = learn && c.reports.reserve(id);
        try {
            c.writeFrame("sendTyped", RTS, report ? Frame.REPORT : 0, context, tag, id, n, null);
            awaitClear(o, dest, context, tag);
        } catch (IOException | RuntimeException e) {
            c.reports.cancel(id);
            throw e;
        }
        long t0 = System.nanoTime();
        c.writeTyped("sendTyped", DATA, (byte) 0, context, tag, id, seg, origin, chosen, g);
        if (learn) { // a sampled adaptive send (report implies learn)
            // no header delay: the receiver's figure runs from its clear-to-send, before t0
            cell.learn(c.reports, id, report, learn, chosen, t0, 0);
        }
        return count(chosen);
    }

    /** Waits at most the send timeout for the clear-to-send of a rendezvous typed send. */
    private void awaitClear(Outgoing o, int dest, long context, int tag) throws IOException {
        Duration t = options.sendTimeout();
        try {
            o.clear.get(t.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            if (o.clear.completeExceptionally(e)) {
                throw new TransportTimeoutException("sendTyped: process " + dest + " (" + endpoints.get(dest)
                        + ") posted no matching receive (context " + Long.toHexString(context) + ", tag " + tag
                        + ") within " + t);
            }
        } catch (ExecutionException e) {
            throw asIo("sendTyped", dest, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("sendTyped: interrupted while waiting for process " + dest);
        }
    }

    /**
     * Receives into {@code count} elements of {@code type} at {@code origin} of {@code memory}: an
     * eager message is unpacked from its buffer; a rendezvous message is scattered from the socket
     * into the destination (scattering read over the flattened blocks when they are large, else
     * chunk-by-chunk unpacking through the engine). The message's length is checked first (see
     * {@link Transport#receiveTyped}); if the connection then fails during a rendezvous transfer, a
     * prefix of the destination's blocks may already hold new data; an eager message is only unpacked
     * once complete.
     */
    @Override
    public long receiveTyped(
            int source, long context, int tag, Datatype type, long count, Memory memory, long origin, Duration timeout)
            throws IOException {
        checkProcess("receiveTyped", "source", source);
        checkTimeout("receiveTyped", timeout);
        Segment seg = ThreadSegments.take(type, count, memory, origin);
        memory.checkWritable("receiveTyped");
        long n = receiver.receiveTyped(source, context, tag, seg, type, count, memory, origin, timeout);
        // given back only once complete: the reader of a rendezvous receive that failed may still fill it
        ThreadSegments.give(seg);
        return n;
    }

    @Override
    public long sentMessages() {
        return sentMessages.get();
    }

    @Override
    public long sentBytes() {
        return sentBytes.get();
    }

    /** The pack-or-gather policy of adaptive typed sends (for the benchmark). */
    public AdaptiveSendPolicy sendPolicy() {
        return sendPolicy;
    }

    /** How many typed sends used each strategy (for tests and the benchmark). */
    public long strategyCount(SendStrategy s) {
        AtomicLong a = strategyCounts.get(s);
        return a == null ? 0 : a.get();
    }

    /** The recent reasons peers were refused or dropped (handshake failures, protocol violations), oldest first. */
    public List<String> rejections() {
        return ctx.rejections();
    }

    /**
     * Closes the listener and every connection in order (a goodbye frame, then waiting at most the
     * close timeout for the peer to finish); pending and later operations fail.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        TcpContext.closeQuietly(server);
        acceptor.interrupt();
        List<Connection> all = connections.closing();
        long deadline = System.nanoTime() + options.closeTimeout().toNanos();
        for (Connection c : all) {
            c.awaitAsyncSends(deadline); // buffered rendezvous sends still waiting for their receiver
        }
        for (Connection c : all) {
            c.sayBye();
        }
        for (Connection c : all) {
            try {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    c.reader.join(Math.max(1, left / 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Connection c : all) {
            c.fail(new IOException("transport of process " + process + " closed"));
        }
        mailbox.wakeAll();
        ctx.workers.shutdownNow();
        ctx.watchdog.shutdownNow();
    }

    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public String toString() {
        return "tcp(process " + process + " of " + endpoints.size() + " at " + endpoints.get(process) + ")";
    }

    // ---------------------------------------------------------------- helpers

    private SendStrategy count(SendStrategy s) {
        strategyCounts.computeIfAbsent(s, k -> new AtomicLong()).incrementAndGet();
        return s;
    }

    /** See {@link BlockEstimates#of}. */
    static long estimateBlocks(Segment s) {
        return BlockEstimates.of(s);
    }

    private IOException asIo(String op, int peer, Throwable t) {
        return ctx.asIo(op, peer, t);
    }

    private void checkProcess(String op, String arg, int p) {
        if (p < 0 || p >= endpoints.size()) {
            throw new IllegalArgumentException(
                    op + ": " + arg + " " + p + " (expected: 0.." + (endpoints.size() - 1) + ")");
        }
    }

    private void checkLength(String op, long n) {
        if (n > options.maxMessageBytes()) {
            throw new IllegalArgumentException(op + ": message of " + n + " bytes (expected: <= maxMessageBytes "
                    + options.maxMessageBytes() + ")");
        }
    }

    private static void checkTimeout(String op, Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException(op + ": timeout " + timeout + " (expected: >= 0)");
        }
    }

    private void ensureOpen(String op, int peer) throws IOException {
        if (closed.get()) {
            throw new IOException(op + ": transport closed (process " + process + " -> process " + peer + ")");
        }
    }

    private Connection connection(int dest, String op) throws IOException {
        return connections.get(dest, op);
    }
}
