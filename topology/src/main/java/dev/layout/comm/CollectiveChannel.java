package dev.layout.comm;

import dev.layout.topology.Topology;
import dev.layout.transport.Transport;
import dev.layout.transport.TypedRegion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * Low-level message access for collective algorithms (package {@code dev.layout.collective}): sends
 * and receives on the communicator's collective context, tagged with a per-call sequence number,
 * without the adjacency restriction of point-to-point (an algorithm may route through any member,
 * as an MPI library does). Application code should call the collectives instead.
 *
 * <p>Every rank takes sequence numbers in the same order (one per collective call, in program
 * order), so concurrent non-blocking collectives never mix their messages.
 */
public final class CollectiveChannel {

    private final Communicator.State state;

    CollectiveChannel(Communicator.State state) {
        this.state = state;
    }

    public int rank() {
        return state.rank;
    }

    public int size() {
        return state.group.size();
    }

    /** Remote group size on a bipartite communicator, 0 otherwise. */
    public int remoteSize() {
        return state.remote == null ? 0 : state.remote.size();
    }

    public Topology topology() {
        return state.topology;
    }

    public Duration timeout() {
        return state.timeout;
    }

    /** The next collective sequence number of this communicator. */
    public int nextSequence() {
        return state.sequence.getAndIncrement() & 0x7fffffff;
    }

    /**
     * Sends to {@code peer}: a rank of this communicator, or of the remote group on a bipartite one.
     */
    public void send(String op, int seq, int peer, byte[] data) {
        try {
            state.transport.send(state.peerProcess(peer), state.collectiveContext(), seq, data);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    op + ": rank " + state.rank + " sending to rank " + peer + ": " + e.getMessage(), e);
        }
    }

    /**
     * Sends to {@code peer} as {@link #send}, handing {@code data} over to the transport ({@link
     * dev.layout.transport.Transport#sendOwned}): for arrays the algorithm made for this message and
     * never touches again.
     */
    public void sendOwned(String op, int seq, int peer, byte[] data) {
        try {
            state.transport.sendOwned(state.peerProcess(peer), state.collectiveContext(), seq, data);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    op + ": rank " + state.rank + " sending to rank " + peer + ": " + e.getMessage(), e);
        }
    }

    /**
     * Posts a receive from {@code peer} into {@code into} ({@link Transport#postReceive}); {@link
     * #await} waits for it. Pairs with {@link #sendToPosted} of the same sequence number.
     */
    public Transport.PostedReceive postReceive(String op, int seq, int peer, TypedRegion into) {
        try {
            return state.transport.postReceive(state.peerProcess(peer), state.collectiveContext(), seq, into);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    op + ": rank " + state.rank + " posting a receive for rank " + peer + ": " + e.getMessage(), e);
        }
    }

    /** Waits at most the communicator timeout for a receive posted for {@code peer}; returns the bytes sent. */
    public long await(String op, int peer, Transport.PostedReceive posted) {
        try {
            return posted.await(state.timeout);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    op + ": rank " + state.rank + " waiting for rank " + peer + ": " + e.getMessage(), e);
        }
    }

    /** Sends {@code from} to the receive {@code peer} posted for it ({@link Transport#sendToPosted}). */
    public void sendToPosted(String op, int seq, int peer, TypedRegion from) {
        try {
            state.transport.sendToPosted(state.peerProcess(peer), state.collectiveContext(), seq, from, state.timeout);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    op + ": rank " + state.rank + " sending to rank " + peer + ": " + e.getMessage(), e);
        }
    }

    /** Receives from {@code peer} (see {@link #send}), waiting at most the communicator timeout. */
    public byte[] receive(String op, int seq, int peer) {
        try {
            return state.transport.receive(state.peerProcess(peer), state.collectiveContext(), seq, state.timeout);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    op + ": rank " + state.rank + " waiting for rank " + peer + ": " + e.getMessage(), e);
        }
    }

    /** The executor running this communicator's non-blocking collectives. */
    public ExecutorService executor() {
        return state.executor();
    }

    /** Messages sent so far by this process's transport endpoint (all communicators). */
    public long sentMessages() {
        return state.transport.sentMessages();
    }
}
