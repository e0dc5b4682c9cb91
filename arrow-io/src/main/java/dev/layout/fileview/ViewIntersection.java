package dev.layout.fileview;

import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.util.Arrays;
import java.util.Objects;

/**
 * One process's data in a file view (stream bytes {@code [streamStart, streamStart + length)} of
 * the view, as a {@code write_at}/{@code read_at} at an etype offset touches them) cut by byte
 * ranges of the file: the arithmetic of two-phase I/O. For a file range {@code [lo, hi)} (a file
 * domain, or one cycle of it) {@link #streamRange} says which bytes of the process's packed data
 * fall there, a contiguous run because a view's file offsets never decrease, and {@link #fileType}
 * says where they go as a datatype over a buffer holding {@code [lo, hi)}: the receiving side of
 * an {@code alltoallw} on a write, the sending side on a read. Neither side copies to get there.
 *
 * <pre>{@code
 * ViewIntersection mine = ViewIntersection.of(view, 0, blockBytes);
 * long[] run = mine.streamRange(domainStart, domainEnd);           // {from, to} in my packed data
 * Datatype there = mine.fileType(domainStart, domainEnd);           // hindexed bytes, relative to domainStart
 * }</pre>
 *
 * <p>As MPI requires of views for collective I/O, file offsets must increase along the stream:
 * {@link #fileType} refuses a view whose bytes go back (or repeat) with an {@link
 * IllegalArgumentException} naming the stream byte.
 */
public final class ViewIntersection {
    private final FileView view;
    private final long streamStart;
    private final long length;
    private final RangePlanner planner;
    private final Segment tile;
    /** {@link #fileStart} and {@link #fileEnd}, computed on first use (-1 before). */
    private long fileStart = -1;

    private long fileEnd = -1;

    private ViewIntersection(FileView view, long streamStart, long length) {
        this.view = view;
        this.streamStart = streamStart;
        this.length = length;
        this.planner = new RangePlanner(view, SievingPolicy.adjacentOnly());
        this.tile = Segment.layout(view.filetype(), 1);
    }

    /**
     * The data of {@code length} bytes starting {@code streamStart} bytes into {@code view}'s stream.
     *
     * @throws IllegalArgumentException if streamStart or length is negative
     */
    public static ViewIntersection of(FileView view, long streamStart, long length) {
        Objects.requireNonNull(view, "intersection: view is null");
        if (streamStart < 0 || length < 0) {
            throw new IllegalArgumentException(
                    "intersection: stream range [" + streamStart + ", +" + length + ") (expected: non-negative)");
        }
        return new ViewIntersection(view, streamStart, length);
    }

    public FileView view() {
        return view;
    }

    public long streamStart() {
        return streamStart;
    }

    /** Bytes of data. */
    public long length() {
        return length;
    }

    /** File byte of data byte {@code i} ({@code 0 <= i < length()}). */
    public long fileOffsetOf(long i) {
        if (i < 0 || i >= length) {
            throw new IndexOutOfBoundsException(
                    "intersection: data byte " + i + " (expected: 0 <= byte < " + length + ")");
        }
        return runAt(i).offset();
    }

    /**
     * The contiguous file bytes from data byte {@code i} on: the file byte of data byte {@code i}
     * and how many data bytes from {@code i} follow it contiguously (at least 1; within one tile).
     */
    private Piece runAt(long i) {
        long s = streamStart + i;
        long size = view.tileByteSize();
        long t = s / size;
        tile.seek(s - t * size);
        Piece p = tile.flatten(1).get(0);
        return new Piece(Math.addExact(planner.tileBase(t), p.offset()), Math.min(p.length(), length - i));
    }

    /** File byte of the first data byte (0 without data). */
    public long fileStart() {
        if (fileStart < 0) {
            fileStart = length == 0 ? 0 : fileOffsetOf(0);
        }
        return fileStart;
    }

    /** One past the file byte of the last data byte (0 without data). */
    public long fileEnd() {
        if (fileEnd < 0) {
            fileEnd = planner.fileEnd(streamStart, length);
        }
        return fileEnd;
    }

    /**
     * The data bytes {@code {from, to}} (0-based in this process's data) whose file bytes lie in
     * {@code [lo, hi)}; {@code from == to} if none do.
     */
    public long[] streamRange(long lo, long hi) {
        if (lo > hi) {
            throw new IllegalArgumentException(
                    "intersection: file range [" + lo + ", " + hi + ") (expected: lo <= hi)");
        }
        // the data's file bytes increase (runCount checks it), so all lie in [fileStart, fileEnd):
        // ranges outside it or covering an end need no search (a two-phase call asks for every
        // domain's cycles, most of them outside a rank's part of the file)
        if (length == 0 || hi <= fileStart()) {
            return new long[] {0, 0};
        }
        if (lo >= fileEnd()) {
            return new long[] {length, length};
        }
        long from = lo <= fileStart() ? 0 : firstAtOrAfter(lo);
        long to = hi >= fileEnd() ? length : Math.max(from, firstAtOrAfter(hi));
        return new long[] {from, to};
    }

    /**
     * The first data byte whose file byte is at or after {@code fileOffset} ({@code length()} if
     * none): a binary search that skips a probed byte's whole contiguous run at once.
     */
    private long firstAtOrAfter(long fileOffset) {
        long a = 0;
        long b = length;
        while (a < b) {
            long m = (a + b) >>> 1;
            Piece run = runAt(m);
            if (run.offset() + run.length() <= fileOffset) {
                a = m + run.length(); // the whole run lies before fileOffset
            } else if (run.offset() >= fileOffset) {
                b = m;
            } else {
                return m + (fileOffset - run.offset()); // fileOffset is inside the run
            }
        }
        return a;
    }

    /**
     * The file bytes of this data in {@code [lo, hi)} as an {@code hindexed} of bytes whose
     * displacements count from {@code lo}: packing it from a buffer holding the file's {@code [lo,
     * hi)} yields data bytes {@code streamRange(lo, hi)} in order. Null if no data byte lies there.
     *
     * @throws IllegalArgumentException naming the stream byte if the view's file offsets go back or
     *     repeat within the range
     */
    public Datatype fileType(long lo, long hi) {
        Runs r = runs(lo, hi);
        return r == null ? null : r.datatype();
    }

    /**
     * The file runs of this data in {@code [lo, hi)}, adjacent pieces merged, offsets counted from
     * {@code lo}; null if no data byte lies there. {@link #fileType} is their datatype.
     *
     * @throws IllegalArgumentException as {@link #fileType}
     */
    public Runs runs(long lo, long hi) {
        long[] r = streamRange(lo, hi);
        long n = r[1] - r[0];
        if (n == 0) {
            return null;
        }
        long[] offs = new long[16];
        long[] lens = new long[16];
        int k = 0;
        long prevEnd = Long.MIN_VALUE;
        long at = r[0];
        RangePlanner.Cursor c = planner.plan(streamStart + r[0], n);
        for (RangePlanner.Batch b = c.next(); b != null; b = c.next()) {
            for (int i = 0; i < b.pieceCount(); i++) {
                long off = b.pieceOffset(i);
                long len = b.pieceLength(i);
                if (off < prevEnd) {
                    throw new IllegalArgumentException(
                            "intersection: " + view + " puts stream byte " + (streamStart + at) + " at file byte " + off
                                    + ", before the end " + prevEnd
                                    + " of the previous bytes (expected: file offsets increasing along the view, as collective I/O requires)");
                }
                if (off < lo || off + len > hi) {
                    throw new IllegalArgumentException("intersection: " + view + " puts stream bytes ["
                            + (streamStart + at) + ", +" + len + ") at file bytes [" + off + ", " + (off + len)
                            + ") outside [" + lo + ", " + hi + ") (expected: file offsets increasing along the view)");
                }
                if (k > 0 && off == prevEnd) {
                    lens[k - 1] += len;
                } else {
                    if (k == offs.length) {
                        offs = Arrays.copyOf(offs, k * 2);
                        lens = Arrays.copyOf(lens, k * 2);
                    }
                    offs[k] = off - lo;
                    lens[k] = len;
                    k++;
                }
                prevEnd = off + len;
                at += len;
            }
        }
        return new Runs(Arrays.copyOf(offs, k), Arrays.copyOf(lens, k), n);
    }

    /**
     * Contiguous runs of file bytes, {@code lengths[i]} bytes at {@code offsets[i]} (increasing,
     * not touching), {@code byteSize} bytes in all.
     */
    public record Runs(long[] offsets, long[] lengths, long byteSize) {
        /** The runs as a datatype of bytes: {@code contiguous} for one run at 0, else {@code hindexed}. */
        public Datatype datatype() {
            if (offsets.length == 1 && offsets[0] == 0) {
                return Datatype.contiguous(lengths[0], Primitive.BYTE);
            }
            return Datatype.hindexed(lengths, offsets, Primitive.BYTE);
        }
    }

    /**
     * Contiguous file runs of the whole data (adjacent pieces merged): the independent path's number
     * of accesses. Walking the data's pieces checks that their file offsets do not go back, as
     * collective I/O requires (and {@link #streamRange} assumes); collective calls count first.
     *
     * @throws IllegalArgumentException if they go back ({@link RangePlanner})
     */
    public long runCount() {
        if (length == 0) {
            return 0;
        }
        long runs = 0;
        long prevEnd = Long.MIN_VALUE;
        RangePlanner.Cursor c = planner.plan(streamStart, length);
        for (RangePlanner.Batch b = c.next(); b != null; b = c.next()) {
            for (int i = 0; i < b.pieceCount(); i++) {
                if (b.pieceOffset(i) != prevEnd) {
                    runs++;
                }
                prevEnd = b.pieceOffset(i) + b.pieceLength(i);
            }
        }
        return runs;
    }

    @Override
    public String toString() {
        return "intersection(" + view + ", stream [" + streamStart + ", +" + length + "))";
    }
}
