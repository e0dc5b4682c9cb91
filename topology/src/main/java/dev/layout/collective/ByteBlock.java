package dev.layout.collective;

import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import dev.layout.transport.TypedRegion;

/** A contiguous block: {@code byteLength} bytes of {@code buffer} from {@code byteOffset}. */
public record ByteBlock(byte[] buffer, int byteOffset, int byteLength) implements TypedBlock {

    /**
     * @throws IllegalArgumentException if the range does not lie inside the buffer
     */
    public ByteBlock {
        if (byteOffset < 0 || byteLength < 0) {
            throw new IllegalArgumentException("block: "
                    + (byteOffset < 0 ? "byteOffset " + byteOffset : "byteLength " + byteLength) + " (expected: >= 0)");
        }
        if (byteLength > 0 && buffer == null) {
            throw new IllegalArgumentException(
                    "block: buffer null (expected: an array of >= " + byteLength + " bytes)");
        }
        long end = (long) byteOffset + byteLength;
        if (buffer != null && end > buffer.length) {
            throw new IllegalArgumentException(
                    "block: byteOffset+byteLength " + end + " (expected: <= buffer length " + buffer.length + ")");
        }
    }

    /** The whole array. */
    public static ByteBlock of(byte[] buffer) {
        return new ByteBlock(buffer, 0, buffer.length);
    }

    @Override
    public TypedRegion region() {
        return TypedRegion.of(
                Memory.ofArray(buffer == null ? new byte[0] : buffer), Primitive.BYTE, byteLength, byteOffset);
    }

    @Override
    public int byteSize() {
        return byteLength;
    }

    @Override
    public byte[] pack() {
        byte[] out = new byte[byteLength];
        if (byteLength > 0) {
            System.arraycopy(buffer, byteOffset, out, 0, byteLength);
        }
        return out;
    }

    @Override
    public void unpack(byte[] data) {
        if (data.length != byteLength) {
            throw new IllegalArgumentException("block: data length " + data.length + " (expected: " + byteLength + ")");
        }
        if (byteLength > 0) {
            System.arraycopy(data, 0, buffer, byteOffset, byteLength);
        }
    }
}
