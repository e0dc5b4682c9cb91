package dev.layout.dataloop.kernel;

import dev.layout.memory.Memory;

/**
 * Unchecked moves of blocks at listed offsets, for the dataloop engine (which has checked the whole
 * footprint first; a wrong offset here is a wrong memory access): the blocks of an indexed leaf
 * ({@link #blocks}) and repeated small records of them, by the generic record loops ({@link #records})
 * or a generated {@link WordKernel} ({@link #words}). Each method packs (user to packed) or unpacks
 * (packed to user); the direction is loop-invariant, so the JIT compiles each loop once per direction.
 */
public final class ListedAccess {
    private ListedAccess() {}

    /**
     * Packs ({@code pack}) or unpacks blocks {@code [from, to)} of an indexed leaf: block b is {@code
     * lengths[b]} bytes (or {@code uniform} when {@code lengths} is null) at {@code user[userBase +
     * offsets[b]]}, packed back to back from {@code packed[packedOffset]}. Exploits: for uniform blocks
     * one loop of the width class's moves ({@link StridedLoops#listed}; paced, {@link
     * StridedLoops#scatterPaced}); for varying lengths each block takes
     * the width switch of {@link MemoryAccess#copyRaw}, which branch prediction learns for repeating
     * patterns. With {@code paced} (blocks in one cache set that need pacing, {@link
     * MemoryAccess#paces(long[], long)}) an unpack moves each block with the pad's stores after it ({@link
     * MemoryAccess#pad}).
     * Returns the bytes moved.
     */
    public static long blocks(
            Memory user,
            long userBase,
            long[] offsets,
            long[] lengths,
            long uniform,
            int from,
            int to,
            Memory packed,
            long packedOffset,
            boolean pack,
            boolean paced) {
        if (MemoryAccess.CHECK_EVERY_ACCESS) {
            long p = packedOffset;
            for (int b = from; b < to; b++) {
                long len = lengths == null ? uniform : lengths[b];
                user.checkRange("kernel", userBase + offsets[b], len);
                packed.checkRange("kernel", p, len);
                p += len;
            }
        }
        Object ub = user.base();
        long ua = user.address() + userBase;
        Object pb = packed.base();
        long pa = packed.address() + packedOffset;
        boolean pacedStores = paced && !pack;
        if (lengths == null) {
            if (pacedStores) {
                StridedLoops.of(pb, ub, uniform).scatterPaced(pb, pa, ub, ua, offsets, from, to, uniform);
            } else {
                listed(ub, ua, offsets, from, to, pb, pa, uniform, pack);
            }
            return (to - from) * uniform;
        }
        long[] pad = pacedStores ? MemoryAccess.pad() : null;
        long p = pa;
        for (int b = from; b < to; b++) {
            long len = lengths == null ? uniform : lengths[b];
            move(ub, ua + offsets[b], pb, p, len, pack);
            if (pacedStores) {
                MemoryAccess.pad(pad, b);
            }
            p += len;
        }
        return p - pa;
    }

    /** One block of {@code len} bytes between user address {@code u} and packed address {@code p}, in the direction {@code pack}. */
    private static void move(Object ub, long u, Object pb, long p, long len, boolean pack) {
        if (pack) {
            MemoryAccess.copyRaw(ub, u, pb, p, len);
        } else {
            MemoryAccess.copyRaw(pb, p, ub, u, len);
        }
    }

    /** Blocks of one width {@code w} at {@code ua + offsets[b]} to ({@code gather}) or from the contiguous side at {@code pa}. */
    static void listed(
            Object ub, long ua, long[] offsets, int from, int to, Object pb, long pa, long w, boolean gather) {
        StridedLoops.of(gather ? ub : pb, gather ? pb : ub, w).listed(ub, ua, offsets, from, to, pb, pa, w, gather);
    }

    /**
     * Packs ({@code pack}) or unpacks {@code count} instances of a small indexed pattern repeating every
     * {@code userStride} bytes (a vector of an indexed leaf: the Indexed test, struct members), or,
     * when {@code outer} is not null, at {@code userBase + outer[outerFrom + i]} (a list of records:
     * atoms): one {@link #blocks} call per instance (records that pay a call per instance run as
     * generated word moves instead, {@link #words}). {@code paced}: as for {@link #blocks}, every
     * instance's blocks. Returns the bytes moved.
     */
    public static long records(
            Memory user,
            long userBase,
            long userStride,
            long[] outer,
            int outerFrom,
            long count,
            long[] offsets,
            long[] lengths,
            long uniform,
            Memory packed,
            long packedOffset,
            boolean pack,
            boolean paced) {
        int nb = offsets.length;
        long p = packedOffset;
        for (long i = 0; i < count; i++) {
            long at = outer == null ? userBase + i * userStride : userBase + outer[(int) (outerFrom + i)];
            p += blocks(user, at, offsets, lengths, uniform, 0, nb, packed, p, pack, paced);
        }
        return p - packedOffset;
    }

    /**
     * Packs ({@code pack}) or unpacks {@code count} instances of a small pattern given as word moves (see
     * {@link WordKernel#moves}: pairs of user and packed offsets, 8-byte moves then 4-byte moves) through
     * its generated {@code kernel}, instance i at {@code userBase + i * userStride} or, when {@code
     * outer} is not null, at {@code userBase + outer[outerFrom + i]}. Returns the bytes moved.
     */
    public static long words(
            WordKernel kernel,
            Memory user,
            long userBase,
            long userStride,
            long[] outer,
            int outerFrom,
            long count,
            long size,
            Memory packed,
            long packedOffset,
            boolean pack) {
        Object ub = user.base();
        long ua = user.address() + userBase;
        Object pb = packed.base();
        long pa = packed.address() + packedOffset;
        if (pack && outer == null) {
            kernel.gather(ub, ua, userStride, (int) count, pb, pa);
        } else if (pack) {
            kernel.gatherList(ub, ua, outer, outerFrom, (int) count, pb, pa);
        } else if (outer == null) {
            kernel.scatter(ub, ua, userStride, (int) count, pb, pa);
        } else {
            kernel.scatterList(ub, ua, outer, outerFrom, (int) count, pb, pa);
        }
        return count * size;
    }
}
