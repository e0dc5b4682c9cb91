package dev.layout.dataloop;

import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.memory.Memory;

/**
 * external32 pack ({@code pack}) and unpack: copy, then reverse each primitive in the destination. A
 * run that starts or ends inside a primitive (segment boundaries) maps byte by byte: stream byte q of a
 * primitive is user byte {@code unit-1-q} of the same primitive.
 */
final class External32Kernel extends LeafKernel {
    final Memory user;
    final Memory packed;
    final long delta;
    final boolean pack;

    External32Kernel(Memory user, Memory packed, long delta, boolean pack) {
        this.user = user;
        this.packed = packed;
        this.delta = delta;
        this.pack = pack;
    }

    @Override
    long run(long u, long len, long stream, int unit, long phase) {
        long p = delta + stream;
        Memory src = pack ? user : packed;
        Memory dst = pack ? packed : user;
        long s = pack ? u : p;
        long d = pack ? p : u;
        if (phase == 0 && len % unit == 0) {
            MemoryAccess.copy(src, s, dst, d, len);
            MemoryAccess.swapInPlace(dst, d, len, unit); // unit 1: nothing to swap
        } else {
            for (long i = 0; i < len; i++) {
                long q = (phase + i) % unit;
                long mirrored = u + i - q + (unit - 1 - q);
                // a few bytes at a segment's ends: the checked accessors
                if (pack) {
                    packed.putByte(p + i, user.getByte(mirrored));
                } else {
                    user.putByte(mirrored, packed.getByte(p + i));
                }
            }
        }
        return len;
    }
}
