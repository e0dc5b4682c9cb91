package dev.layout.memory;

import java.lang.ref.Reference;
import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.Objects;
import sun.misc.Unsafe;

/**
 * A region of bytes addressed by absolute {@code long} offsets {@code [0, byteSize)}: a {@code
 * byte[]}, a heap or direct {@link ByteBuffer}, or a raw off-heap region (an Arrow buffer, say),
 * all behind one final class so the engine's kernels stay monomorphic.
 *
 * <pre>{@code
 * Memory m = Memory.ofArray(new byte[64]);
 * m.putInt(8, 42);
 * }</pre>
 *
 * Public accessors check bounds on every call. The engine checks a whole operation's footprint
 * once, up front, and then runs the unchecked kernels of {@code dev.layout.dataloop.kernel}; that is what makes it
 * both fast and incapable of touching memory outside a region. Multi-byte accessors are
 * little-endian (the native order of the layout notation).
 */
public final class Memory {
    static final Unsafe U = unsafe();
    static final long BYTE_ARRAY_BASE = U.arrayBaseOffset(byte[].class);
    private static final long BUFFER_ADDRESS = fieldOffset(Buffer.class, "address");
    private static final long BYTEBUFFER_HB = fieldOffset(ByteBuffer.class, "hb");
    private static final long BYTEBUFFER_OFFSET = fieldOffset(ByteBuffer.class, "offset");

    private static final boolean BIG_ENDIAN_HOST = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.BIG_ENDIAN;

    private static short le(short v) {
        return BIG_ENDIAN_HOST ? Short.reverseBytes(v) : v;
    }

    private static int le(int v) {
        return BIG_ENDIAN_HOST ? Integer.reverseBytes(v) : v;
    }

    private static long le(long v) {
        return BIG_ENDIAN_HOST ? Long.reverseBytes(v) : v;
    }

    final Object base;
    final long address;
    final long byteSize;
    final boolean readOnly;
    /**
     * Keeps the owner of the bytes (buffer, allocator handle) reachable while this view is. Every
     * access through a raw address ends with a reachability fence on its view (here and in the
     * kernels): a view is unreachable once its fields are read, and a direct buffer held by nothing
     * else would be freed by its cleaner while the access still runs.
     */
    @SuppressWarnings("unused")
    private final Object owner;

    private Memory(Object base, long address, long byteSize, boolean readOnly, Object owner) {
        this.base = base;
        this.address = address;
        this.byteSize = byteSize;
        this.readOnly = readOnly;
        this.owner = owner;
    }

    /** The whole array. */
    public static Memory ofArray(byte[] array) {
        Objects.requireNonNull(array, "ofArray: array is null");
        return new Memory(array, BYTE_ARRAY_BASE, array.length, false, array);
    }

    /**
     * The buffer's bytes {@code [0, capacity)}, addressed absolutely (position and limit are ignored
     * and never changed). Heap, direct and read-only buffers are accepted; writing into a read-only
     * buffer fails with {@link java.nio.ReadOnlyBufferException}.
     */
    public static Memory ofBuffer(ByteBuffer buffer) {
        Objects.requireNonNull(buffer, "ofBuffer: buffer is null");
        if (buffer.isDirect()) {
            long addr = U.getLong(buffer, BUFFER_ADDRESS);
            return new Memory(null, addr, buffer.capacity(), buffer.isReadOnly(), buffer);
        }
        byte[] hb = (byte[]) U.getObject(buffer, BYTEBUFFER_HB);
        int off = U.getInt(buffer, BYTEBUFFER_OFFSET);
        return new Memory(hb, BYTE_ARRAY_BASE + off, buffer.capacity(), buffer.isReadOnly(), buffer);
    }

    /**
     * A raw off-heap region of {@code byteSize} bytes at {@code address}, kept alive by {@code owner}
     * (e.g. an Arrow {@code ArrowBuf}); the caller guarantees the region stays allocated while used.
     */
    public static Memory ofAddress(long address, long byteSize, Object owner) {
        if (address == 0) {
            throw new IllegalArgumentException("ofAddress: address 0 (expected: a valid native address)");
        }
        if (byteSize < 0) {
            throw new IllegalArgumentException("ofAddress: byteSize " + byteSize + " (expected: >= 0)");
        }
        return new Memory(null, address, byteSize, false, owner);
    }

    /** A window {@code [offset, offset + length)} of this memory, sharing its bytes. */
    public Memory slice(long offset, long length) {
        checkRange("slice", offset, length);
        return new Memory(base, address + offset, length, readOnly, owner);
    }

    /**
     * The base of unchecked accesses to these bytes: the array, or null for native memory. For the
     * engine's kernels ({@code dev.layout.dataloop.kernel}), which check an operation's whole footprint
     * with {@link #checkRange} before they touch a byte.
     */
    public Object base() {
        return base;
    }

    /** The offset of byte 0 from {@link #base()} (an absolute address for native memory); see {@link #base()}. */
    public long address() {
        return address;
    }

    public long byteSize() {
        return byteSize;
    }

    /**
     * A {@link ByteBuffer} sharing this memory's bytes {@code [0, byteSize)} (position 0, limit
     * byteSize, read-only if this memory is), for channel I/O without copies (gathering writes,
     * scattering reads); empty for raw-address memories not backed by a direct buffer and for
     * memories larger than 2 GiB.
     */
    public java.util.Optional<ByteBuffer> asByteBuffer() {
        if (byteSize > Integer.MAX_VALUE) {
            return java.util.Optional.empty();
        }
        int n = (int) byteSize;
        ByteBuffer view = null;
        if (base instanceof byte[] array) {
            view = ByteBuffer.wrap(array).slice((int) (address - BYTE_ARRAY_BASE), n);
        } else if (base == null && owner instanceof ByteBuffer b && b.isDirect()) {
            long rel = address - U.getLong(b, BUFFER_ADDRESS);
            if (rel >= 0 && rel + n <= b.capacity()) {
                view = b.slice((int) rel, n);
            }
        }
        return java.util.Optional.ofNullable(view).map(v -> readOnly ? v.asReadOnlyBuffer() : v);
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public byte getByte(long offset) {
        checkRange("getByte", offset, 1);
        try {
            return U.getByte(base, address + offset);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public void putByte(long offset, byte value) {
        checkWritable("putByte");
        checkRange("putByte", offset, 1);
        try {
            U.putByte(base, address + offset, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public short getShort(long offset) {
        checkRange("getShort", offset, 2);
        try {
            return le(U.getShort(base, address + offset));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public void putShort(long offset, short value) {
        checkWritable("putShort");
        checkRange("putShort", offset, 2);
        try {
            U.putShort(base, address + offset, le(value));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public int getInt(long offset) {
        checkRange("getInt", offset, 4);
        try {
            return le(U.getInt(base, address + offset));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public void putInt(long offset, int value) {
        checkWritable("putInt");
        checkRange("putInt", offset, 4);
        try {
            U.putInt(base, address + offset, le(value));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public long getLong(long offset) {
        checkRange("getLong", offset, 8);
        try {
            return le(U.getLong(base, address + offset));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public void putLong(long offset, long value) {
        checkWritable("putLong");
        checkRange("putLong", offset, 8);
        try {
            U.putLong(base, address + offset, le(value));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    public float getFloat(long offset) {
        return Float.intBitsToFloat(getInt(offset));
    }

    public void putFloat(long offset, float value) {
        putInt(offset, Float.floatToRawIntBits(value));
    }

    public double getDouble(long offset) {
        return Double.longBitsToDouble(getLong(offset));
    }

    public void putDouble(long offset, double value) {
        putLong(offset, Double.doubleToRawLongBits(value));
    }

    /** Copies {@code length} bytes from {@code src[srcOffset..]} to {@code dst[dstOffset..]}; overlapping ranges are allowed. */
    public static void copy(Memory src, long srcOffset, Memory dst, long dstOffset, long length) {
        src.checkRange("copy", srcOffset, length);
        dst.checkWritable("copy");
        dst.checkRange("copy", dstOffset, length);
        // The bulk intrinsic (memmove semantics: the same backing may overlap).
        try {
            U.copyMemory(src.base, src.address + srcOffset, dst.base, dst.address + dstOffset, length);
        } finally {
            Reference.reachabilityFence(src);
            Reference.reachabilityFence(dst);
        }
    }

    /** Fills {@code [offset, offset + length)} with {@code value}. */
    public void fill(long offset, long length, byte value) {
        checkWritable("fill");
        checkRange("fill", offset, length);
        try {
            U.setMemory(base, address + offset, length, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Copies {@code [offset, offset + length)} into a new array. */
    public byte[] toArray(long offset, int length) {
        checkRange("toArray", offset, length);
        byte[] out = new byte[length];
        try {
            U.copyMemory(base, address + offset, out, BYTE_ARRAY_BASE, length);
        } finally {
            Reference.reachabilityFence(this);
        }
        return out;
    }

    /** Throws unless {@code [offset, offset + length)} lies within {@code [0, byteSize)}. */
    public void checkRange(String op, long offset, long length) {
        if (offset < 0 || length < 0 || offset > byteSize - length) {
            throw new IndexOutOfBoundsException(op + ": bytes [" + offset + ", " + (offset + length)
                    + ") outside memory of " + byteSize + " bytes");
        }
    }

    public void checkWritable(String op) {
        if (readOnly) {
            throw new java.nio.ReadOnlyBufferException();
        }
    }

    /**
     * Unmaps {@code mapping} now rather than when the garbage collector finds it unreachable (a
     * mapping holds its file's pages until then). The caller guarantees that nothing accesses the
     * mapping, or a {@code Memory} over it, afterwards: that would touch an unmapped page.
     */
    public static void unmap(java.nio.MappedByteBuffer mapping) {
        U.invokeCleaner(mapping);
    }

    @Override
    public String toString() {
        return "Memory[" + (base instanceof byte[] ? "heap" : "off-heap") + ", " + byteSize + " bytes"
                + (readOnly ? ", read-only" : "") + "]";
    }

    private static Unsafe unsafe() {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError("layout needs sun.misc.Unsafe (module jdk.unsupported): " + e);
        }
    }

    @SuppressWarnings("deprecation")
    private static long fieldOffset(Class<?> c, String name) {
        try {
            return U.objectFieldOffset(c.getDeclaredField(name));
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError("layout: " + c.getName() + "." + name + " not found on this JVM");
        }
    }
}
