package dev.layout.dataloop;

/** One contiguous run of a flattened type: {@code length} bytes at {@code offset} from the origin. */
public record Piece(long offset, long length) {}
