package dev.layout.dataloop;

import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.memory.Memory;

/** external32 unpack: the mirror of {@link PackExternal32Kernel}. */
final class UnpackExternal32Kernel extends LeafKernel {
    final Memory user;
    final Memory packed;
    final long delta;

    UnpackExternal32Kernel(Memory user, Memory packed, long delta) {
        this.user = user;
        this.packed = packed;
        this.delta = delta;
    }

    @Override
    long run(long u, long len, long stream, int unit, long phase) {
        long p = delta + stream;
        if (unit == 1) {
            MemoryAccess.copy(packed, p, user, u, len);
        } else if (phase == 0 && len % unit == 0) {
            MemoryAccess.copy(packed, p, user, u, len);
            MemoryAccess.swapInPlace(user, u, len, unit);
        } else {
            for (long i = 0; i < len; i++) {
                long q = (phase + i) % unit;
                MemoryAccess.putByte(user, u + i - q + (unit - 1 - q), MemoryAccess.getByte(packed, p + i));
            }
        }
        return len;
    }
}
