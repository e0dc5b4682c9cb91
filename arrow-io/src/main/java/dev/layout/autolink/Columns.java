package dev.layout.autolink;

import java.nio.ByteOrder;
import org.apache.arrow.vector.FieldVector;

/**
 * Direct access to the data of fixed-width Arrow columns, for the codec's per-node loops: Arrow's
 * element setters and getters check bounds and reference counts on every call (and setters set a
 * validity bit), which on columns of 10^5 rows costs more than the copying. Every raw loop first
 * checks here that the buffer holds its rows ({@link #address}); columns never hold nulls there
 * (the expander refuses a null in a non-nullable column before reading any).
 */
final class Columns {
    private Columns() {}

    /** Raw access is possible: Unsafe is there, and memory is little-endian like Arrow's buffers. */
    static final boolean RAW = FieldOffsets.U != null && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /** The address of v's data, checked to hold {@code rows} values of {@code width} bytes. */
    static long address(FieldVector v, int rows, int width) {
        long need = (long) rows * width;
        long have = v.getDataBuffer().capacity();
        if (have < need) {
            throw new GraphFormatException(
                    "column " + v.getName() + ": data buffer of " + have + " bytes (expected: >= " + need + ")");
        }
        return v.getDataBuffer().memoryAddress();
    }

    /** Marks rows [0, n) of a freshly allocated v as valid (bytes set whole, the last one to its n % 8 bits). */
    static void setAllValid(FieldVector v, int n) {
        var b = v.getValidityBuffer();
        long full = n >>> 3;
        if (b.capacity() < full + ((n & 7) == 0 ? 0 : 1)) {
            throw new IllegalStateException(
                    "column " + v.getName() + ": validity buffer of " + b.capacity() + " bytes for " + n + " rows");
        }
        b.setOne(0L, full);
        if ((n & 7) != 0) {
            b.setByte(full, (1 << (n & 7)) - 1);
        }
    }
}
