package dev.layout.automap;

import dev.layout.memory.Memory;
import java.lang.reflect.Array;

/**
 * Moves one mapped object to or from its bytes. Implementations are generated per class by
 * {@link RecordLayouts} (straight-line bytecode in a hidden class: no reflection on the hot path),
 * with a method-handle fallback where a hidden class cannot be defined. Public only because the
 * generated classes live in the mapped class's package; use {@link RecordLayout} instead.
 */
public abstract class RecordCodec {
    private Class<?> type;

    protected RecordCodec() {}

    /** Writes {@code value}'s fields at {@code offset + field offset}; {@code value} is non-null and of the mapped class. */
    public abstract void write(Object value, Memory m, long offset);

    /** Reads a new instance from the bytes at {@code offset}. */
    public abstract Object read(Memory m, long offset);

    final void bind(Class<?> type) {
        this.type = type;
    }

    /** Writes a fixed-length array field of mapped objects, {@code stride} bytes apart. */
    public final void writeArrayField(Object[] values, int length, Memory m, long offset, long stride, String field) {
        AutoMapSupport.checkLength(values == null ? -1 : values.length, length, field);
        for (int i = 0; i < length; i++) {
            Object v = values[i];
            if (v == null) {
                throw new NullPointerException("write: " + field + "[" + i + "] is null");
            }
            write(v, m, offset + i * stride);
        }
    }

    /** Reads a fixed-length array field of mapped objects, {@code stride} bytes apart. */
    public final Object[] readArrayField(int length, Memory m, long offset, long stride) {
        Object[] a = (Object[]) Array.newInstance(type, length);
        for (int i = 0; i < length; i++) {
            a[i] = read(m, offset + i * stride);
        }
        return a;
    }
}
