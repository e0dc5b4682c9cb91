package dev.layout.transport;

import dev.layout.dataloop.Segment;
import dev.layout.dataloop.ThreadSegments;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
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
     * The machine this process runs on: processes that report the same host share its disks, cores
     * and network link (collective I/O picks its aggregators per host, as ROMIO's {@code cb_nodes}).
     * This default is the local machine's name, as {@code MPI_Get_processor_name}; a transport whose
     * processes live elsewhere (or are placed on distinct addresses of one machine) may say more.
     */
    default String host() {
        return LocalHost.NAME;
    }

    /**
     * Sends {@code payload} to process {@code dest}.
     *
     * @throws IOException if the fabric is closed or the peer is unreachable
     * @throws IllegalArgumentException if dest is not a process of the fabric
     */
    void send(int dest, long context, int tag, byte[] payload) throws IOException;

    /**
     * Sends {@code payload} to process {@code dest}, handing the array over: the caller never reads
     * or writes it again, so a transport within one JVM may deliver the array itself instead of a
     * copy. For buffers a library made for one message (a collective's packed blocks); {@link #send}
     * keeps its copy semantics for everything else. This default is {@link #send}.
     *
     * @throws IOException as {@link #send}
     * @throws IllegalArgumentException as {@link #send}
     */
    default void sendOwned(int dest, long context, int tag, byte[] payload) throws IOException {
        send(dest, context, tag, payload);
    }

    /**
     * Receives the oldest message from {@code source} with this context and tag, waiting at most
     * {@code timeout}.
     *
     * @throws TransportTimeoutException if no such message arrives in time
     * @throws IOException if the fabric is closed while waiting
     * @throws IllegalArgumentException if source is not a process of the fabric
     */
    byte[] receive(int source, long context, int tag, Duration timeout) throws IOException;

    /**
     * Sends {@code count} elements of {@code type} laid out at byte {@code origin} of {@code memory}
     * (the packed stream, as {@link Segment#pack} produces it). This default packs into an array and
     * calls {@link #send}; a network transport may hand the blocks to the socket directly.
     *
     * @throws IOException as {@link #send}
     * @throws IllegalArgumentException if dest is not a process, or the message exceeds 2 GiB
     * @throws IndexOutOfBoundsException if the type's footprint does not lie in the memory
     */
    default void sendTyped(int dest, long context, int tag, Datatype type, long count, Memory memory, long origin)
            throws IOException {
        Segment s = ThreadSegments.take(type, count, memory, origin);
        byte[] packed;
        try {
            if (s.byteSize() > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(
                        "sendTyped: message of " + s.byteSize() + " bytes (expected: < 2 GiB)");
            }
            packed = new byte[(int) s.byteSize()];
            s.pack(Memory.ofArray(packed), 0, packed.length);
        } finally {
            ThreadSegments.give(s);
        }
        send(dest, context, tag, packed);
    }

    /**
     * Receives the oldest message from {@code source} with this context and tag and unpacks it into
     * {@code count} elements of {@code type} at byte {@code origin} of {@code memory}; returns the
     * bytes received (a message shorter than the type fills a prefix, as MPI does, if it ends on a
     * primitive of the type's signature).
     *
     * @throws IOException as {@link #receive}, or if the message is longer than the type or ends
     *     inside one of its primitives (the message is consumed and the memory left untouched)
     */
    default long receiveTyped(
            int source, long context, int tag, Datatype type, long count, Memory memory, long origin, Duration timeout)
            throws IOException {
        Segment s = ThreadSegments.take(type, count, memory, origin);
        try {
            byte[] data = receive(source, context, tag, timeout);
            String invalid = ReceiveChecks.violation(type, s.byteSize(), data.length);
            if (invalid != null) {
                throw new IOException("receiveTyped: message of " + data.length + " bytes from process " + source
                        + " (context " + Long.toHexString(context) + ", tag " + tag + ") " + invalid
                        + "; the memory was left untouched");
            }
            s.unpack(Memory.ofArray(data), 0, data.length);
            return data.length;
        } finally {
            ThreadSegments.give(s); // used in this thread only
        }
    }

    // ---- receiver-posted (single-copy) messages ------------------------------------------------

    /** A receive posted with {@link #postReceive}: completes when its sender's bytes are in the region. */
    interface PostedReceive {
        /**
         * Waits at most {@code timeout} for the message; returns the bytes its sender sent. The region
         * is filled only if that equals its length; a message of another length leaves it untouched
         * (the caller reports the mismatch).
         *
         * @throws TransportTimeoutException if no sender matched the receive in time (it is withdrawn,
         *     and a later sender no longer matches it)
         * @throws IOException if the fabric is closed while waiting, or the sender failed copying into
         *     the region
         */
        long await(Duration timeout) throws IOException;
    }

    /**
     * Posts a receive from {@code source} with this context and tag into {@code into}, without
     * waiting: the matching {@link #sendToPosted} of a sender in the same JVM copies its bytes
     * straight into the region (one pass, no intermediate array), as MPI libraries do for large
     * messages in shared memory. Posted receives and {@link #sendToPosted} pair with each other only;
     * they are matched in posting order per (source, context, tag). This default receives and
     * unpacks at {@link PostedReceive#await}, matching the packed message the default {@link
     * #sendToPosted} sends (a network transport keeps pack, send and unpack).
     *
     * @throws IllegalArgumentException if source is not a process of the fabric
     */
    default PostedReceive postReceive(int source, long context, int tag, TypedRegion into) throws IOException {
        if (into == null) {
            throw new IllegalArgumentException("postReceive: into null (expected: a TypedRegion)");
        }
        return timeout -> {
            byte[] data = receive(source, context, tag, timeout);
            if (data.length == into.length()) {
                into.unpack(data);
            }
            return data.length;
        };
    }

    /**
     * Sends the bytes of {@code from} to the receive {@code dest} posted for them ({@link
     * #postReceive}), waiting at most {@code timeout} for the post where the copy needs it; when this
     * returns the region may be reused. If reading {@code from} fails, the receive completes at once
     * (failed, or with fewer bytes than posted), never waits for its timeout. This default packs the
     * region and sends it as a message the caller hands over ({@link #sendOwned}); a region that
     * fails to pack is sent as an empty message.
     *
     * @throws TransportTimeoutException if dest posts no matching receive in time
     * @throws IOException as {@link #send}, or if reading the region faulted (a truncated mapping), or
     *     the region did not fit this heap as one array
     * @throws IllegalArgumentException as {@link #send}
     */
    default void sendToPosted(int dest, long context, int tag, TypedRegion from, Duration timeout) throws IOException {
        if (from == null) {
            throw new IllegalArgumentException("sendToPosted: from null (expected: a TypedRegion)");
        }
        byte[] packed;
        try {
            packed = from.pack();
        } catch (RuntimeException | InternalError | OutOfMemoryError e) {
            // An empty message tells the receiver at once (a message shorter than its region), where
            // sending nothing would leave it waiting for its timeout. InternalError: the JVM's report
            // of a fault in the memory (a truncated mapping); OutOfMemoryError: the packed message
            // does not fit this heap (the JVM goes on: only that array was refused).
            try {
                sendOwned(dest, context, tag, new byte[0]);
            } catch (IOException | RuntimeException s) {
                e.addSuppressed(s);
            }
            if (e instanceof Error) {
                throw new IOException("sendToPosted: packing the region for process " + dest + " failed: " + e, e);
            }
            throw e;
        }
        sendOwned(dest, context, tag, packed);
    }

    /** The number of messages this endpoint has sent so far (for tests and cost accounting). */
    long sentMessages();

    /** The number of payload bytes this endpoint has sent so far. */
    long sentBytes();

    /** Closes this endpoint; pending and later receives fail. */
    @Override
    void close();
}
