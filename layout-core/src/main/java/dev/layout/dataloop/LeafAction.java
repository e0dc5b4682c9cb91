package dev.layout.dataloop;

/**
 * A custom action over the leaves of a segment (the public visitor of the engine): the engine calls
 * it once per whole leaf (or per part of a leaf at the ends of a byte range) with user-space byte
 * offsets relative to the origin and the matching position in the packed stream.
 *
 * <p>Only {@link #run} is required; the engine calls {@link #vector} and {@link #blocks} for whole
 * strided or indexed leaves, and their defaults fall back to one {@code run} per block. Override them
 * to exploit the regularity (a vector is one strided loop, not a per-element walk).
 */
public interface LeafAction {
    /** {@code length} contiguous bytes at user offset {@code offset}, packed at {@code streamOffset}. */
    void run(long offset, long length, long streamOffset);

    /** {@code count} blocks of {@code blockLength} bytes at {@code offset + i * byteStride}, packed back to back. */
    default void vector(long offset, long byteStride, long blockLength, long count, long streamOffset) {
        for (long i = 0; i < count; i++) {
            run(offset + i * byteStride, blockLength, streamOffset + i * blockLength);
        }
    }

    /**
     * Blocks {@code from..to-1} of an indexed leaf: block {@code b} is {@code lengths[b]} bytes (or
     * {@code uniformLength} when {@code lengths} is null) at {@code offset + offsets[b]}.
     */
    default void blocks(
            long offset, long[] offsets, long[] lengths, long uniformLength, int from, int to, long streamOffset) {
        long s = streamOffset;
        for (int b = from; b < to; b++) {
            long len = lengths == null ? uniformLength : lengths[b];
            run(offset + offsets[b], len, s);
            s += len;
        }
    }
}
