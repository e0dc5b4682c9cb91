package dev.layout.fileview;

/**
 * What one view read did.
 *
 * @param bytes data bytes delivered to the user's memory
 * @param pieces contiguous pieces of the view that were read
 * @param ranges file ranges issued after merging
 * @param fileBytes bytes read from the file, holes included
 * @param nanos wall time of the read
 */
public record ReadStats(long bytes, long pieces, long ranges, long fileBytes, long nanos) {
    /** Pieces absorbed into another piece's range by merging: {@code pieces - ranges}. */
    public long merged() {
        return pieces - ranges;
    }

    public ReadStats plus(ReadStats o) {
        return new ReadStats(
                bytes + o.bytes, pieces + o.pieces, ranges + o.ranges, fileBytes + o.fileBytes, nanos + o.nanos);
    }
}
