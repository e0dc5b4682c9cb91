package dev.layout.fileview;

/** How a {@link ViewReader} issues the planned ranges of one batch. */
public enum ReadMode {
    /** All ranges of a batch in one {@code PositionedReadable.readVectored} call (the file system may merge and parallelize). */
    VECTORED,
    /**
     * The ranges in file order, in chunks of at most {@link ReadOptions#bufferBytes()} into one
     * reused buffer, each chunk's data extracted before the next is read: the stream ({@code seek}
     * once, then {@code readFully} chunk after chunk, short gaps skipped by the open block reader)
     * for runs of near ranges, for ranges longer than the buffer and on the local file system; one
     * {@code readFully(position, ...)} for a short isolated range elsewhere, up to {@link
     * ReadOptions#parallelReads()} of them in flight.
     */
    POSITIONED,
    /**
     * Per batch: {@link #VECTORED} where the ranges are sparse (not one run of near ranges) and the
     * stream has a native vectored read ({@code StreamCapabilities.VECTOREDIO}: object stores) and the
     * file system is not local, else {@link #POSITIONED}: Hadoop's generic vectored fallback (HDFS
     * in 3.4) is one positioned read per range anyway plus a fresh buffer per range, the local
     * vectored read measured slower than positioned reads, and a dense extent streams best.
     */
    AUTO
}
