package dev.layout.transport;

import java.io.IOException;
import java.time.Duration;

/**
 * One process's endpoint of a message fabric connecting {@link #size()} processes numbered {@code
 * 0..size-1}.
 *
 * <p>Messages are byte arrays matched by (context, tag, source). Messages with the same (source,
 * context, tag) arrive in the order they were sent (non-overtaking, as MPI); nothing is promised
 * across different keys. {@link #send} is buffered: it returns without waiting for the receiver,
 * and the caller may reuse the array afterwards. Every {@link #receive} has a timeout.
 *
 * <p>Implementations are thread-safe: several threads of one process may send and receive on
 * different keys at the same time.
 */
public interface Transport extends AutoCloseable {

  /** This endpoint's process number. */
  int process();

  /** The number of processes in the fabric. */
  int size();

  /**
   * Sends {@code payload} to process {@code dest}.
   *
   * @throws IOException if the fabric is closed or the peer is unreachable
   * @throws IllegalArgumentException if dest is not a process of the fabric
   */
  void send(int dest, long context, int tag, byte[] payload) throws IOException;

  /**
   * Receives the oldest message from {@code source} with this context and tag, waiting at most
   * {@code timeout}.
   *
   * @throws TransportTimeoutException if no such message arrives in time
   * @throws IOException if the fabric is closed while waiting
   * @throws IllegalArgumentException if source is not a process of the fabric
   */
  byte[] receive(int source, long context, int tag, Duration timeout) throws IOException;

  /** The number of messages this endpoint has sent so far (for tests and cost accounting). */
  long sentMessages();

  /** The number of payload bytes this endpoint has sent so far. */
  long sentBytes();

  /** Closes this endpoint; pending and later receives fail. */
  @Override
  void close();
}
