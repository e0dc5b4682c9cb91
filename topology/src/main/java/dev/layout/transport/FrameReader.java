package dev.layout.transport;

import static dev.layout.transport.Frame.ABORT;
import static dev.layout.transport.Frame.BYE;
import static dev.layout.transport.Frame.CREDIT;
import static dev.layout.transport.Frame.CTS;
import static dev.layout.transport.Frame.DATA;
import static dev.layout.transport.Frame.DONE;
import static dev.layout.transport.Frame.EAGER;
import static dev.layout.transport.Frame.REPORT;
import static dev.layout.transport.Frame.RTS;

import dev.layout.transport.Arrival.Eager;
import dev.layout.transport.Arrival.Rts;
import dev.layout.transport.MatchQueue.Key;
import dev.layout.transport.Rendezvous.DiscardSink;
import dev.layout.transport.Rendezvous.Incoming;
import dev.layout.transport.Rendezvous.Outgoing;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The reader thread of one {@link Connection}: checks each frame before anything is allocated for
 * it (source, sequence, length, credit, pending requests; a violation drops the peer and is kept in
 * the transport's rejections) and dispatches it: eager messages and send requests to the match
 * queue, clear-to-send to the waiting send, data into the posted receive's sink, credit to the
 * connection, completion reports to the send that awaits them; an eager or data frame whose sender
 * asked for a completion report is answered with the time to its last byte (from the eager frame's
 * header, or from the receive's clear-to-send: see {@link CompletionReports}).
 */
final class FrameReader implements Runnable {
    /** Most unmatched send requests a peer may have queued here. */
    static final int MAX_PENDING_RTS = 1 << 16;

    private final TcpContext ctx;
    private final Connection c;
    private final MatchQueue<Arrival> mailbox;
    private final ConnectionTable table;

    FrameReader(TcpContext ctx, Connection c, MatchQueue<Arrival> mailbox, ConnectionTable table) {
        this.ctx = ctx;
        this.c = c;
        this.mailbox = mailbox;
        this.table = table;
    }

    @Override
    public void run() {
        ByteBuffer h = ByteBuffer.allocateDirect(Frame.HEADER);
        try {
            while (true) {
                h.clear();
                if (!c.readHeader(h)) {
                    if (c.byeReceived) {
                        c.closedByPeer();
                        return;
                    }
                    throw new EOFException("connection closed by process " + c.peer + " (" + ctx.endpoint(c.peer)
                            + ") at stream offset " + c.readOffset);
                }
                h.flip();
                long frameOffset = c.readOffset - Frame.HEADER;
                Frame f = Frame.read(h);
                byte type = f.type();
                int source = f.source();
                long context = f.context();
                int tag = f.tag();
                long seq = f.seq();
                long length = f.length();
                int id = f.id();
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
                if (f.flags() != 0 && !((type == RTS || type == EAGER) && f.flags() == REPORT)) {
                    throw c.violation(
                            frameOffset,
                            "flags " + f.flags() + " on a frame of type " + type + " (expected: 0, or " + REPORT
                                    + " on a send request or an eager message)");
                }
                switch (type) {
                    case EAGER -> {
                        if (length > ctx.options.maxMessageBytes() || !c.credit.admit(length)) {
                            throw c.violation(
                                    frameOffset,
                                    "eager message of " + length + " bytes exceeds the granted buffer ("
                                            + c.credit.buffered() + " of " + ctx.options.peerBufferBytes()
                                            + " bytes in use)");
                        }
                        long started = System.nanoTime();
                        byte[] data = new byte[(int) length];
                        c.readBody(ByteBuffer.wrap(data));
                        if (f.flags() == REPORT) {
                            // owed before the receive can take it: a reply its thread sends carries the report
                            c.owe(context, tag, id, System.nanoTime() - started);
                        }
                        mailbox.put(new Key(c.peer, context, tag), new Eager(c, data));
                    }
                    case RTS -> {
                        if (length > ctx.options.maxMessageBytes()) {
                            throw c.violation(
                                    frameOffset,
                                    "message of " + length + " bytes (expected: <= maxMessageBytes "
                                            + ctx.options.maxMessageBytes() + ")");
                        }
                        if (c.pendingRts.incrementAndGet() > MAX_PENDING_RTS) {
                            throw c.violation(frameOffset, "more than " + MAX_PENDING_RTS + " unmatched send requests");
                        }
                        mailbox.put(new Key(c.peer, context, tag), new Rts(c, id, length, f.flags() == REPORT));
                    }
                    case CTS -> {
                        Outgoing o = c.outgoing.remove(id);
                        if (o == null) {
                            throw c.violation(frameOffset, "clear-to-send for unknown message " + id);
                        }
                        if (o.onClear != null) {
                            o.onClear.run();
                        } else if (!o.clear.complete(null)) {
                            ctx.workers.execute(() -> {
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
                            throw c.violation(
                                    frameOffset,
                                    "data frame for message " + id + " of " + length + " bytes ("
                                            + (inc == null
                                                    ? "no receive waits for it"
                                                    : "expected: " + inc.length + " bytes")
                                            + ")");
                        }
                        c.incoming.remove(id);
                        // a report counts from the clear-to-send: the time from there to this header (the
                        // sender's start, and however much of the message the socket took meanwhile,
                        // which differs between packing and gathering) is part of the transfer
                        long started = inc.clearedAt;
                        if (inc.state.compareAndSet(Incoming.WAITING, Incoming.RECEIVING)) {
                            try {
                                inc.sink.consume(c, length);
                            } catch (IOException | RuntimeException e) {
                                inc.done.completeExceptionally(e);
                                throw e;
                            }
                            if (inc.report) {
                                // owed before the receive completes: a reply its thread sends carries the report
                                c.owe(context, tag, id, System.nanoTime() - started);
                            }
                            inc.done.complete(null);
                        } else {
                            new DiscardSink().consume(c, length);
                            if (inc.report) {
                                c.owe(context, tag, id, System.nanoTime() - started);
                            }
                        }
                    }
                    case DONE -> {
                        if (!c.reports.complete(id, length)) {
                            throw c.violation(
                                    frameOffset,
                                    "completion report for message " + id
                                            + " (expected: one, for a message sent with a report request)");
                        }
                    }
                    case ABORT -> {
                        Incoming inc = c.incoming.remove(id);
                        if (inc != null) {
                            inc.done.completeExceptionally(new IOException(
                                    "process " + c.peer + " abandoned message " + id + " (its send timed out)"));
                        }
                    }
                    case CREDIT -> c.credit.returned(length);
                    case BYE -> {
                        c.byeReceived = true;
                        table.peerClosed(
                                c.peer,
                                new IOException(
                                        "process " + c.peer + " (" + ctx.endpoint(c.peer) + ") closed its transport"));
                    }
                    default -> throw c.violation(frameOffset, "unknown frame type " + type);
                }
            }
        } catch (ProtocolViolation e) {
            ctx.reject(e.getMessage());
            c.fail(e);
        } catch (IOException | RuntimeException e) {
            IOException io = e instanceof IOException x ? x : new IOException(e.toString(), e);
            if (c.failure == null && !ctx.closed.get()) {
                if (!(io.getMessage() != null && io.getMessage().startsWith("connection closed by process"))) {
                    io = new IOException(
                            "connection to process " + c.peer + " (" + ctx.endpoint(c.peer)
                                    + ") failed at stream offset " + c.readOffset + ": " + io.getMessage(),
                            io);
                }
            }
            c.fail(io);
        }
    }
}
