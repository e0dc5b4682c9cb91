package dev.layout.transport;

import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;

/**
 * A thread's gathering writes of typed messages, made without allocating once repeated: the
 * header and the message's blocks go to the socket in writes of up to a batch of buffers and a
 * chunk of bytes, each block (or piece of a long one) a view of the user's memory. Kept per thread
 * (the thread that sends also writes, under the connection's lock): the views of the last memory
 * gathered from, one per block of a batch, moved over each block in turn (a view per block made
 * some 120 bytes per block and send), and the
 * flattened blocks of the last {@link #KEPT} (type, count) pairs gathered, told apart by the type's
 * identity (flattening made a piece per block). So a thread holds the last memory it gathered from
 * until it gathers from another one, and at most {@link #MOST_KEPT_BLOCKS} blocks per pair kept; a
 * message with more blocks is flattened anew per batch (there the write calls, a batch of blocks
 * each, cost far more than the pieces).
 */
final class GatherWrite {
    /** (type, count) pairs whose blocks a thread keeps: a few types in turn (a halo's rows and columns) all hit. */
    static final int KEPT = 4;
    /** Most blocks kept per pair (16 bytes each). */
    static final int MOST_KEPT_BLOCKS = 1 << 16;
    /**
     * Most bytes of blocks one write call carries (as many as a packed message's chunk): a longer block
     * is cut. Exploits: the socket streams a message written a chunk per call to a receiver already
     * reading, as the packing path does, where one call for a whole long block ran well behind packing
     * it (benchmarks/graph-and-pingpong.md, eleventh round).
     */
    static final long MOST_BYTES_PER_WRITE = Connection.CHUNK;

    private static final ThreadLocal<GatherWrite> OF_THREAD = ThreadLocal.withInitial(GatherWrite::new);

    private Memory memory; // the memory gathered from last
    private ByteBuffer view; // its buffer view, null if it has none
    private ByteBuffer[] views = new ByteBuffer[0]; // views[i]: the buffer of batch slot i + 1, a view of view
    private ByteBuffer[] iov = new ByteBuffer[0]; // the header, then a batch of blocks
    private final Datatype[] types = new Datatype[KEPT];
    private final long[] counts = new long[KEPT];
    private final long[][] offsets = new long[KEPT][];
    private final long[][] lengths = new long[KEPT][];
    private final int[] blocks = new int[KEPT];
    private int replace; // the pair replaced next
    private int filled; // slots of iov filled
    private long filledBytes; // bytes of the blocks in iov
    private boolean headerOut;
    private long firstWrite;

    private GatherWrite() {}

    /**
     * This thread's gathering write over {@code memory}, or null if the memory has no {@link
     * Memory#asByteBuffer() buffer view} (a raw address, or over 2 GiB): such a message is packed.
     */
    static GatherWrite over(Memory memory) {
        GatherWrite g = OF_THREAD.get();
        if (memory != g.memory) {
            g.memory = memory;
            g.view = memory.asByteBuffer().orElse(null);
            Arrays.fill(g.views, null);
        }
        return g.view == null ? null : g;
    }

    /**
     * Writes {@code header} and then the blocks of {@code seg} (a segment over the memory of {@link
     * #over}, at byte {@code origin}) to {@code ch}, up to {@code batch} blocks and {@link
     * #MOST_BYTES_PER_WRITE} bytes per write call.
     * Returns the {@link System#nanoTime()} at which the first write call started.
     */
    long write(SocketChannel ch, ByteBuffer header, Segment seg, long origin, int batch) throws IOException {
        if (iov.length != batch + 1) {
            iov = new ByteBuffer[batch + 1];
            views = new ByteBuffer[batch];
        }
        iov[0] = header;
        filled = 1;
        filledBytes = 0;
        headerOut = false;
        firstWrite = 0;
        int e = kept(seg, batch);
        if (e >= 0) {
            long[] off = offsets[e];
            long[] len = lengths[e];
            for (int b = 0; b < blocks[e]; b++) {
                add(ch, origin + off[b], len[b]);
            }
        } else {
            for (List<Piece> pieces = seg.flatten(batch); !pieces.isEmpty(); pieces = seg.flatten(batch)) {
                for (Piece p : pieces) {
                    add(ch, origin + p.offset(), p.length());
                }
            }
        }
        if (filled > 1 || !headerOut) {
            flush(ch);
        }
        return firstWrite;
    }

    /**
     * Adds the block of {@code length} bytes at {@code at} of the memory to the batch, writing a full
     * batch (of blocks, or of {@link #MOST_BYTES_PER_WRITE} bytes: a longer block goes in pieces).
     */
    private void add(SocketChannel ch, long at, long length) throws IOException {
        while (length > 0) {
            long piece = Math.min(length, MOST_BYTES_PER_WRITE - filledBytes);
            ByteBuffer v = views[filled - 1];
            if (v == null) {
                v = views[filled - 1] = view.duplicate();
            }
            v.limit((int) (at + piece)).position((int) at);
            iov[filled++] = v;
            filledBytes += piece;
            if (filled == iov.length || filledBytes == MOST_BYTES_PER_WRITE) {
                flush(ch);
            }
            at += piece;
            length -= piece;
        }
    }

    /** Writes the batch (the header first, with the first one). */
    private void flush(SocketChannel ch) throws IOException {
        int from = headerOut ? 1 : 0;
        if (firstWrite == 0) {
            firstWrite = System.nanoTime();
        }
        int i = from;
        while (i < filled) {
            ch.write(iov, i, filled - i);
            while (i < filled && !iov[i].hasRemaining()) {
                i++;
            }
        }
        headerOut = true;
        filled = 1;
        filledBytes = 0;
    }

    /** The kept pair of seg's type and count (flattening it first if it has few enough blocks), or -1. */
    private int kept(Segment seg, int batch) {
        Datatype type = seg.type();
        long count = seg.count();
        for (int e = 0; e < KEPT; e++) {
            if (types[e] == type && counts[e] == count) {
                return e;
            }
        }
        long[] off = new long[16];
        long[] len = new long[16];
        int n = 0;
        for (List<Piece> pieces = seg.flatten(batch); !pieces.isEmpty(); pieces = seg.flatten(batch)) {
            if (n + pieces.size() > MOST_KEPT_BLOCKS) {
                seg.seek(0);
                return -1;
            }
            if (n + pieces.size() > off.length) {
                int grown = Math.max(2 * off.length, n + pieces.size());
                off = Arrays.copyOf(off, grown);
                len = Arrays.copyOf(len, grown);
            }
            for (Piece p : pieces) {
                off[n] = p.offset();
                len[n++] = p.length();
            }
        }
        seg.seek(0);
        int e = replace;
        replace = (replace + 1) % KEPT;
        types[e] = type;
        counts[e] = count;
        offsets[e] = off;
        lengths[e] = len;
        blocks[e] = n;
        return e;
    }
}
