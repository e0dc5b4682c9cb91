package dev.layout.transport;

import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The state of rendezvous messages in flight on a {@link Connection}: sends waiting for
 * clear-to-send, receives waiting for their data, and the sinks the reader thread moves a data
 * frame's body into (an array, the receive type's memory, or nowhere).
 */
final class Rendezvous {
    private Rendezvous() {}

    /** A rendezvous send waiting for its clear-to-send: onClear runs then (buffered sends), else clear completes. */
    static final class Outgoing {
        final CompletableFuture<Void> clear = new CompletableFuture<>();
        final Runnable onClear;

        Outgoing(Runnable onClear) {
            this.onClear = onClear;
        }
    }

    /**
     * A posted receive waiting for its data frame; state goes WAITING to RECEIVING or CANCELLED, once.
     * report: the sender asked to be told when the data is consumed ({@link Frame#REPORT}).
     */
    static final class Incoming {
        static final int WAITING = 0;
        static final int RECEIVING = 1;
        static final int CANCELLED = 2;
        final AtomicInteger state = new AtomicInteger(WAITING);
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final Sink sink;
        final long length;
        final boolean report;
        /**
         * When the receive wrote its clear-to-send (System.nanoTime): a report's time runs from here,
         * so that it covers the sender's start and the data that reached the socket before the reader
         * read the frame's header.
         */
        volatile long clearedAt;

        Incoming(Sink sink, long length, boolean report) {
            this.sink = sink;
            this.length = length;
            this.report = report;
            this.clearedAt = System.nanoTime(); // re-stamped just before the clear-to-send is written
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
            long blocks = TcpTransport.estimateBlocks(seg);
            if (view.isPresent()
                    && view.get().isDirect()
                    && blocks > 0
                    && seg.byteSize() / blocks >= TcpTransport.SCATTER_MIN_BLOCK) {
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
}
