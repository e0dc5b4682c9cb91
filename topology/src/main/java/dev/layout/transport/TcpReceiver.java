package dev.layout.transport;

import static dev.layout.transport.Frame.CTS;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.transport.Arrival.Eager;
import dev.layout.transport.Arrival.Rts;
import dev.layout.transport.MatchQueue.Key;
import dev.layout.transport.Rendezvous.ArraySink;
import dev.layout.transport.Rendezvous.DiscardSink;
import dev.layout.transport.Rendezvous.Incoming;
import dev.layout.transport.Rendezvous.SegmentSink;
import dev.layout.transport.Rendezvous.Sink;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The receive side of a {@link TcpTransport}: takes the oldest arrival of a receive's key from the
 * {@link MatchQueue}, returns an eager message's credit to its connection once consumed, and for a
 * rendezvous request posts the destination {@link Sink}, answers clear-to-send and waits for the
 * reader thread to move the data in. Arguments are checked by the facade before they get here.
 */
final class TcpReceiver {
    private final TcpContext ctx;
    private final MatchQueue<Arrival> mailbox;
    private final ConnectionTable connections;

    TcpReceiver(TcpContext ctx, MatchQueue<Arrival> mailbox, ConnectionTable connections) {
        this.ctx = ctx;
        this.mailbox = mailbox;
        this.connections = connections;
    }

    /** See {@link TcpTransport#receive}. */
    byte[] receive(int source, long context, int tag, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Key key = new Key(source, context, tag);
        Arrival e = take(key, timeout, "receive");
        if (e instanceof Eager eager) {
            consumed(eager);
            return eager.data();
        }
        Rts r = (Rts) e;
        ArraySink sink = new ArraySink(new byte[(int) r.length()]);
        awaitRendezvous("receive", key, r, sink, deadline, timeout);
        return sink.array;
    }

    /** See {@link TcpTransport#receiveTyped}; {@code seg} is the checked destination. */
    long receiveTyped(
            int source,
            long context,
            int tag,
            Segment seg,
            Datatype type,
            long count,
            Memory memory,
            long origin,
            Duration timeout)
            throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Key key = new Key(source, context, tag);
        Arrival e = take(key, timeout, "receiveTyped");
        long length = e instanceof Eager eg ? eg.data().length : ((Rts) e).length();
        // validated before any byte reaches the memory: an eager body is complete here, a rendezvous
        // body has not been asked for yet (its DATA frame must then carry exactly the announced length)
        String invalid = ReceiveChecks.violation(type, seg.byteSize(), length);
        if (invalid != null) {
            if (e instanceof Eager eg) {
                consumed(eg);
            } else {
                Rts r = (Rts) e;
                r.conn().incoming.put(r.msgId(), new Incoming(new DiscardSink(), r.length(), r.report()));
                r.conn().writeFrame("receiveTyped", CTS, context, tag, r.msgId(), 0, null);
            }
            throw new IOException("receiveTyped: message of " + length + " bytes from process " + source + " ("
                    + ctx.endpoint(source) + ", context " + Long.toHexString(context) + ", tag " + tag + ") " + invalid
                    + "; the message was dropped and the memory left untouched");
        }
        if (e instanceof Eager eg) {
            seg.unpack(Memory.ofArray(eg.data()), 0, eg.data().length);
            consumed(eg);
            return length;
        }
        awaitRendezvous(
                "receiveTyped", key, (Rts) e, new SegmentSink(seg, memory, origin, type, count), deadline, timeout);
        return length;
    }

    /** The oldest arrival of key (a taken send request no longer counts against its peer's limit). */
    private Arrival take(Key key, Duration timeout, String op) throws IOException {
        Arrival e = mailbox.take(key, timeout, op, k -> stopWaiting(op, k));
        if (e instanceof Rts r) {
            r.conn().pendingRts.decrementAndGet();
        }
        return e;
    }

    private IOException stopWaiting(String op, Key key) {
        if (ctx.closed.get()) {
            return new IOException(op + ": transport closed while process " + ctx.process + " waited for process "
                    + key.source() + " (context " + Long.toHexString(key.context()) + ", tag " + key.tag() + ")");
        }
        IOException gone = connections.gone(key.source());
        return gone == null
                ? null
                : new IOException(
                        op + ": no message from process " + key.source() + " ("
                                + ctx.endpoint(key.source()) + ", context " + Long.toHexString(key.context()) + ", tag "
                                + key.tag() + "): "
                                + gone.getMessage(),
                        gone);
    }

    private void awaitRendezvous(String op, Key key, Rts r, Sink sink, long deadline, Duration timeout)
            throws IOException {
        Connection c = r.conn();
        Incoming inc = new Incoming(sink, r.length(), r.report());
        c.incoming.put(r.msgId(), inc);
        if (c.failure != null) {
            c.incoming.remove(r.msgId());
            throw c.failure(op);
        }
        inc.clearedAt = System.nanoTime();
        c.writeFrame(op, CTS, key.context(), key.tag(), r.msgId(), 0, null);
        try {
            long left = deadline - System.nanoTime();
            inc.done.get(Math.max(0, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            String what =
                    op + ": message from process " + key.source() + " (" + ctx.endpoint(key.source()) + ", context "
                            + Long.toHexString(key.context()) + ", tag " + key.tag() + ", " + r.length()
                            + " bytes) did not arrive within "
                            + timeout;
            if (inc.state.compareAndSet(Incoming.WAITING, Incoming.CANCELLED)) {
                throw new TransportTimeoutException(what);
            }
            // the data is flowing into the destination: a stalled transfer costs the connection
            c.fail(new TransportTimeoutException(what + " (transfer stalled at stream offset " + c.readOffset + ")"));
            throw new TransportTimeoutException(what);
        } catch (ExecutionException e) {
            throw ctx.asIo(op, key.source(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(op + ": interrupted while waiting for process " + key.source());
        }
    }

    private static void consumed(Eager e) {
        if (e.conn() != null) {
            e.conn().returnCredit(e.data().length);
        }
    }
}
