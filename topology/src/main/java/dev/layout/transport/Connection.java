package dev.layout.transport;

import dev.layout.dataloop.Segment;
import dev.layout.memory.Memory;
import dev.layout.transport.Rendezvous.Incoming;
import dev.layout.transport.Rendezvous.Outgoing;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ObjIntConsumer;

/**
 * One authenticated connection to a peer process: the ordered writing of frames (one writer at a
 * time, every write guarded against a peer that stops reading), the reader thread's primitives,
 * the connection's credit and its rendezvous messages in flight, and failing all of them at once
 * when the connection is lost.
 */
final class Connection {
    /** Size of the staging buffers (packing, small frames, chunked reads). */
    static final int CHUNK = 256 << 10;

    private final TcpContext ctx;
    private final ObjIntConsumer<IOException> lost;
    final int peer;
    final SocketChannel ch;
    final ReentrantLock writeLock = new ReentrantLock();
    /** The completion reports owed to the peer, then the header of the frame being written. */
    private final ByteBuffer header = ByteBuffer.allocateDirect((CompletionReports.MAX_PENDING + 1) * Frame.HEADER);

    ByteBuffer staging;
    /** {@link #staging} as engine memory (made with it: a packing write allocates nothing). */
    private Memory stage;

    ByteBuffer readStaging;
    long sendSeq;
    long writeOffset;
    long recvSeq;
    volatile long readOffset;
    final CreditFlow credit;
    final AtomicLong pendingRts = new AtomicLong();
    final AtomicInteger nextMsgId = new AtomicInteger();
    final Map<Integer, Outgoing> outgoing = new ConcurrentHashMap<>();
    final Map<Integer, Incoming> incoming = new ConcurrentHashMap<>();
    final CompletionReports reports = new CompletionReports();
    private final ReportOutbox outbox = new ReportOutbox();
    private final ReportOutbox.Sink putReport = this::putReport; // made once: a frame allocates nothing for it
    volatile IOException failure;
    private volatile long writeSince; // when the write in progress started, 0 when none
    private volatile String writeOp; // its operation and stream offset, for the stall's message
    private volatile long writeAt;
    private volatile ScheduledFuture<?> stallCheck; // the periodic check of writeSince
    volatile boolean byeReceived;
    Thread reader;

    /**
     * @param budget the buffer the peer granted this side
     * @param lost told (peer, cause) once when the connection fails
     */
    Connection(TcpContext ctx, int peer, SocketChannel ch, long budget, ObjIntConsumer<IOException> lost) {
        this.ctx = ctx;
        this.peer = peer;
        this.ch = ch;
        this.credit = new CreditFlow(budget, ctx.options.peerBufferBytes());
        this.lost = lost;
    }

    IOException failure(String op) {
        IOException f = failure;
        return new IOException(
                op + ": connection to process " + peer + " (" + ctx.endpoint(peer) + ") is gone: "
                        + (f == null ? "closed" : f.getMessage()),
                f);
    }

    ProtocolViolation violation(long offset, String what) {
        return new ProtocolViolation("protocol violation by process " + peer + " (" + ctx.endpoint(peer)
                + ") at stream offset " + offset + ": " + what);
    }

    boolean tryTakeCredit(long n) {
        return credit.tryTake(n);
    }

    void returnCredit(long n) {
        long give = credit.consumed(n);
        if (give > 0) {
            try {
                writeFrame("receive", Frame.CREDIT, 0, 0, 0, give, null);
            } catch (IOException e) {
                fail(e);
            }
        }
    }

    // ------------------------------------------------------------ writing

    private void lockForWrite(String op) throws IOException {
        if (failure != null) {
            throw failure(op);
        }
        try {
            if (!writeLock.tryLock(ctx.options.sendTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
                throw new TransportTimeoutException(op + ": connection to process " + peer + " (" + ctx.endpoint(peer)
                        + ") busy for " + ctx.options.sendTimeout());
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

    /**
     * Marks the start of a write (write lock held): a write that has not ended after the send timeout
     * (a peer that stopped reading) fails the connection. One periodic check per connection, started
     * at its first write, instead of a timer per write: a write allocates nothing for its guard.
     */
    private void beginWrite(String op) {
        writeOp = op;
        writeAt = writeOffset;
        writeSince = System.nanoTime() | 1; // never 0, which means no write
        if (stallCheck == null) {
            long every = Math.max(1_000_000, ctx.options.sendTimeout().toNanos() / 4);
            try {
                stallCheck = ctx.watchdog.scheduleWithFixedDelay(this::checkStall, every, every, TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // the transport is closing: its close bounds the writes
            }
        }
    }

    /** Fails the connection if the write in progress has lasted longer than the send timeout. */
    private void checkStall() {
        if (failure != null) {
            stallCheck.cancel(false);
            return;
        }
        long since = writeSince;
        long timeout = ctx.options.sendTimeout().toNanos();
        if (since != 0 && System.nanoTime() - since > timeout) {
            fail(new TransportTimeoutException(writeOp + ": write to process " + peer + " (" + ctx.endpoint(peer)
                    + ") stalled for " + ctx.options.sendTimeout() + " at stream offset " + writeAt));
        }
    }

    /** Fails this connection with the offset a write stopped at, and returns the failure to throw. */
    private IOException writeFailed(String op, IOException e) {
        if (failure != null) { // failed meanwhile, e.g. the write stalled: that is the cause to report
            return failure(op);
        }
        IOException f = new IOException(
                op + ": write to process " + peer + " (" + ctx.endpoint(peer) + ") failed at stream offset "
                        + writeOffset + ": " + e.getMessage(),
                e);
        fail(f);
        return f;
    }

    private void endWrite() {
        writeSince = 0;
        writeLock.unlock();
    }

    /** Fills header with the reports owed to the peer and the header of a frame (write lock held). */
    private void fillHeader(byte type, byte flags, long context, int tag, int id, long length) {
        header.clear();
        outbox.drain(putReport);
        Frame.put(header, type, flags, ctx.process, context, tag, sendSeq++, length, id);
        header.flip();
    }

    private void putReport(long context, int tag, int id, long receiverNanos) {
        Frame.put(header, Frame.DONE, (byte) 0, ctx.process, context, tag, sendSeq++, receiverNanos, id);
    }

    /** A frame whose body (if any) is one buffer. */
    void writeFrame(String op, byte type, long context, int tag, int id, ByteBuffer body) throws IOException {
        writeFrame(op, type, context, tag, id, body.remaining(), body);
    }

    void writeFrame(String op, byte type, long context, int tag, int id, long length, ByteBuffer body)
            throws IOException {
        writeFrame(op, type, (byte) 0, context, tag, id, length, body);
    }

    void writeFrame(String op, byte type, byte flags, long context, int tag, int id, long length, ByteBuffer body)
            throws IOException {
        lockForWrite(op);
        writeHeld(op, type, flags, context, tag, id, length, body);
    }

    /**
     * Owes the peer the report of message {@code id} ({@link Frame#REPORT}): it took {@code
     * receiverNanos} to its last byte (see {@link CompletionReports}). It goes out with the next frame
     * written to the peer, or is flushed by a worker (see {@link ReportOutbox}): the reader thread
     * that calls this never writes (two peers each writing a large message to the other would wait
     * for each other's readers).
     */
    void owe(long context, int tag, int id, long receiverNanos) {
        if (failure == null && outbox.add(context, tag, id, receiverNanos, System.nanoTime())) {
            try {
                ctx.workers.execute(this::flushReports);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // the transport is closing: the reports do not matter any more
            }
        }
    }

    /** Writes the reports owed to the peer that no frame took along. */
    private void flushReports() {
        try {
            lockForWrite("receive");
        } catch (IOException e) {
            return; // the connection failed or stays busy: its next frame takes the reports, if any
        }
        if (outbox.isEmpty()) {
            writeLock.unlock();
            return;
        }
        beginWrite("receive");
        try {
            header.clear();
            outbox.drain(putReport);
            header.flip();
            writeOffset += header.remaining();
            TcpContext.writeAll(ch, header);
        } catch (IOException e) {
            writeFailed("receive", e); // the connection is failed: its reader and waiting operations find out
        } finally {
            endWrite();
        }
    }

    /** Writes a frame while holding the write lock, and releases it. */
    private void writeHeld(
            String op, byte type, byte flags, long context, int tag, int id, long length, ByteBuffer body)
            throws IOException {
        beginWrite(op); // a peer that stops reading must not block us forever
        try {
            fillHeader(type, flags, context, tag, id, length);
            if (body != null && body.remaining() > 0 && body.remaining() <= 8192) {
                // one write for small frames
                if (staging == null) {
                    staging = ByteBuffer.allocateDirect(CHUNK);
                }
                staging.clear();
                staging.put(header).put(body).flip();
                writeOffset += staging.remaining();
                TcpContext.writeAll(ch, staging);
                return;
            }
            writeOffset += header.remaining();
            TcpContext.writeAll(ch, header);
            if (body != null) {
                while (body.hasRemaining()) {
                    // heap buffers go through a JDK temporary direct buffer: keep it chunk-sized
                    ByteBuffer part = body.slice(body.position(), Math.min(body.remaining(), 1 << 20));
                    int k = part.remaining();
                    TcpContext.writeAll(ch, part);
                    body.position(body.position() + k);
                    writeOffset += k;
                }
            }
        } catch (IOException e) {
            throw writeFailed(op, e);
        } finally {
            endWrite();
        }
    }

    /**
     * A frame whose body is the packed stream of seg, packed through staging or gathered (with {@code gather}, the
     * sending thread's, over seg's memory).
     * Returns the {@link System#nanoTime()} at which its first write started (its header went out).
     */
    long writeTyped(
            String op,
            byte type,
            byte flags,
            long context,
            int tag,
            int id,
            Segment seg,
            long origin,
            SendStrategy how,
            GatherWrite gather)
            throws IOException {
        lockForWrite(op);
        beginWrite(op);
        try {
            long n = seg.byteSize();
            fillHeader(type, flags, context, tag, id, n);
            int headers = header.remaining();
            long firstWrite = 0;
            if (how == SendStrategy.GATHER) {
                firstWrite = gather.write(
                        ch, header, seg, origin, ctx.options.costModel().batchBlocks());
            } else {
                if (stage == null) {
                    if (staging == null) {
                        staging = ByteBuffer.allocateDirect(CHUNK);
                    }
                    stage = Memory.ofBuffer(staging);
                }
                staging.clear();
                staging.put(header);
                long done = 0;
                int at = headers;
                do {
                    long k = seg.pack(stage, at, Math.min(CHUNK - at, n - done));
                    done += k;
                    staging.position(0).limit((int) (at + k));
                    if (firstWrite == 0) {
                        firstWrite = System.nanoTime();
                    }
                    TcpContext.writeAll(ch, staging);
                    at = 0;
                } while (done < n);
            }
            writeOffset += headers + n;
            return firstWrite;
        } catch (IOException e) {
            throw writeFailed(op, e);
        } finally {
            endWrite();
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
            if (failure == null && writeLock.tryLock(ctx.options.closeTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                try {
                    fillHeader(Frame.BYE, (byte) 0, 0, 0, 0, 0);
                    TcpContext.writeAll(ch, header);
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
                throw new EOFException("connection closed by process " + peer + " (" + ctx.endpoint(peer)
                        + ") inside a frame header at stream offset " + (readOffset + h.position()));
            }
        }
        readOffset += Frame.HEADER;
        return true;
    }

    /** Reads exactly b.remaining() bytes (heap buffers in chunks). */
    void readBody(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ByteBuffer part = b.isDirect() ? b : b.slice(b.position(), Math.min(b.remaining(), CHUNK));
            int r = ch.read(part);
            if (r < 0) {
                throw new EOFException("connection closed by process " + peer + " (" + ctx.endpoint(peer)
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
                throw new EOFException("connection closed by process " + peer + " (" + ctx.endpoint(peer)
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
        fail(new IOException("process " + peer + " (" + ctx.endpoint(peer) + ") closed its transport"));
    }

    void fail(IOException cause) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failure = cause;
        }
        TcpContext.closeQuietly(ch);
        ScheduledFuture<?> check = stallCheck; // set under the write lock; a check started later finds failure set
        if (check != null) {
            check.cancel(false);
        }
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
        reports.clear();
        lost.accept(cause, peer);
    }
}
