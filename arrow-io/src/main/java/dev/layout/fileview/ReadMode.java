package dev.layout.fileview;

/** How a {@link ViewReader} issues the planned ranges of one batch. */
public enum ReadMode {
  /** All ranges of a batch in one {@code PositionedReadable.readVectored} call (the file system may merge and parallelize). */
  VECTORED,
  /** One {@code readFully(position, ...)} per range, in file order. */
  POSITIONED
}
