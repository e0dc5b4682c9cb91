package dev.layout.fileview;

import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Turns a byte range of a view's data stream into file reads: the filetype is flattened segment by
 * segment (at most {@link SievingPolicy#maxPiecesPerBatch()} pieces at a time, so memory is bounded
 * whatever the view), the pieces are placed in the file, and nearby pieces are merged into ranges
 * as the {@link SievingPolicy} says.
 *
 * <pre>{@code
 * RangePlanner planner = new RangePlanner(view, SievingPolicy.defaults());
 * RangePlanner.Cursor c = planner.plan(0, view.tileByteSize());
 * for (RangePlanner.Batch b; (b = c.next()) != null; ) {
 *   // read b.rangeOffset(i) .. + b.rangeLength(i); piece j lies in range b.pieceRange(j)
 * }
 * }</pre>
 *
 * <p>Stream byte {@code s} of the view is packed byte {@code s % tileByteSize} of tile {@code s /
 * tileByteSize}, which starts at file byte {@code displacement + tile * extent}.
 */
public final class RangePlanner {
    private final FileView view;
    private final SievingPolicy policy;

    public RangePlanner(FileView view, SievingPolicy policy) {
        this.view = Objects.requireNonNull(view, "planner: view is null");
        this.policy = Objects.requireNonNull(policy, "planner: policy is null");
    }

    public FileView view() {
        return view;
    }

    public SievingPolicy policy() {
        return policy;
    }

    /** A plan for stream bytes {@code [streamOffset, streamOffset + byteLength)}. */
    public Cursor plan(long streamOffset, long byteLength) {
        if (streamOffset < 0 || byteLength < 0) {
            throw new IllegalArgumentException(
                    "planner: stream range [" + streamOffset + ", +" + byteLength + ") (expected: non-negative)");
        }
        return new Cursor(streamOffset, byteLength);
    }

    /**
     * One past the highest file byte that stream bytes {@code [streamOffset, streamOffset +
     * byteLength)} touch (0 for an empty range), without flattening the range.
     */
    public long fileEnd(long streamOffset, long byteLength) {
        if (byteLength == 0) {
            return 0;
        }
        long last = Math.addExact(streamOffset, byteLength - 1);
        long size = view.tileByteSize();
        long tile = last / size;
        Segment s = Segment.layout(view.filetype(), 1);
        s.seek(last - tile * size);
        Piece p = s.flatten(1).get(0);
        return Math.addExact(tileBase(tile), p.offset() + 1);
    }

    /** Every range of the plan, merged as the policy says (for tests and tools; the reader streams batches). */
    public List<Piece> ranges(long streamOffset, long byteLength) {
        List<Piece> out = new ArrayList<>();
        Cursor c = plan(streamOffset, byteLength);
        for (Batch b = c.next(); b != null; b = c.next()) {
            for (int i = 0; i < b.rangeCount(); i++) {
                out.add(new Piece(b.rangeOffset(i), b.rangeLength(i)));
            }
        }
        return out;
    }

    /** File byte where tile {@code tile} of the view starts. */
    long tileBase(long tile) {
        try {
            return Math.addExact(
                    view.displacement(),
                    Math.multiplyExact(tile, view.filetype().extent()));
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("planner: tile " + tile + " of " + view + " lies beyond 2^63 bytes", e);
        }
    }

    /** A resumable plan: each {@link #next()} flattens and merges one bounded batch. */
    public final class Cursor {
        private final long start;
        private final long length;
        private final long firstTile;
        private final Segment segment;
        private final long base;
        private long done;
        private long lastEnd = Long.MIN_VALUE;
        private long pieces;
        private long ranges;

        private Cursor(long start, long length) {
            this.start = start;
            this.length = length;
            long size = view.tileByteSize();
            this.firstTile = start / size;
            if (length > 0) {
                long lastTile = (start + length - 1) / size;
                this.segment = Segment.layout(view.filetype(), lastTile - firstTile + 1);
                this.base = tileBase(firstTile);
            } else {
                this.segment = null;
                this.base = 0;
            }
        }

        /** Stream bytes planned so far. */
        public long plannedBytes() {
            return done;
        }

        /** Contiguous pieces planned so far (after splitting at {@code maxRangeBytes}). */
        public long pieceCount() {
            return pieces;
        }

        /** File ranges planned so far. */
        public long rangeCount() {
            return ranges;
        }

        /** The next batch, or null when the whole range has been planned. */
        public Batch next() {
            if (done >= length) {
                return null;
            }
            segment.seek(start - firstTile * view.tileByteSize() + done);
            Batch b = new Batch(start + done);
            long batchBytes = 0;
            outer:
            for (Piece p : segment.flatten(policy.maxPiecesPerBatch())) {
                long f = base + p.offset();
                long len = Math.min(p.length(), length - done);
                while (len > 0) {
                    long c = Math.min(len, policy.maxRangeBytes());
                    if (f < lastEnd) {
                        throw new IllegalArgumentException(
                                "fileview: filetype data at file byte " + f + " comes after file byte " + (lastEnd - 1)
                                        + " (expected: monotonically non-decreasing file order) in " + view);
                    }
                    batchBytes += b.add(f, c, policy);
                    lastEnd = f + c;
                    done += c;
                    f += c;
                    len -= c;
                    if (done >= length || batchBytes >= policy.maxBatchBytes()) {
                        break outer;
                    }
                }
            }
            pieces += b.pieceCount;
            ranges += b.rangeCount;
            return b;
        }
    }

    /**
     * One batch of a plan: ranges to read (sorted, disjoint) and the pieces of the stream, in stream
     * order, each inside one range.
     */
    public static final class Batch {
        private final long streamOffset;
        private int rangeCount;
        private long[] rangeOffset = new long[16];
        private long[] rangeLength = new long[16];
        private int pieceCount;
        private long[] pieceOffset = new long[16];
        private long[] pieceLength = new long[16];
        private int[] pieceRange = new int[16];
        private long byteLength;

        Batch(long streamOffset) {
            this.streamOffset = streamOffset;
        }

        /** Adds a piece; returns the extra bytes this adds to the reads (piece plus hole read through). */
        long add(long fileOffset, long length, SievingPolicy policy) {
            if (pieceCount == pieceOffset.length) {
                int n = pieceCount * 2;
                pieceOffset = Arrays.copyOf(pieceOffset, n);
                pieceLength = Arrays.copyOf(pieceLength, n);
                pieceRange = Arrays.copyOf(pieceRange, n);
            }
            long added;
            if (rangeCount > 0) {
                int r = rangeCount - 1;
                long end = rangeOffset[r] + rangeLength[r];
                long gap = fileOffset - end;
                if (policy.holeThreshold() >= 0
                        && gap <= policy.holeThreshold()
                        && fileOffset + length - rangeOffset[r] <= policy.maxRangeBytes()) {
                    rangeLength[r] = fileOffset + length - rangeOffset[r];
                    added = gap + length;
                    record(fileOffset, length, r);
                    return added;
                }
            }
            if (rangeCount == rangeOffset.length) {
                rangeOffset = Arrays.copyOf(rangeOffset, rangeCount * 2);
                rangeLength = Arrays.copyOf(rangeLength, rangeCount * 2);
            }
            rangeOffset[rangeCount] = fileOffset;
            rangeLength[rangeCount] = length;
            record(fileOffset, length, rangeCount);
            rangeCount++;
            return length;
        }

        private void record(long fileOffset, long length, int range) {
            pieceOffset[pieceCount] = fileOffset;
            pieceLength[pieceCount] = length;
            pieceRange[pieceCount] = range;
            pieceCount++;
            byteLength += length;
        }

        /** The stream offset of this batch's first byte. */
        public long streamOffset() {
            return streamOffset;
        }

        /** Stream bytes in this batch. */
        public long byteLength() {
            return byteLength;
        }

        public int rangeCount() {
            return rangeCount;
        }

        public long rangeOffset(int i) {
            return rangeOffset[i];
        }

        public long rangeLength(int i) {
            return rangeLength[i];
        }

        public int pieceCount() {
            return pieceCount;
        }

        public long pieceOffset(int i) {
            return pieceOffset[i];
        }

        public long pieceLength(int i) {
            return pieceLength[i];
        }

        public int pieceRange(int i) {
            return pieceRange[i];
        }

        /** Bytes the ranges read, holes included. */
        public long readBytes() {
            long n = 0;
            for (int i = 0; i < rangeCount; i++) {
                n += rangeLength[i];
            }
            return n;
        }
    }
}
