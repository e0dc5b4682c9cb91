package dev.layout.transport;

import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

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
 * from the sends (Furmento and Mercier 2005).
 *
 * <p><b>Failures.</b> Every wait is bounded (connect, send and receive timeouts); errors are
 * {@link IOException}s naming the operation, the peer process and endpoint and the stream offset.
 * A peer without the secret never gets a frame accepted; a peer that sends a malformed frame (bad
 * type, wrong source, out-of-sequence, a length beyond the limits, more eager data than its credit)
 * is dropped before anything is allocated, and the reason kept in {@link #rejections()}. A lost
 * connection fails the pending operations on it at once; messages that arrived complete before
 * the loss can still be received.
 */
public final class TcpTransport implements Transport {
  private static final System.Logger LOG = System.getLogger(TcpTransport.class.getName());

  static final int MAGIC = 0x4C595431; // "LYT1"
  static final int VERSION = 1;
  static final int HEADER = 40;
  static final int HELLO_BYTES = 4 + 4 + 4 + 4 + 32 + 8;
  static final int CHALLENGE_BYTES = 4 + 4 + 32 + 32 + 8;
  static final byte EAGER = 1;
  static final byte RTS = 2;
  static final byte CTS = 3;
  static final byte DATA = 4;
  static final byte CREDIT = 5;
  static final byte BYE = 6;
  static final byte ABORT = 7;
  static final byte ACCEPTED = 1;
  static final byte REJECTED = 2;
  private static final int CHUNK = 256 << 10;
  private static final int MAX_PENDING_RTS = 1 << 16;
  private static final int MAX_REJECTIONS = 64;
  private static final int MAX_NONCES = 1 << 16;
  /**
   * Most connections in their handshake at once (each holds a worker thread until it authenticates
   * or its connect timeout fires); more are closed at once, so a flood of unauthenticated or
   * stalling connections cannot grow threads and memory without bound. Dialers retry.
   */
  static final int MAX_PENDING_HANDSHAKES = 64;
  /** Mean block size from which a typed receive scatters with a scattering read instead of unpacking chunks. */
  private static final long SCATTER_MIN_BLOCK = 4096;

  private final int process;
  private final List<Endpoint> endpoints;
  private final JobSecret secret;
  private final TcpOptions options;
  private final AdaptiveSendPolicy sendPolicy;
  private final ServerSocketChannel server;
  private final Thread acceptor;
  private final ExecutorService workers;
  private final ScheduledExecutorService watchdog;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicLong sentMessages = new AtomicLong();
  private final AtomicLong sentBytes = new AtomicLong();
  private final Map<SendStrategy, AtomicLong> strategyCounts = new ConcurrentHashMap<>();

  private final ReentrantLock connLock = new ReentrantLock();
  private final Condition connChanged = connLock.newCondition();
  private final Connection[] conns;
  private final boolean[] dialing;
  private final boolean[] awaitingIncoming;
  private final java.util.concurrent.atomic.AtomicReferenceArray<IOException> peerGone;

  private final Mailbox mailbox = new Mailbox();
  private final Set<String> seenNonces = Collections.synchronizedSet(new LinkedHashSet<>());
  private final ArrayDeque<String> rejections = new ArrayDeque<>();
  private final java.util.concurrent.Semaphore handshakeSlots = new java.util.concurrent.Semaphore(MAX_PENDING_HANDSHAKES);

  private TcpTransport(int process, List<Endpoint> endpoints, JobSecret secret, TcpOptions options,
      ServerSocketChannel server) {
    this.process = process;
    this.endpoints = List.copyOf(endpoints);
    this.secret = secret;
    this.options = options;
    this.sendPolicy = new AdaptiveSendPolicy(options.costModel());
    this.server = server;
    int n = endpoints.size();
    this.conns = new Connection[n];
    this.dialing = new boolean[n];
    this.awaitingIncoming = new boolean[n];
    this.peerGone = new java.util.concurrent.atomic.AtomicReferenceArray<>(n);
    AtomicInteger threads = new AtomicInteger();
    this.workers = Executors.newCachedThreadPool(r -> daemon(r, "layout-tcp-p" + process + "-worker-" + threads.incrementAndGet()));
    // Every write arms a stall guard that is cancelled when the write completes: cancelled guards
    // must leave the queue at once, or they pile up for a whole sendTimeout (found by TcpSoakIT:
    // ~1.2 KB of heap per halo iteration, 29 MB of cancelled tasks after 40,000 iterations).
    java.util.concurrent.ScheduledThreadPoolExecutor dog =
        new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> daemon(r, "layout-tcp-p" + process + "-watchdog"));
    dog.setRemoveOnCancelPolicy(true);
    this.watchdog = dog;
    this.acceptor = daemon(this::acceptLoop, "layout-tcp-p" + process + "-accept");
    acceptor.start();
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
    public synchronized TcpTransport open(int process, List<Endpoint> endpoints, JobSecret secret, TcpOptions options) {
      if (opened) {
        throw new IllegalStateException("open: listener " + endpoint + " already opened");
      }
      if (endpoints == null || endpoints.isEmpty() || endpoints.stream().anyMatch(java.util.Objects::isNull)) {
        throw new IllegalArgumentException("open: endpoints " + endpoints + " (expected: one non-null endpoint per process)");
      }
      if (process < 0 || process >= endpoints.size()) {
        throw new IllegalArgumentException("open: process " + process + " (expected: 0.." + (endpoints.size() - 1) + ")");
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
        closeQuietly(server);
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
      closeQuietly(s);
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
    Outgoing o = new Outgoing(() -> workers.execute(() -> {
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
    long deadline = System.nanoTime() + timeout.toNanos();
    Key key = new Key(source, context, tag);
    Entry e = mailbox.take(key, timeout, "receive");
    if (e instanceof Eager eager) {
      consumed(eager);
      return eager.data;
    }
    Rts r = (Rts) e;
    ArraySink sink = new ArraySink(new byte[(int) r.length]);
    awaitRendezvous("receive", key, r, sink, deadline, timeout);
    return sink.array;
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
  public SendStrategy sendTyped(int dest, long context, int tag, Datatype type, long count, Memory memory, long origin,
      SendStrategy strategy) throws IOException {
    checkProcess("sendTyped", "dest", dest);
    if (strategy == null) {
      throw new IllegalArgumentException("sendTyped: strategy null (expected: PACK, GATHER or ADAPTIVE)");
    }
    Segment seg = Segment.of(type, count, memory, origin);
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
    Optional<ByteBuffer> view = strategy == SendStrategy.PACK ? Optional.empty() : memory.asByteBuffer();
    SendStrategy chosen = strategy;
    long blocks = 0;
    if (view.isEmpty()) {
      chosen = SendStrategy.PACK;
    } else if (strategy == SendStrategy.ADAPTIVE) {
      blocks = estimateBlocks(seg);
      chosen = sendPolicy.choose(dest, blocks, n, !view.get().isDirect());
    }
    boolean learn = strategy == SendStrategy.ADAPTIVE && view.isPresent(); // the policy learns from the sends it chose
    Connection c = connection(dest, "sendTyped");
    sentMessages.incrementAndGet();
    sentBytes.addAndGet(n);
    ByteBuffer v = view.orElse(null);
    if (n <= options.eagerThresholdBytes() && c.tryTakeCredit(n)) {
      long t0 = System.nanoTime();
      c.writeTyped("sendTyped", EAGER, context, tag, 0, seg, origin, chosen, v);
      if (learn) {
        sendPolicy.observe(dest, blocks, n, !v.isDirect(), chosen, System.nanoTime() - t0);
      }
      return count(chosen);
    }
    int id = c.nextMsgId.incrementAndGet();
    Outgoing o = new Outgoing(null);
    c.outgoing.put(id, o);
    c.writeFrame("sendTyped", RTS, context, tag, id, n, null);
    Duration t = options.sendTimeout();
    try {
      o.clear.get(t.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      if (o.clear.completeExceptionally(e)) {
        throw new TransportTimeoutException("sendTyped: process " + dest + " (" + endpoints.get(dest)
            + ") posted no matching receive (context " + Long.toHexString(context) + ", tag " + tag + ") within " + t);
      }
    } catch (ExecutionException e) {
      throw asIo("sendTyped", dest, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("sendTyped: interrupted while waiting for process " + dest);
    }
    long t0 = System.nanoTime();
    c.writeTyped("sendTyped", DATA, context, tag, id, seg, origin, chosen, v);
    if (learn) {
      sendPolicy.observe(dest, blocks, n, !v.isDirect(), chosen, System.nanoTime() - t0);
    }
    return count(chosen);
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
  public long receiveTyped(int source, long context, int tag, Datatype type, long count, Memory memory, long origin,
      Duration timeout) throws IOException {
    checkProcess("receiveTyped", "source", source);
    checkTimeout("receiveTyped", timeout);
    Segment seg = Segment.of(type, count, memory, origin);
    memory.checkWritable("receiveTyped");
    long deadline = System.nanoTime() + timeout.toNanos();
    Key key = new Key(source, context, tag);
    Entry e = mailbox.take(key, timeout, "receiveTyped");
    long length = e instanceof Eager eg ? eg.data.length : ((Rts) e).length;
    // validated before any byte reaches the memory: an eager body is complete here, a rendezvous
    // body has not been asked for yet (its DATA frame must then carry exactly the announced length)
    String invalid = ReceiveChecks.violation(type, seg.byteSize(), length);
    if (invalid != null) {
      if (e instanceof Eager eg) {
        consumed(eg);
      } else {
        Rts r = (Rts) e;
        r.conn.incoming.put(r.msgId, new Incoming(new DiscardSink(), r.length));
        r.conn.writeFrame("receiveTyped", CTS, context, tag, r.msgId, 0, null);
      }
      throw new IOException("receiveTyped: message of " + length + " bytes from process " + source + " ("
          + endpoints.get(source) + ", context " + Long.toHexString(context) + ", tag " + tag + ") " + invalid
          + "; the message was dropped and the memory left untouched");
    }
    if (e instanceof Eager eg) {
      seg.unpack(Memory.ofArray(eg.data), 0, eg.data.length);
      consumed(eg);
      return length;
    }
    awaitRendezvous("receiveTyped", key, (Rts) e, new SegmentSink(seg, memory, origin, type, count), deadline, timeout);
    return length;
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
    synchronized (rejections) {
      return List.copyOf(rejections);
    }
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
    closeQuietly(server);
    acceptor.interrupt();
    List<Connection> all = new ArrayList<>();
    connLock.lock();
    try {
      for (Connection c : conns) {
        if (c != null) {
          all.add(c);
        }
      }
      connChanged.signalAll();
    } finally {
      connLock.unlock();
    }
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
    workers.shutdownNow();
    watchdog.shutdownNow();
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

  /**
   * Estimated contiguous blocks of the segment's whole stream: exact up to 64 blocks, extrapolated
   * from the first 64 beyond; remembered per (type, count) in a small cache, since flattening even
   * 64 blocks of a struct costs tens of microseconds. Leaves the segment at position 0.
   */
  static long estimateBlocks(Segment s) {
    int slot = (System.identityHashCode(s.type()) * 31 + Long.hashCode(s.count())) & (ESTIMATES.length() - 1);
    BlockEstimate e = ESTIMATES.get(slot);
    if (e != null && e.type.get() == s.type() && e.count == s.count()) {
      return e.blocks;
    }
    s.seek(0);
    List<Piece> pieces = s.flatten(64);
    boolean all = s.remaining() == 0;
    s.seek(0);
    long blocks;
    if (all || pieces.isEmpty()) {
      blocks = pieces.size();
    } else {
      long covered = 0;
      for (Piece p : pieces) {
        covered += p.length();
      }
      blocks = (long) Math.ceil((double) pieces.size() * s.byteSize() / Math.max(1, covered));
    }
    ESTIMATES.set(slot, new BlockEstimate(new java.lang.ref.WeakReference<>(s.type()), s.count(), blocks));
    return blocks;
  }

  private record BlockEstimate(java.lang.ref.WeakReference<Datatype> type, long count, long blocks) {}

  private static final java.util.concurrent.atomic.AtomicReferenceArray<BlockEstimate> ESTIMATES =
      new java.util.concurrent.atomic.AtomicReferenceArray<>(256);

  private void awaitRendezvous(String op, Key key, Rts r, Sink sink, long deadline, Duration timeout) throws IOException {
    Connection c = r.conn;
    Incoming inc = new Incoming(sink, r.length);
    c.incoming.put(r.msgId, inc);
    if (c.failure != null) {
      c.incoming.remove(r.msgId);
      throw c.failure(op);
    }
    c.writeFrame(op, CTS, key.context, key.tag, r.msgId, 0, null);
    try {
      long left = deadline - System.nanoTime();
      inc.done.get(Math.max(0, left), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      String what = op + ": message from process " + key.source + " (" + endpoints.get(key.source) + ", context "
          + Long.toHexString(key.context) + ", tag " + key.tag + ", " + r.length + " bytes) did not arrive within "
          + timeout;
      if (inc.state.compareAndSet(Incoming.WAITING, Incoming.CANCELLED)) {
        throw new TransportTimeoutException(what);
      }
      // the data is flowing into the destination: a stalled transfer costs the connection
      c.fail(new TransportTimeoutException(what + " (transfer stalled at stream offset " + c.readOffset + ")"));
      throw new TransportTimeoutException(what);
    } catch (ExecutionException e) {
      throw asIo(op, key.source, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(op + ": interrupted while waiting for process " + key.source);
    }
  }

  private void consumed(Eager e) {
    if (e.conn != null) {
      e.conn.returnCredit(e.data.length);
    }
  }

  private IOException asIo(String op, int peer, Throwable t) {
    if (t instanceof TransportTimeoutException tt) {
      return new TransportTimeoutException(op + ": " + tt.getMessage());
    }
    return new IOException(op + ": " + (t == null ? "failed" : t.getMessage()) + " (process " + peer + " at "
        + endpoints.get(peer) + ")", t);
  }

  private void checkProcess(String op, String arg, int p) {
    if (p < 0 || p >= endpoints.size()) {
      throw new IllegalArgumentException(op + ": " + arg + " " + p + " (expected: 0.." + (endpoints.size() - 1) + ")");
    }
  }

  private void checkLength(String op, long n) {
    if (n > options.maxMessageBytes()) {
      throw new IllegalArgumentException(
          op + ": message of " + n + " bytes (expected: <= maxMessageBytes " + options.maxMessageBytes() + ")");
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

  private void reject(String reason) {
    LOG.log(System.Logger.Level.WARNING, "layout transport, process {0}: {1}", process, reason);
    synchronized (rejections) {
      if (rejections.size() == MAX_REJECTIONS) {
        rejections.removeFirst();
      }
      rejections.addLast(reason);
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  static void closeQuietly(java.io.Closeable c) {
    try {
      if (c != null) {
        c.close();
      }
    } catch (IOException ignored) {
      // closing: nothing left to report
    }
  }

  // ---------------------------------------------------------------- connections

  /** The connection to dest, dialling it if there is none (at most the connect timeout). */
  private Connection connection(int dest, String op) throws IOException {
    long deadline = System.nanoTime() + options.connectTimeout().toNanos();
    while (true) {
      connLock.lock();
      try {
        while (true) {
          if (closed.get()) {
            throw new IOException(op + ": transport closed (process " + process + " -> process " + dest + ")");
          }
          IOException gone = peerGone.get(dest);
          if (gone != null) {
            throw new IOException(op + ": process " + dest + " (" + endpoints.get(dest) + ") is gone: " + gone.getMessage(), gone);
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
            throw new TransportTimeoutException(op + ": no connection to process " + dest + " (" + endpoints.get(dest)
                + ") within " + options.connectTimeout());
          }
          connChanged.awaitNanos(left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(op + ": interrupted while connecting to process " + dest);
      } finally {
        connLock.unlock();
      }
      Connection made = null;
      boolean rejected = false;
      IOException error = null;
      try {
        made = dial(dest, deadline);
        rejected = made == null;
      } catch (IOException e) {
        error = e;
      }
      connLock.lock();
      try {
        dialing[dest] = false;
        if (made != null) {
          if (conns[dest] == null && !closed.get()) {
            register(made);
          } else {
            closeQuietly(made.ch);
          }
        } else if (rejected) {
          awaitingIncoming[dest] = conns[dest] == null;
        }
        connChanged.signalAll();
      } finally {
        connLock.unlock();
      }
      if (error != null) {
        throw new IOException(op + ": cannot connect to process " + dest + " at " + endpoints.get(dest) + ": "
            + error.getMessage(), error);
      }
    }
  }

  private void register(Connection c) {
    // caller holds connLock
    conns[c.peer] = c;
    awaitingIncoming[c.peer] = false;
    c.reader = daemon(() -> readLoop(c), "layout-tcp-p" + process + "-from-" + c.peer);
    c.reader.start();
  }

  /** Dials and authenticates dest; null if dest refused because its own dial wins. */
  private Connection dial(int dest, long deadline) throws IOException {
    Endpoint ep = endpoints.get(dest);
    SocketChannel ch = null;
    long backoff = 1;
    while (ch == null) {
      SocketChannel attempt = SocketChannel.open();
      try {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          throw new TransportTimeoutException("connect timed out after " + options.connectTimeout());
        }
        attempt.socket().connect(ep.toSocketAddress(), (int) Math.min(Integer.MAX_VALUE, left));
        ch = attempt;
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
    SocketChannel channel = ch;
    ScheduledFuture<?> dog = watchdog.schedule(() -> closeQuietly(channel),
        Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    try {
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      byte[] nonceD = JobSecret.nonce();
      ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
      hello.putInt(MAGIC).putInt(VERSION).putInt(process).putInt(dest).put(nonceD).putLong(options.peerBufferBytes()).flip();
      writeAll(channel, hello);
      ByteBuffer chal = ByteBuffer.allocate(CHALLENGE_BYTES);
      readHandshake(channel, chal, "challenge from process " + dest + " at " + ep);
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
      byte[] expect = secret.hmac(label("acceptor"), nonceD, nonceA, intBytes(dest), intBytes(process));
      if (!MessageDigest.isEqual(expect, macA)) {
        throw new IOException("handshake: authentication of process " + dest + " at " + ep
            + " failed (wrong job secret, or not a layout peer)");
      }
      byte[] macD = secret.hmac(label("dialer"), nonceD, nonceA, intBytes(process), intBytes(dest));
      writeAll(channel, ByteBuffer.wrap(macD));
      ByteBuffer verdict = ByteBuffer.allocate(1);
      readHandshake(channel, verdict, "verdict from process " + dest + " at " + ep
          + " (it refused the handshake: wrong job secret?)");
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
      return new Connection(dest, channel, budget);
    } catch (IOException e) {
      dog.cancel(false);
      closeQuietly(channel);
      throw e;
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

  private void acceptLoop() {
    while (!closed.get()) {
      SocketChannel ch;
      try {
        ch = server.accept();
      } catch (IOException e) {
        if (!closed.get()) {
          reject("accept on " + endpoints.get(process) + " failed: " + e);
        }
        return;
      }
      if (!handshakeSlots.tryAcquire()) {
        String from;
        try {
          from = String.valueOf(ch.getRemoteAddress());
        } catch (IOException e) {
          from = "?";
        }
        closeQuietly(ch);
        reject("refused connection from " + from + ": " + MAX_PENDING_HANDSHAKES + " handshakes already pending");
        continue;
      }
      try {
        workers.execute(() -> {
          try {
            acceptHandshake(ch);
          } finally {
            handshakeSlots.release();
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        handshakeSlots.release();
        closeQuietly(ch);
        return;
      }
    }
  }

  private void acceptHandshake(SocketChannel ch) {
    String from;
    try {
      from = String.valueOf(ch.getRemoteAddress());
    } catch (IOException e) {
      from = "?";
    }
    ScheduledFuture<?> dog;
    try {
      dog = watchdog.schedule(() -> closeQuietly(ch), options.connectTimeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      closeQuietly(ch);
      return;
    }
    try {
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
      readHandshake(ch, hello, "hello from " + from);
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
      if (target != process || dialer < 0 || dialer >= endpoints.size() || dialer == process || budget < 0) {
        throw new IOException("hello claims process " + dialer + " dialling process " + target + " (this is process "
            + process + " of " + endpoints.size() + ")");
      }
      String nonceKey = java.util.HexFormat.of().formatHex(nonceD);
      synchronized (seenNonces) {
        if (!seenNonces.add(nonceKey)) {
          throw new IOException("replayed handshake (nonce already used) claiming process " + dialer);
        }
        if (seenNonces.size() > MAX_NONCES) {
          seenNonces.remove(seenNonces.iterator().next());
        }
      }
      byte[] nonceA = JobSecret.nonce();
      byte[] macA = secret.hmac(label("acceptor"), nonceD, nonceA, intBytes(process), intBytes(dialer));
      ByteBuffer chal = ByteBuffer.allocate(CHALLENGE_BYTES);
      chal.putInt(MAGIC).putInt(process).put(nonceA).put(macA).putLong(options.peerBufferBytes()).flip();
      writeAll(ch, chal);
      ByteBuffer macD = ByteBuffer.allocate(32);
      readHandshake(ch, macD, "response from " + from + " claiming process " + dialer);
      byte[] expect = secret.hmac(label("dialer"), nonceD, nonceA, intBytes(dialer), intBytes(process));
      if (!MessageDigest.isEqual(expect, macD.array())) {
        throw new IOException("authentication failed for peer claiming process " + dialer + " (wrong job secret)");
      }
      if (!dog.cancel(false)) {
        throw new IOException("handshake timed out");
      }
      connLock.lock();
      try {
        boolean lose = closed.get() || conns[dialer] != null || (dialing[dialer] && dialer > process);
        writeAll(ch, ByteBuffer.wrap(new byte[] {lose ? REJECTED : ACCEPTED}));
        if (lose) {
          closeQuietly(ch);
          return;
        }
        register(new Connection(dialer, ch, budget));
        connChanged.signalAll();
      } finally {
        connLock.unlock();
      }
    } catch (IOException | RuntimeException e) {
      dog.cancel(false);
      if (!closed.get()) {
        reject("refused connection from " + from + ": " + e.getMessage());
      }
      closeQuietly(ch);
    }
  }

  private static void readHandshake(SocketChannel ch, ByteBuffer b, String what) throws IOException {
    while (b.hasRemaining()) {
      int r;
      try {
        r = ch.read(b);
      } catch (ClosedChannelException e) {
        throw new IOException("handshake: " + what + " timed out or was closed after " + b.position() + " bytes");
      }
      if (r < 0) {
        throw new EOFException("handshake: end of stream in " + what + " after " + b.position() + " bytes");
      }
    }
  }

  private static byte[] label(String s) {
    return ("layout-transport-v1/" + s).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  private static byte[] intBytes(int v) {
    return ByteBuffer.allocate(4).putInt(v).array();
  }

  static void writeAll(SocketChannel ch, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  // ---------------------------------------------------------------- reading

  private void readLoop(Connection c) {
    ByteBuffer h = ByteBuffer.allocateDirect(HEADER);
    try {
      while (true) {
        h.clear();
        if (!c.readHeader(h)) {
          if (c.byeReceived) {
            c.closedByPeer();
            return;
          }
          throw new EOFException("connection closed by process " + c.peer + " (" + endpoints.get(c.peer)
              + ") at stream offset " + c.readOffset);
        }
        h.flip();
        long frameOffset = c.readOffset - HEADER;
        byte type = h.get();
        h.position(4);
        int source = h.getInt();
        long context = h.getLong();
        int tag = h.getInt();
        long seq = h.getLong();
        long length = h.getLong();
        int id = h.getInt();
        if (source != c.peer) {
          throw c.violation(frameOffset, "frame claims source " + source);
        }
        if (seq != c.recvSeq) {
          throw c.violation(frameOffset, "frame sequence " + seq + " (expected: " + c.recvSeq + ")");
        }
        c.recvSeq++;
        if (c.byeReceived) {
          throw c.violation(frameOffset, "frame after goodbye");
        }
        if (length < 0) {
          throw c.violation(frameOffset, "negative length " + length);
        }
        switch (type) {
          case EAGER -> {
            if (length > options.maxMessageBytes() || c.buffered.get() + length > options.peerBufferBytes()) {
              throw c.violation(frameOffset, "eager message of " + length + " bytes exceeds the granted buffer ("
                  + c.buffered.get() + " of " + options.peerBufferBytes() + " bytes in use)");
            }
            byte[] data = new byte[(int) length];
            c.readBody(ByteBuffer.wrap(data));
            c.buffered.addAndGet(length);
            mailbox.put(new Key(c.peer, context, tag), new Eager(c, data));
          }
          case RTS -> {
            if (length > options.maxMessageBytes()) {
              throw c.violation(frameOffset, "message of " + length + " bytes (expected: <= maxMessageBytes "
                  + options.maxMessageBytes() + ")");
            }
            if (c.pendingRts.incrementAndGet() > MAX_PENDING_RTS) {
              throw c.violation(frameOffset, "more than " + MAX_PENDING_RTS + " unmatched send requests");
            }
            mailbox.put(new Key(c.peer, context, tag), new Rts(c, id, length));
          }
          case CTS -> {
            Outgoing o = c.outgoing.remove(id);
            if (o == null) {
              throw c.violation(frameOffset, "clear-to-send for unknown message " + id);
            }
            if (o.onClear != null) {
              o.onClear.run();
            } else if (!o.clear.complete(null)) {
              workers.execute(() -> {
                try {
                  c.writeFrame("sendTyped", ABORT, context, tag, id, 0, null);
                } catch (IOException e) {
                  c.fail(e);
                }
              });
            }
          }
          case DATA -> {
            // looked up, not removed, until valid: a refused frame must leave the waiting receive to
            // fail(), which fails it at once (removed here, it would wait for its timeout)
            Incoming inc = c.incoming.get(id);
            if (inc == null || inc.length != length) {
              throw c.violation(frameOffset, "data frame for message " + id + " of " + length + " bytes ("
                  + (inc == null ? "no receive waits for it" : "expected: " + inc.length + " bytes") + ")");
            }
            c.incoming.remove(id);
            if (inc.state.compareAndSet(Incoming.WAITING, Incoming.RECEIVING)) {
              try {
                inc.sink.consume(c, length);
              } catch (IOException | RuntimeException e) {
                inc.done.completeExceptionally(e);
                throw e;
              }
              inc.done.complete(null);
            } else {
              new DiscardSink().consume(c, length);
            }
          }
          case ABORT -> {
            Incoming inc = c.incoming.remove(id);
            if (inc != null) {
              inc.done.completeExceptionally(new IOException("process " + c.peer + " abandoned message " + id
                  + " (its send timed out)"));
            }
          }
          case CREDIT -> c.credits.addAndGet(length);
          case BYE -> {
            c.byeReceived = true;
            peerClosed(c.peer, new IOException("process " + c.peer + " (" + endpoints.get(c.peer)
                + ") closed its transport"));
          }
          default -> throw c.violation(frameOffset, "unknown frame type " + type);
        }
      }
    } catch (ProtocolViolation e) {
      reject(e.getMessage());
      c.fail(e);
    } catch (IOException | RuntimeException e) {
      IOException io = e instanceof IOException x ? x : new IOException(e.toString(), e);
      if (c.failure == null && !closed.get()) {
        if (!(io.getMessage() != null && io.getMessage().startsWith("connection closed by process"))) {
          io = new IOException("connection to process " + c.peer + " (" + endpoints.get(c.peer) + ") failed at stream offset "
              + c.readOffset + ": " + io.getMessage(), io);
        }
      }
      c.fail(io);
    }
  }

  private void peerClosed(int peer, IOException why) {
    connLock.lock();
    try {
      peerGone.compareAndSet(peer, null, why);
    } finally {
      connLock.unlock();
    }
    mailbox.wakeAll();
  }

  /** A frame that breaks the protocol: the connection is dropped, the reason logged. */
  static final class ProtocolViolation extends IOException {
    private static final long serialVersionUID = 1L;

    ProtocolViolation(String m) {
      super(m);
    }
  }

  /** One authenticated connection to a peer process. */
  final class Connection {
    final int peer;
    final SocketChannel ch;
    final ReentrantLock writeLock = new ReentrantLock();
    final ByteBuffer header = ByteBuffer.allocateDirect(HEADER);
    ByteBuffer staging;
    ByteBuffer readStaging;
    long sendSeq;
    long writeOffset;
    long recvSeq;
    volatile long readOffset;
    final AtomicLong credits;
    final AtomicLong buffered = new AtomicLong();
    final AtomicLong creditToReturn = new AtomicLong();
    final AtomicLong pendingRts = new AtomicLong();
    final AtomicInteger nextMsgId = new AtomicInteger();
    final Map<Integer, Outgoing> outgoing = new ConcurrentHashMap<>();
    final Map<Integer, Incoming> incoming = new ConcurrentHashMap<>();
    volatile IOException failure;
    volatile boolean byeReceived;
    Thread reader;

    Connection(int peer, SocketChannel ch, long budget) {
      this.peer = peer;
      this.ch = ch;
      this.credits = new AtomicLong(budget);
    }

    IOException failure(String op) {
      IOException f = failure;
      return new IOException(op + ": connection to process " + peer + " (" + endpoints.get(peer) + ") is gone: "
          + (f == null ? "closed" : f.getMessage()), f);
    }

    ProtocolViolation violation(long offset, String what) {
      return new ProtocolViolation("protocol violation by process " + peer + " (" + endpoints.get(peer)
          + ") at stream offset " + offset + ": " + what);
    }

    boolean tryTakeCredit(long n) {
      while (true) {
        long c = credits.get();
        if (c < n) {
          return false;
        }
        if (credits.compareAndSet(c, c - n)) {
          return true;
        }
      }
    }

    void returnCredit(long n) {
      buffered.addAndGet(-n);
      long pending = creditToReturn.addAndGet(n);
      if (pending >= Math.max(1, options.peerBufferBytes() / 8) || buffered.get() == 0 && pending > 0) {
        long give = creditToReturn.getAndSet(0);
        if (give > 0) {
          try {
            writeFrame("receive", CREDIT, 0, 0, 0, give, null);
          } catch (IOException e) {
            fail(e);
          }
        }
      }
    }

    // ------------------------------------------------------------ writing

    private void lockForWrite(String op) throws IOException {
      if (failure != null) {
        throw failure(op);
      }
      try {
        if (!writeLock.tryLock(options.sendTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
          throw new TransportTimeoutException(op + ": connection to process " + peer + " (" + endpoints.get(peer)
              + ") busy for " + options.sendTimeout());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(op + ": interrupted while waiting to write to process " + peer);
      }
      if (failure != null) {
        writeLock.unlock();
        throw failure(op);
      }
    }

    private ScheduledFuture<?> stallGuard(String op) {
      long at = writeOffset;
      try {
        return watchdog.schedule(() -> fail(new TransportTimeoutException(op + ": write to process " + peer + " ("
            + endpoints.get(peer) + ") stalled for " + options.sendTimeout() + " at stream offset " + at)),
            options.sendTimeout().toNanos(), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        return null;
      }
    }

    private void fillHeader(ByteBuffer b, byte type, long context, int tag, int id, long length) {
      b.put(type).put((byte) 0).put((byte) 0).put((byte) 0).putInt(process).putLong(context).putInt(tag)
          .putLong(sendSeq++).putLong(length).putInt(id);
    }

    /** A frame whose body (if any) is one buffer. */
    void writeFrame(String op, byte type, long context, int tag, int id, ByteBuffer body) throws IOException {
      writeFrame(op, type, context, tag, id, body.remaining(), body);
    }

    void writeFrame(String op, byte type, long context, int tag, int id, long length, ByteBuffer body) throws IOException {
      lockForWrite(op);
      ScheduledFuture<?> guard = stallGuard(op); // a peer that stops reading must not block us forever
      try {
        header.clear();
        fillHeader(header, type, context, tag, id, length);
        header.flip();
        if (body != null && body.remaining() > 0 && body.remaining() <= 8192) {
          // one write for small frames
          if (staging == null) {
            staging = ByteBuffer.allocateDirect(CHUNK);
          }
          staging.clear();
          staging.put(header).put(body).flip();
          writeOffset += staging.remaining();
          writeAll(ch, staging);
          return;
        }
        writeOffset += HEADER;
        writeAll(ch, header);
        if (body != null) {
          while (body.hasRemaining()) {
            // heap buffers go through a JDK temporary direct buffer: keep it chunk-sized
            ByteBuffer part = body.slice(body.position(), Math.min(body.remaining(), 1 << 20));
            int k = part.remaining();
            writeAll(ch, part);
            body.position(body.position() + k);
            writeOffset += k;
          }
        }
      } catch (IOException e) {
        IOException f = new IOException(op + ": write to process " + peer + " (" + endpoints.get(peer)
            + ") failed at stream offset " + writeOffset + ": " + e.getMessage(), e);
        fail(f);
        throw f;
      } finally {
        if (guard != null) {
          guard.cancel(false);
        }
        writeLock.unlock();
      }
    }

    /** A frame whose body is the packed stream of seg, packed through staging or gathered from view. */
    void writeTyped(String op, byte type, long context, int tag, int id, Segment seg, long origin, SendStrategy how,
        ByteBuffer view) throws IOException {
      lockForWrite(op);
      ScheduledFuture<?> guard = stallGuard(op);
      try {
        long n = seg.byteSize();
        header.clear();
        fillHeader(header, type, context, tag, id, n);
        header.flip();
        if (how == SendStrategy.GATHER) {
          int batch = options.costModel().batchBlocks();
          ByteBuffer[] iov = new ByteBuffer[batch + 1];
          iov[0] = header;
          int k = 1;
          while (true) {
            List<Piece> pieces = seg.flatten(batch);
            for (Piece p : pieces) {
              iov[k++] = view.slice((int) (origin + p.offset()), (int) p.length());
            }
            if (k > 0) {
              gatherAll(iov, k);
            }
            k = 0;
            if (pieces.isEmpty() || seg.remaining() == 0) {
              break;
            }
          }
          writeOffset += HEADER + n;
        } else {
          if (staging == null) {
            staging = ByteBuffer.allocateDirect(CHUNK);
          }
          Memory stage = Memory.ofBuffer(staging);
          staging.clear();
          staging.put(header);
          long done = 0;
          int at = HEADER;
          do {
            long k = seg.pack(stage, at, Math.min(CHUNK - at, n - done));
            done += k;
            staging.position(0).limit((int) (at + k));
            writeAll(ch, staging);
            at = 0;
          } while (done < n);
          writeOffset += HEADER + n;
        }
      } catch (IOException e) {
        IOException f = new IOException(op + ": write to process " + peer + " (" + endpoints.get(peer)
            + ") failed at stream offset " + writeOffset + ": " + e.getMessage(), e);
        fail(f);
        throw f;
      } finally {
        if (guard != null) {
          guard.cancel(false);
        }
        writeLock.unlock();
      }
    }

    private void gatherAll(ByteBuffer[] iov, int len) throws IOException {
      int i = 0;
      while (i < len) {
        ch.write(iov, i, len - i);
        while (i < len && !iov[i].hasRemaining()) {
          i++;
        }
      }
    }

    private int asyncSends;

    synchronized void asyncSendStarted() {
      asyncSends++;
    }

    synchronized void asyncSendDone() {
      asyncSends--;
      notifyAll();
    }

    synchronized void awaitAsyncSends(long deadline) {
      while (asyncSends > 0 && failure == null) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    void sayBye() {
      try {
        if (failure == null && writeLock.tryLock(options.closeTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
          try {
            header.clear();
            fillHeader(header, BYE, 0, 0, 0, 0);
            header.flip();
            writeAll(ch, header);
            ch.shutdownOutput();
          } finally {
            writeLock.unlock();
          }
        }
      } catch (IOException | InterruptedException e) {
        fail(new IOException("close: goodbye to process " + peer + " failed: " + e.getMessage(), e));
      }
    }

    // ------------------------------------------------------------ reading (reader thread only)

    /** Reads a whole header; false on a clean end of stream before its first byte. */
    boolean readHeader(ByteBuffer h) throws IOException {
      while (h.hasRemaining()) {
        int r = ch.read(h);
        if (r < 0) {
          if (h.position() == 0) {
            return false;
          }
          throw new EOFException("connection closed by process " + peer + " (" + endpoints.get(peer)
              + ") inside a frame header at stream offset " + (readOffset + h.position()));
        }
      }
      readOffset += HEADER;
      return true;
    }

    /** Reads exactly b.remaining() bytes (heap buffers in chunks). */
    void readBody(ByteBuffer b) throws IOException {
      while (b.hasRemaining()) {
        ByteBuffer part = b.isDirect() ? b : b.slice(b.position(), Math.min(b.remaining(), CHUNK));
        int r = ch.read(part);
        if (r < 0) {
          throw new EOFException("connection closed by process " + peer + " (" + endpoints.get(peer)
              + ") in the middle of a message at stream offset " + readOffset);
        }
        readOffset += r;
        if (part != b) {
          b.position(b.position() + r);
        }
      }
    }

    void scatterAll(ByteBuffer[] iov, int len) throws IOException {
      int i = 0;
      while (i < len) {
        long r = ch.read(iov, i, len - i);
        if (r < 0) {
          throw new EOFException("connection closed by process " + peer + " (" + endpoints.get(peer)
              + ") in the middle of a message at stream offset " + readOffset);
        }
        readOffset += r;
        while (i < len && !iov[i].hasRemaining()) {
          i++;
        }
      }
    }

    ByteBuffer readStaging() {
      if (readStaging == null) {
        readStaging = ByteBuffer.allocateDirect(CHUNK);
      }
      return readStaging;
    }

    void closedByPeer() {
      fail(new IOException("process " + peer + " (" + endpoints.get(peer) + ") closed its transport"));
    }

    void fail(IOException cause) {
      synchronized (this) {
        if (failure != null) {
          return;
        }
        failure = cause;
      }
      closeQuietly(ch);
      synchronized (this) {
        notifyAll();
      }
      for (Incoming inc : incoming.values()) {
        inc.done.completeExceptionally(cause);
      }
      incoming.clear();
      for (Outgoing o : outgoing.values()) {
        o.clear.completeExceptionally(cause);
      }
      outgoing.clear();
      peerClosed(peer, cause);
      connLock.lock();
      try {
        connChanged.signalAll();
      } finally {
        connLock.unlock();
      }
    }
  }

  // ---------------------------------------------------------------- rendezvous state

  static final class Outgoing {
    final CompletableFuture<Void> clear = new CompletableFuture<>();
    final Runnable onClear;

    Outgoing(Runnable onClear) {
      this.onClear = onClear;
    }
  }

  static final class Incoming {
    static final int WAITING = 0;
    static final int RECEIVING = 1;
    static final int CANCELLED = 2;
    final AtomicInteger state = new AtomicInteger(WAITING);
    final CompletableFuture<Void> done = new CompletableFuture<>();
    final Sink sink;
    final long length;

    Incoming(Sink sink, long length) {
      this.sink = sink;
      this.length = length;
    }
  }

  /** Where the reader puts the body of a rendezvous message. */
  interface Sink {
    void consume(Connection c, long n) throws IOException;
  }

  static final class ArraySink implements Sink {
    final byte[] array;

    ArraySink(byte[] array) {
      this.array = array;
    }

    @Override
    public void consume(Connection c, long n) throws IOException {
      c.readBody(ByteBuffer.wrap(array, 0, (int) n));
    }
  }

  static final class DiscardSink implements Sink {
    @Override
    public void consume(Connection c, long n) throws IOException {
      ByteBuffer s = c.readStaging();
      long left = n;
      while (left > 0) {
        s.clear().limit((int) Math.min(s.capacity(), left));
        c.readBody(s);
        left -= s.limit();
      }
    }
  }

  /** Scatters into the receive type: a scattering read over large blocks, else chunked unpacking. */
  static final class SegmentSink implements Sink {
    final Segment seg;
    final Memory memory;
    final long origin;
    final Datatype type;
    final long count;

    SegmentSink(Segment seg, Memory memory, long origin, Datatype type, long count) {
      this.seg = seg;
      this.memory = memory;
      this.origin = origin;
      this.type = type;
      this.count = count;
    }

    @Override
    public void consume(Connection c, long n) throws IOException {
      Optional<ByteBuffer> view = memory.asByteBuffer();
      long blocks = estimateBlocks(seg);
      if (view.isPresent() && view.get().isDirect() && blocks > 0 && seg.byteSize() / blocks >= SCATTER_MIN_BLOCK) {
        ByteBuffer v = view.get();
        ByteBuffer[] iov = new ByteBuffer[256];
        long left = n;
        while (left > 0) {
          List<Piece> pieces = seg.flatten(iov.length);
          int k = 0;
          for (Piece p : pieces) {
            if (left == 0) {
              break;
            }
            int len = (int) Math.min(p.length(), left);
            iov[k++] = v.slice((int) (origin + p.offset()), len);
            left -= len;
          }
          if (k == 0) {
            break;
          }
          c.scatterAll(iov, k);
        }
        return;
      }
      // partial processing: each arriving chunk is unpacked into place before the next is read
      ByteBuffer s = c.readStaging();
      Memory stage = Memory.ofBuffer(s);
      long left = n;
      while (left > 0) {
        int k = (int) Math.min(s.capacity(), left);
        s.clear().limit(k);
        c.readBody(s);
        seg.unpack(stage, 0, k);
        left -= k;
      }
    }
  }

  // ---------------------------------------------------------------- matching

  private record Key(int source, long context, int tag) {}

  private sealed interface Entry permits Eager, Rts {}

  private record Eager(Connection conn, byte[] data) implements Entry {}

  private record Rts(Connection conn, int msgId, long length) implements Entry {}

  private final class Mailbox {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final Map<Key, ArrayDeque<Entry>> queues = new HashMap<>();

    void put(Key key, Entry e) {
      lock.lock();
      try {
        queues.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(e);
        arrived.signalAll();
      } finally {
        lock.unlock();
      }
    }

    void wakeAll() {
      lock.lock();
      try {
        arrived.signalAll();
      } finally {
        lock.unlock();
      }
    }

    Entry take(Key key, Duration timeout, String op) throws IOException {
      long remaining = timeout.toNanos();
      lock.lock();
      try {
        while (true) {
          ArrayDeque<Entry> q = queues.get(key);
          if (q != null) {
            Entry e = q.pollFirst();
            if (q.isEmpty()) {
              queues.remove(key);
            }
            if (e instanceof Rts r) {
              r.conn.pendingRts.decrementAndGet();
            }
            return e;
          }
          if (closed.get()) {
            throw new IOException(op + ": transport closed while process " + process + " waited for process "
                + key.source + " (context " + Long.toHexString(key.context) + ", tag " + key.tag + ")");
          }
          IOException gone = peerGone.get(key.source);
          if (gone != null) {
            throw new IOException(op + ": no message from process " + key.source + " (" + endpoints.get(key.source)
                + ", context " + Long.toHexString(key.context) + ", tag " + key.tag + "): " + gone.getMessage(), gone);
          }
          if (remaining <= 0) {
            throw new TransportTimeoutException(op + ": no message from process " + key.source + " ("
                + endpoints.get(key.source) + ") to process " + process + " (context " + Long.toHexString(key.context)
                + ", tag " + key.tag + ") within " + timeout);
          }
          try {
            remaining = arrived.awaitNanos(remaining);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(
                op + ": interrupted while process " + process + " waited for process " + key.source);
          }
        }
      } finally {
        lock.unlock();
      }
    }
  }
}
