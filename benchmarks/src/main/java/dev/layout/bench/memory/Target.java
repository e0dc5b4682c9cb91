package dev.layout.bench.memory;

import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.util.Locale;

/** Where a benchmark's buffers live: a heap {@code byte[]}, a direct {@link ByteBuffer}, or raw off-heap memory. */
public enum Target {
    HEAP,
    DIRECT,
    OFFHEAP;

    /** The lower-case name used on the command line and in tables. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Target parse(String s) {
        for (Target t : values()) {
            if (t.label().equals(s)) {
                return t;
            }
        }
        throw new IllegalArgumentException("bench: --target " + s + " (expected: heap, direct or offheap)");
    }

    /** Allocates {@code bytes} zeroed bytes here. */
    public Buf allocate(long bytes) {
        switch (this) {
            case HEAP -> {
                if (bytes > Integer.MAX_VALUE - 8) {
                    throw new IllegalArgumentException(
                            "bench: heap buffer of " + bytes + " bytes (expected: <= 2 GiB; use --target offheap)");
                }
                byte[] a = new byte[(int) bytes];
                return new Buf(a, Raw.BYTE_ARRAY_BASE, bytes, Memory.ofArray(a), 0);
            }
            case DIRECT -> {
                if (bytes > Integer.MAX_VALUE - 8) {
                    throw new IllegalArgumentException(
                            "bench: direct buffer of " + bytes + " bytes (expected: <= 2 GiB; use --target offheap)");
                }
                ByteBuffer b = ByteBuffer.allocateDirect((int) Math.max(bytes, 1));
                return new Buf(null, Raw.address(b), bytes, Memory.ofBuffer(b).slice(0, bytes), 0);
            }
            default -> {
                long a = Raw.U.allocateMemory(Math.max(bytes, 1));
                Raw.U.setMemory(a, Math.max(bytes, 1), (byte) 0);
                return new Buf(null, a, bytes, Memory.ofAddress(a, bytes, null), a);
            }
        }
    }

    /** One allocated buffer: the (base, address) pair hand-written loops use and the engine's {@link Memory} over the same bytes. */
    public static final class Buf implements AutoCloseable {
        public final Object base;
        public final long address;
        public final long byteSize;
        public final Memory memory;
        private long toFree;

        Buf(Object base, long address, long byteSize, Memory memory, long toFree) {
            this.base = base;
            this.address = address;
            this.byteSize = byteSize;
            this.memory = memory;
            this.toFree = toFree;
        }

        /** Fills the buffer with the conformance test pattern {@code (k*31+7) & 0xFF}. */
        public void fillPattern() {
            for (long k = 0; k < byteSize; k++) {
                Raw.U.putByte(base, address + k, (byte) ((k * 31 + 7) & 0xFF));
            }
        }

        @Override
        public void close() {
            if (toFree != 0) {
                Raw.U.freeMemory(toFree);
                toFree = 0;
            }
        }
    }
}
