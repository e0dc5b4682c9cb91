package dev.layout.spark.comm;

import dev.layout.transport.Transport;
import dev.layout.transport.TransportTimeoutException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A full mesh of TCP connections between the ranks of a barrier stage: one socket per pair
 * (process p connects to every q < p and accepts every q > p), a reader thread per socket that
 * files frames {@code (context, tag, length, payload)} into per-(source, context, tag) queues.
 *
 * <p>Connecting peers authenticate with HMAC-SHA256 of {@code "layout:" + from + "->" + to} under
 * the job secret. This is the connector's stopgap until {@code dev.layout.transport.TcpTransport}
 * is available; only {@link TransportFactory} is public.
 */
final class SocketTransport implements Transport {

  static final TransportFactory FACTORY = SocketTransport::bind;
  private static final int MAGIC = 0x4C41594F; // "LAYO"
  private static final byte[] POISON = new byte[0];

  private final int process;
  private final int size;
  private final Socket[] sockets;
  private final DataOutputStream[] out;
  private final ConcurrentHashMap<Key, LinkedBlockingQueue<byte[]>> queues = new ConcurrentHashMap<>();
  private final boolean[] peerGone;
  private final AtomicLong sentMessages = new AtomicLong();
  private final AtomicLong sentBytes = new AtomicLong();
  private volatile boolean closed;

  private record Key(int source, long context, int tag) {}

  private SocketTransport(int process, int size) {
    this.process = process;
    this.size = size;
    this.sockets = new Socket[size];
    this.out = new DataOutputStream[size];
    this.peerGone = new boolean[size];
  }

  static TransportFactory.Binding bind(int process, int size, String host, byte[] secret) throws IOException {
    if (size < 1 || process < 0 || process >= size) {
      throw new IllegalArgumentException("sockets: process " + process + " of " + size + " (expected: 0 <= process < size)");
    }
    ServerSocket server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getByName(host), 0), Math.max(50, size));
    String endpoint = host + ":" + server.getLocalPort();
    byte[] key = secret.clone();
    return new TransportFactory.Binding() {
      @Override
      public String endpoint() {
        return endpoint;
      }

      @Override
      public Transport connect(List<String> endpoints, Duration timeout) throws IOException {
        try {
          return SocketTransport.connect(process, size, server, key, endpoints, timeout);
        } finally {
          server.close();
        }
      }

      @Override
      public void close() {
        try {
          server.close();
        } catch (IOException ignored) {
          // closing a listening socket: nothing to recover
        }
      }
    };
  }

  private static Transport connect(int process, int size, ServerSocket server, byte[] secret, List<String> endpoints,
      Duration timeout) throws IOException {
    if (endpoints.size() != size) {
      throw new IllegalArgumentException("sockets: " + endpoints.size() + " endpoints (expected: " + size + ")");
    }
    SocketTransport t = new SocketTransport(process, size);
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      for (int q = 0; q < process; q++) {
        String[] hp = endpoints.get(q).split(":");
        Socket s = new Socket();
        s.connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), (int) Math.max(1, remainingMillis(deadline)));
        s.setTcpNoDelay(true);
        DataOutputStream o = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
        o.writeInt(MAGIC);
        o.writeInt(process);
        o.write(mac(secret, process, q));
        o.flush();
        t.attach(q, s, o);
      }
      for (int k = process + 1; k < size; k++) {
        int left = (int) remainingMillis(deadline);
        if (left <= 0) {
          throw new TransportTimeoutException(
              "sockets: process " + process + " accepted " + (k - process - 1) + " of " + (size - process - 1)
                  + " peers within " + timeout);
        }
        server.setSoTimeout(left);
        Socket s;
        try {
          s = server.accept();
        } catch (SocketTimeoutException e) {
          throw new TransportTimeoutException(
              "sockets: process " + process + " accepted " + (k - process - 1) + " of " + (size - process - 1)
                  + " peers within " + timeout);
        }
        s.setTcpNoDelay(true);
        s.setSoTimeout(left);
        DataInputStream in = new DataInputStream(s.getInputStream());
        int magic = in.readInt();
        int from = in.readInt();
        byte[] proof = new byte[32];
        in.readFully(proof);
        s.setSoTimeout(0);
        if (magic != MAGIC || from <= process || from >= size || t.sockets[from] != null
            || !MessageDigest.isEqual(proof, mac(secret, from, process))) {
          s.close();
          throw new IOException("sockets: process " + process + " refused a peer claiming process " + from
              + " (bad magic, duplicate or wrong secret)");
        }
        t.attach(from, s, new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16)));
      }
      return t;
    } catch (IOException | RuntimeException e) {
      t.close();
      throw e;
    }
  }

  private static long remainingMillis(long deadline) {
    return TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
  }

  private static byte[] mac(byte[] secret, int from, int to) {
    return Hmac.sha256(secret, ("layout:" + from + "->" + to).getBytes(StandardCharsets.UTF_8));
  }

  private void attach(int peer, Socket s, DataOutputStream o) throws IOException {
    sockets[peer] = s;
    out[peer] = o;
    DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
    Thread reader = new Thread(() -> read(peer, in), "layout-sockets-p" + process + "<-p" + peer);
    reader.setDaemon(true);
    reader.start();
  }

  private void read(int peer, DataInputStream in) {
    try {
      while (true) {
        long context = in.readLong();
        int tag = in.readInt();
        int len = in.readInt();
        byte[] payload = new byte[len];
        in.readFully(payload);
        queue(new Key(peer, context, tag)).add(payload);
      }
    } catch (EOFException e) {
      // the peer closed its end
    } catch (IOException e) {
      // reset or closed locally
    } finally {
      synchronized (peerGone) {
        peerGone[peer] = true;
      }
      queues.forEach((k, q) -> {
        if (k.source == peer) {
          q.add(POISON);
        }
      });
    }
  }

  private LinkedBlockingQueue<byte[]> queue(Key k) {
    return queues.computeIfAbsent(k, x -> new LinkedBlockingQueue<>());
  }

  @Override
  public int process() {
    return process;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public void send(int dest, long context, int tag, byte[] payload) throws IOException {
    check("send", "dest", dest);
    if (payload == null) {
      throw new IllegalArgumentException("send: payload null (expected: a byte array)");
    }
    if (closed) {
      throw new IOException("send: transport closed (process " + process + " -> process " + dest + ")");
    }
    sentMessages.incrementAndGet();
    sentBytes.addAndGet(payload.length);
    if (dest == process) {
      queue(new Key(process, context, tag)).add(payload.clone());
      return;
    }
    DataOutputStream o = out[dest];
    synchronized (o) {
      o.writeLong(context);
      o.writeInt(tag);
      o.writeInt(payload.length);
      o.write(payload);
      o.flush();
    }
  }

  @Override
  public byte[] receive(int source, long context, int tag, Duration timeout) throws IOException {
    check("receive", "source", source);
    if (timeout == null || timeout.isNegative()) {
      throw new IllegalArgumentException("receive: timeout " + timeout + " (expected: >= 0)");
    }
    if (closed) {
      throw new IOException("receive: transport closed (process " + process + " <- process " + source + ")");
    }
    LinkedBlockingQueue<byte[]> q = queue(new Key(source, context, tag));
    synchronized (peerGone) {
      if (peerGone[source] && q.isEmpty()) {
        throw new IOException("receive: process " + source + " disconnected (process " + process + " waiting)");
      }
    }
    byte[] m;
    try {
      m = q.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("receive: interrupted (process " + process + " <- process " + source + ")", e);
    }
    if (m == null) {
      throw new TransportTimeoutException("receive: no message from process " + source + " context " + context
          + " tag " + tag + " within " + timeout + " (process " + process + ")");
    }
    if (m == POISON) {
      q.add(POISON);
      throw new IOException("receive: " + (closed ? "transport closed" : "process " + source + " disconnected")
          + " (process " + process + " waiting for context " + context + " tag " + tag + ")");
    }
    return m;
  }

  private void check(String op, String arg, int p) {
    if (p < 0 || p >= size) {
      throw new IllegalArgumentException(op + ": " + arg + " " + p + " (expected: 0.." + (size - 1) + ")");
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

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Socket s : sockets) {
      if (s != null) {
        try {
          s.close();
        } catch (IOException ignored) {
          // best effort
        }
      }
    }
    queues.values().forEach(q -> q.add(POISON));
  }

  @Override
  public String toString() {
    return "sockets(process " + process + " of " + size + ")";
  }
}
