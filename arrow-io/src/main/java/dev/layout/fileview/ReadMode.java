package dev.layout.fileview;

/** How a {@link ViewReader} issues the planned ranges of one batch. */
public enum ReadMode {
  /** All ranges of a batch in one {@code PositionedReadable.readVectored} call (the file system may merge and parallelize). */
  VECTORED,
  /**
   * One read per range, in file order, into one reused buffer: {@code seek} + {@code readFully}
   * for runs of adjacent ranges and on the local file system, {@code readFully(position, ...)}
   * for isolated ranges elsewhere.
   */
  POSITIONED,
  /**
   * {@link #VECTORED} where the stream has a native vectored read ({@code
   * StreamCapabilities.VECTOREDIO}: object stores) and the file system is not local, else {@link
   * #POSITIONED}: Hadoop's generic vectored fallback (HDFS in 3.4) is one positioned read per range
   * anyway plus a fresh buffer per range, and the local vectored read measured slower than
   * positioned reads.
   */
  AUTO
}
