package dev.layout.collective;

/**
 * One send or receive block of {@code alltoallw}: where a block's bytes come from and where they
 * go. This is the extension point for layout-core: a {@code BlockSpec(buffer, displacement,
 * count, datatype)} implements it by packing with the datatype engine (and unpacking straight into
 * the user's array), so halo rows, columns and corners move without user-side packing. {@link
 * ByteBlock} is the contiguous implementation.
 */
public interface Block {

    /** The number of bytes this block sends or expects. */
    int byteSize();

    /** The block's bytes, read from its buffer (exactly {@link #byteSize()} of them). */
    byte[] pack();

    /** Writes {@code data} (exactly {@link #byteSize()} bytes) into the block's buffer. */
    void unpack(byte[] data);
}
