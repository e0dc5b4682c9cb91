package dev.layout.collective;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Sum, min and max over little-endian int, long and double elements. All commutative. */
public enum StandardOp implements ReduceOp {
    INT_SUM(4),
    INT_MIN(4),
    INT_MAX(4),
    LONG_SUM(8),
    LONG_MIN(8),
    LONG_MAX(8),
    DOUBLE_SUM(8),
    DOUBLE_MIN(8),
    DOUBLE_MAX(8);

    private final int size;

    StandardOp(int size) {
        this.size = size;
    }

    @Override
    public int elementByteSize() {
        return size;
    }

    @Override
    public boolean isCommutative() {
        return true;
    }

    @Override
    public void combine(byte[] accumulator, byte[] next) {
        if (accumulator.length != next.length) {
            throw new IllegalArgumentException(name().toLowerCase() + ": operand length " + next.length + " (expected: "
                    + accumulator.length + ")");
        }
        ByteBuffer acc = ByteBuffer.wrap(accumulator).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer in = ByteBuffer.wrap(next).order(ByteOrder.LITTLE_ENDIAN);
        for (int off = 0; off + size <= accumulator.length; off += size) {
            switch (this) {
                case INT_SUM -> acc.putInt(off, acc.getInt(off) + in.getInt(off));
                case INT_MIN -> acc.putInt(off, Math.min(acc.getInt(off), in.getInt(off)));
                case INT_MAX -> acc.putInt(off, Math.max(acc.getInt(off), in.getInt(off)));
                case LONG_SUM -> acc.putLong(off, acc.getLong(off) + in.getLong(off));
                case LONG_MIN -> acc.putLong(off, Math.min(acc.getLong(off), in.getLong(off)));
                case LONG_MAX -> acc.putLong(off, Math.max(acc.getLong(off), in.getLong(off)));
                case DOUBLE_SUM -> acc.putDouble(off, acc.getDouble(off) + in.getDouble(off));
                case DOUBLE_MIN -> acc.putDouble(off, Math.min(acc.getDouble(off), in.getDouble(off)));
                case DOUBLE_MAX -> acc.putDouble(off, Math.max(acc.getDouble(off), in.getDouble(off)));
            }
        }
    }
}
