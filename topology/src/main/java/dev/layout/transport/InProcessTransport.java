package dev.layout.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Transport} whose processes are threads of one JVM: each endpoint has a mailbox, a send
 * copies the payload into the destination's mailbox.
 *
 * <pre>{@code
 * List<InProcessTransport> endpoints = InProcessTransport.create(4);
 * // hand endpoints.get(i) to the thread playing process i; close any endpoint to shut the fabric
 * }</pre>
 */
public final class InProcessTransport implements Transport {

  private final Fabric fabric;
  private final int process;
  private final Mailbox mailbox = new Mailbox();
  private final AtomicLong sentMessages = new AtomicLong();
  private final AtomicLong sentBytes = new AtomicLong();

  private InProcessTransport(Fabric fabric, int process) {
    this.fabric = fabric;
    this.process = process;
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
    checkProcess("send", "dest", dest);
    if (payload == null) {
      throw new IllegalArgumentException("send: payload null (expected: a byte array)");
    }
    if (fabric.closed.get()) {
      throw new IOException("send: fabric closed (process " + process + " -> process " + dest + ")");
    }
    sentMessages.incrementAndGet();
    sentBytes.addAndGet(payload.length);
    fabric.endpoints[dest].mailbox.put(new Key(process, context, tag), payload.clone());
  }

  @Override
  public byte[] receive(int source, long context, int tag, Duration timeout) throws IOException {
    checkProcess("receive", "source", source);
    if (timeout == null || timeout.isNegative()) {
      throw new IllegalArgumentException("receive: timeout " + timeout + " (expected: >= 0)");
    }
    return mailbox.take(new Key(source, context, tag), timeout);
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
    return Arrays.stream(fabric.endpoints).mapToLong(InProcessTransport::sentMessages).sum();
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
      throw new IllegalArgumentException(
          op + ": " + arg + " " + p + " (expected: 0.." + (fabric.size - 1) + ")");
    }
  }

  private record Key(int source, long context, int tag) {}

  private static final class Fabric {
    final int size;
    final AtomicBoolean closed = new AtomicBoolean();
    InProcessTransport[] endpoints;

    Fabric(int size) {
      this.size = size;
    }
  }

  private final class Mailbox {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final Map<Key, ArrayDeque<byte[]>> queues = new HashMap<>();

    void put(Key key, byte[] payload) {
      lock.lock();
      try {
        queues.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(payload);
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

    byte[] take(Key key, Duration timeout) throws IOException {
      long remaining = timeout.toNanos();
      lock.lock();
      try {
        while (true) {
          ArrayDeque<byte[]> q = queues.get(key);
          if (q != null) {
            byte[] payload = q.pollFirst();
            if (q.isEmpty()) {
              queues.remove(key);
            }
            return payload;
          }
          if (fabric.closed.get()) {
            throw new IOException(
                "receive: fabric closed while process " + process + " waited for process " + key.source
                    + " (context " + Long.toHexString(key.context) + ", tag " + key.tag + ")");
          }
          if (remaining <= 0) {
            throw new TransportTimeoutException(
                "receive: no message from process " + key.source + " to process " + process
                    + " (context " + Long.toHexString(key.context) + ", tag " + key.tag + ") within "
                    + timeout);
          }
          try {
            remaining = arrived.awaitNanos(remaining);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException(
                "receive: interrupted while process " + process + " waited for process " + key.source);
          }
        }
      } finally {
        lock.unlock();
      }
    }
  }

}
