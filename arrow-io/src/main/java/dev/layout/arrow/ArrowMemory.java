package dev.layout.arrow;

import dev.layout.memory.Memory;
import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;

/**
 * {@link Memory} over Arrow's off-heap buffers, without copies: the engine reads and writes the
 * buffer's bytes in place through its address.
 *
 * <pre>{@code
 * try (BufferAllocator a = new RootAllocator(); Float8Vector v = VectorPacking.dense(a, "x", Primitive.FLOAT64, 64)) {
 *   Memory m = ArrowMemory.ofData(v);                 // the 512 data bytes of v
 *   byte[] column = Packing.pack(...);                // or Segment.of(type, 1, m, 0).pack(...)
 * }
 * }</pre>
 *
 * <p>The returned {@code Memory} keeps the {@code ArrowBuf} reachable but does not retain a
 * reference count: it must not be used after the buffer (or its vector) is closed. Every factory
 * checks that the buffer is still open.
 */
public final class ArrowMemory {
    private ArrowMemory() {}

    /** The whole buffer, bytes {@code [0, capacity)}. */
    public static Memory of(ArrowBuf buf) {
        Objects.requireNonNull(buf, "ArrowMemory.of: buf is null");
        return ofRange(buf, 0, buf.capacity());
    }

    /**
     * Bytes {@code [byteOffset, byteOffset + byteSize)} of the buffer.
     *
     * @throws IllegalStateException if the buffer has been released
     * @throws IndexOutOfBoundsException if the range is not inside {@code [0, capacity)}
     */
    public static Memory ofRange(ArrowBuf buf, long byteOffset, long byteSize) {
        Objects.requireNonNull(buf, "ArrowMemory.ofRange: buf is null");
        if (buf.refCnt() == 0) {
            throw new IllegalStateException("ArrowMemory: buffer already released (expected: an open ArrowBuf)");
        }
        if (byteOffset < 0 || byteSize < 0 || byteOffset > buf.capacity() - byteSize) {
            throw new IndexOutOfBoundsException("ArrowMemory: bytes [" + byteOffset + ", " + (byteOffset + byteSize)
                    + ") outside ArrowBuf of " + buf.capacity() + " bytes");
        }
        if (byteSize == 0 || buf.memoryAddress() == 0) {
            return Memory.ofArray(new byte[0]);
        }
        return Memory.ofAddress(buf.memoryAddress() + byteOffset, byteSize, buf);
    }

    /**
     * The data bytes of the first {@code getValueCount()} values of a fixed-width vector ({@code
     * valueCount * typeWidth} bytes; byte 0 is value 0).
     */
    public static Memory ofData(BaseFixedWidthVector vector) {
        Objects.requireNonNull(vector, "ArrowMemory.ofData: vector is null");
        long bytes = Math.multiplyExact((long) vector.getValueCount(), (long) vector.getTypeWidth());
        return ofRange(vector.getDataBuffer(), 0, bytes);
    }
}
