package dev.layout.dataloop;

import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.memory.Memory;

/**
 * external32 pack: copy, then reverse each primitive in the packed bytes. A run that starts or ends
 * inside a primitive (segment boundaries) maps byte by byte: stream byte q of a primitive is user
 * byte {@code unit-1-q} of the same primitive.
 */
final class PackExternal32Kernel extends LeafKernel {
    final Memory user;
    final Memory packed;
    final long delta;

    PackExternal32Kernel(Memory user, Memory packed, long delta) {
        this.user = user;
        this.packed = packed;
        this.delta = delta;
    }

    @Override
    long run(long u, long len, long stream, int unit, long phase) {
        long p = delta + stream;
        if (unit == 1) {
            MemoryAccess.copy(user, u, packed, p, len);
        } else if (phase == 0 && len % unit == 0) {
            MemoryAccess.copy(user, u, packed, p, len);
            MemoryAccess.swapInPlace(packed, p, len, unit);
        } else {
            for (long i = 0; i < len; i++) {
                long q = (phase + i) % unit;
                MemoryAccess.putByte(packed, p + i, MemoryAccess.getByte(user, u + i - q + (unit - 1 - q)));
            }
        }
        return len;
    }
}
