package dev.layout.dataloop.kernel;

import dev.layout.memory.Memory;

/**
 * The unchecked moves of {@link MemoryAccess} for blocks at listed offsets: the blocks of an indexed leaf
 * ({@link #blocks}) and repeated small records of them ({@link #records}; a {@link GeneratedKernel}
 * may run those instead). Each method packs (user to packed) or unpacks
 * (packed to user); the direction is loop-invariant, so the JIT compiles each loop once per direction.
 */
public final class ListedAccess {
    private ListedAccess() {}

    /**
     * Packs ({@code pack}) or unpacks blocks {@code [from, to)} of an indexed leaf: block b is {@code
     * lengths[b]} bytes (or {@code uniform} when {@code lengths} is null) at {@code user[userBase +
     * offsets[b]]}, packed back to back from {@code packed[packedOffset]}. Exploits: for uniform blocks
     * one loop of the width class's moves ({@link StridedLoops#listed}; paced, {@link
     * StridedLoops#scatterPaced}); for varying lengths each block takes the width switch of {@link
     * MemoryAccess#copyRaw}, which branch prediction learns for repeating patterns. {@code oneSet}:
     * the blocks all fall in one cache set and may be paced ({@link MemoryAccess#mayPace(long[],
     * long)}); an unpack then paces them as {@link OneSetPacing} chooses, each block's moves followed
     * by the pad's stores ({@link MemoryAccess#pad}). Returns the bytes moved.
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
            boolean oneSet) {
        long w = lengths != null ? 1 : uniform; // varying lengths: paced as the narrowest may need
        int s = !pack && oneSet ? OneSetPacing.begin(OneSetPacing.LISTED_STORES, w, to - from) : 0;
        long start = OneSetPacing.clock(s);
        long moved = run(
                user, userBase, offsets, lengths, uniform, from, to, packed, packedOffset, pack, OneSetPacing.paced(s));
        OneSetPacing.end(OneSetPacing.LISTED_STORES, w, to - from, s, start);
        return moved;
    }

    /** {@link #blocks}, paced ({@code pacedStores}: an unpack only) or not. */
    static long run(
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
            boolean pacedStores) {
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
        if (lengths == null) {
            if (pacedStores) {
                StridedLoops.of(pb, ub, uniform).scatterPaced(pb, pa, ub, ua, offsets, from, to, uniform);
            } else {
                StridedLoops.of(pack ? ub : pb, pack ? pb : ub, uniform)
                        .listed(ub, ua, offsets, from, to, pb, pa, uniform, pack);
            }
            return (to - from) * uniform;
        }
        long[] pad = pacedStores ? MemoryAccess.pad() : null;
        long p = pa;
        for (int b = from; b < to; b++) {
            long len = lengths[b];
            if (pack) {
                MemoryAccess.copyRaw(ub, ua + offsets[b], pb, p, len);
            } else {
                MemoryAccess.copyRaw(pb, p, ub, ua + offsets[b], len);
            }
            if (pacedStores) {
                MemoryAccess.pad(pad, b);
            }
            p += len;
        }
        return p - pa;
    }

    /**
     * Packs ({@code pack}) or unpacks {@code count} instances of a small indexed pattern repeating every
     * {@code userStride} bytes (a vector of an indexed leaf: the Indexed test, struct members), or,
     * when {@code outer} is not null, at {@code userBase + outer[outerFrom + i]} (a list of records:
     * atoms): one {@link #blocks} loop per instance (records that pay a call per instance run as
     * generated word moves instead, {@link GeneratedKernel#records}). {@code oneSet}: as for {@link #blocks}, every
     * instance's blocks, with one choice for the whole call. Returns the bytes moved.
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
            boolean oneSet) {
        int nb = offsets.length;
        long w = lengths != null ? 1 : uniform;
        long blocks = count * nb;
        int s = !pack && oneSet ? OneSetPacing.begin(OneSetPacing.LISTED_STORES, w, blocks) : 0;
        long start = OneSetPacing.clock(s);
        boolean paced = OneSetPacing.paced(s);
        long p = packedOffset;
        for (long i = 0; i < count; i++) {
            long at = outer == null ? userBase + i * userStride : userBase + outer[(int) (outerFrom + i)];
            p += run(user, at, offsets, lengths, uniform, 0, nb, packed, p, pack, paced);
        }
        OneSetPacing.end(OneSetPacing.LISTED_STORES, w, blocks, s, start);
        return p - packedOffset;
    }
}
