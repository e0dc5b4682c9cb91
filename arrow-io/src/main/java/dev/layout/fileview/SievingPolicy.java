package dev.layout.fileview;

/**
 * How a view's contiguous pieces become file reads: pieces separated by at most {@code
 * holeThreshold} bytes are read as one range, holes included (data sieving); adjacent pieces
 * ({@code holeThreshold >= 0}) are always merged. No range is longer than {@code maxRangeBytes}
 * (longer pieces are split), and one planning batch flattens at most {@code maxPiecesPerBatch}
 * pieces and buffers at most about {@code maxBatchBytes}, which bounds the reader's memory whatever
 * the view.
 *
 * <pre>{@code
 * SievingPolicy p = SievingPolicy.defaults().withHoleThreshold(4096);
 * }</pre>
 *
 * @param holeThreshold the largest hole read through, in bytes; -1 disables all merging (one read
 *     per piece)
 */
public record SievingPolicy(long holeThreshold, long maxRangeBytes, int maxPiecesPerBatch, long maxBatchBytes) {
    public static final long DEFAULT_HOLE_THRESHOLD = 64 * 1024;
    public static final long DEFAULT_MAX_RANGE_BYTES = 8L << 20;
    public static final int DEFAULT_MAX_PIECES_PER_BATCH = 1 << 16;
    public static final long DEFAULT_MAX_BATCH_BYTES = 64L << 20;

    /** @throws IllegalArgumentException if a limit is out of range */
    public SievingPolicy {
        if (holeThreshold < -1) {
            throw new IllegalArgumentException("sieving: holeThreshold " + holeThreshold + " (expected: >= -1)");
        }
        if (maxRangeBytes < 1 || maxRangeBytes > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException(
                    "sieving: maxRangeBytes " + maxRangeBytes + " (expected: 1 .. " + (Integer.MAX_VALUE - 64) + ")");
        }
        if (maxPiecesPerBatch < 1) {
            throw new IllegalArgumentException("sieving: maxPiecesPerBatch " + maxPiecesPerBatch + " (expected: >= 1)");
        }
        if (maxBatchBytes < maxRangeBytes) {
            throw new IllegalArgumentException(
                    "sieving: maxBatchBytes " + maxBatchBytes + " (expected: >= maxRangeBytes " + maxRangeBytes + ")");
        }
    }

    /** 64 KiB holes, 8 MiB ranges, 65536 pieces and 64 MiB per batch. */
    public static SievingPolicy defaults() {
        return new SievingPolicy(
                DEFAULT_HOLE_THRESHOLD, DEFAULT_MAX_RANGE_BYTES, DEFAULT_MAX_PIECES_PER_BATCH, DEFAULT_MAX_BATCH_BYTES);
    }

    /** Adjacent pieces merged, no holes read. */
    public static SievingPolicy adjacentOnly() {
        return defaults().withHoleThreshold(0);
    }

    /** One range per contiguous piece of the view (split at {@code maxRangeBytes}); no merging. */
    public static SievingPolicy perPiece() {
        return defaults().withHoleThreshold(-1);
    }

    public SievingPolicy withHoleThreshold(long bytes) {
        return new SievingPolicy(bytes, maxRangeBytes, maxPiecesPerBatch, maxBatchBytes);
    }

    public SievingPolicy withMaxRangeBytes(long bytes) {
        return new SievingPolicy(holeThreshold, bytes, maxPiecesPerBatch, Math.max(maxBatchBytes, bytes));
    }

    public SievingPolicy withMaxPiecesPerBatch(int pieces) {
        return new SievingPolicy(holeThreshold, maxRangeBytes, pieces, maxBatchBytes);
    }

    public SievingPolicy withMaxBatchBytes(long bytes) {
        return new SievingPolicy(holeThreshold, maxRangeBytes, maxPiecesPerBatch, bytes);
    }
}
