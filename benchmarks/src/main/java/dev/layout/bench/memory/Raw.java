package dev.layout.bench.memory;

import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import sun.misc.Unsafe;

/**
 * The benchmarks' own handle on {@link Unsafe}, the way a performance-minded engineer writes a
 * hand-coded pack loop in Java (Agrona's {@code UnsafeBuffer}, Netty's {@code PlatformDependent}):
 * one (base, address) pair per buffer, so the same loop serves {@code byte[]}, direct buffers and
 * raw off-heap memory. Not used by the engine, which has its own kernels.
 */
public final class Raw {
    private Raw() {}

    public static final Unsafe U = unsafe();
    public static final long BYTE_ARRAY_BASE = U.arrayBaseOffset(byte[].class);
    private static final long BUFFER_ADDRESS = addressField();

    /** The native address of a direct buffer's first byte. */
    public static long address(ByteBuffer direct) {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("address: heap buffer (expected: a direct buffer)");
        }
        return U.getLong(direct, BUFFER_ADDRESS);
    }

    private static Unsafe unsafe() {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError("benchmarks need sun.misc.Unsafe: " + e);
        }
    }

    @SuppressWarnings("deprecation")
    private static long addressField() {
        try {
            return U.objectFieldOffset(Buffer.class.getDeclaredField("address"));
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError("benchmarks: java.nio.Buffer.address not found on this JVM");
        }
    }
}
