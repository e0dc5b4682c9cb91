package dev.layout.dataloop.kernel;

import dev.layout.memory.Memory;
import java.lang.ref.Reference;

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
     * one loop of the width's moves ({@link StridedLoops#listed}, its width a constant); for varying lengths
     * one bulk copy each, whose own size dispatch mispredicts less on a list whose lengths do not repeat
     * (sparse rows) than {@link MemoryAccess#copyRaw}'s width switch. Uniform blocks in one cache set
     * ({@link #inOneSet}) move as one-set loads ({@link MemoryAccess#movesAsWords}), others as blocks at any
     * other stride. Never paced, even with every block in one cache set: stores to listed blocks lost to the
     * plain loop at every width tried (benchmarks/issue-22-rounds.md, thirteenth round). Returns the bytes
     * moved.
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
            boolean pack) {
        boolean oneSet = lengths == null && inOneSet(offsets, from, to); // only uniform blocks ask
        return listed(user, userBase, offsets, lengths, uniform, from, to, packed, packedOffset, pack, oneSet, false);
    }

    /**
     * {@link #blocks}, and for a record's ({@code record}) varying lengths a block of up to 16 bytes by
     * {@link MemoryAccess#copyRaw}'s width switch, whose few branches prediction learns as the record repeats.
     */
    private static long listed(
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
            boolean oneSet,
            boolean record) {
        if (MemoryAccess.CHECK_EVERY_ACCESS) {
            long p = packedOffset;
            for (int b = from; b < to; b++) {
                long len = lengths == null ? uniform : lengths[b];
                user.checkRange("kernel", userBase + offsets[b], len);
                packed.checkRange("kernel", p, len);
                p += len;
            }
        }
        try {
            Object ub = user.base();
            long ua = user.address() + userBase;
            Object pb = packed.base();
            long pa = packed.address() + packedOffset;
            if (lengths == null) {
                // Blocks in one set move as one-set loads, gathered or scattered (whether a scatter's stores fall
                // in one set is not known: a permutation of one-set strides spreads them in time).
                StridedLoops.of(pack ? ub : pb, pack ? pb : ub, uniform, oneSet, false)
                        .listed(ub, ua, offsets, from, to, pb, pa, uniform, pack);
                return (to - from) * uniform;
            }
            long p = pa;
            for (int b = from; b < to; b++) {
                long len = lengths[b];
                if (len > 16 || !record) {
                    if (pack) {
                        MemoryAccess.U.copyMemory(ub, ua + offsets[b], pb, p, len);
                    } else {
                        MemoryAccess.U.copyMemory(pb, p, ub, ua + offsets[b], len);
                    }
                } else if (pack) {
                    MemoryAccess.copyRaw(ub, ua + offsets[b], pb, p, len);
                } else {
                    MemoryAccess.copyRaw(pb, p, ub, ua + offsets[b], len);
                }
                p += len;
            }
            return p - pa;
        } finally {
            Reference.reachabilityFence(user);
            Reference.reachabilityFence(packed);
        }
    }

    /** Steps between consecutive blocks that {@link #inOneSet} looks at. */
    static final int SAMPLED_STEPS = 8;

    /**
     * Whether blocks {@code [from, to)} at {@code offsets} lie in one cache set: at least half of the first
     * {@link #SAMPLED_STEPS} steps between consecutive offsets are one-set strides ({@link
     * MemoryAccess#oneSet}). Exploits: a list that steps by such strides (a permutation of one-set slots)
     * does so throughout, and a list of other offsets almost never does, so a few steps tell them apart at
     * no cost beside the blocks; only the speed depends on the answer, never the bytes moved.
     */
    static boolean inOneSet(long[] offsets, int from, int to) {
        int end = Math.min(to, from + 1 + SAMPLED_STEPS);
        int oneSet = 0;
        for (int b = from + 1; b < end; b++) {
            if (MemoryAccess.oneSet(offsets[b] - offsets[b - 1])) {
                oneSet++;
            }
        }
        return oneSet > 0 && 2 * oneSet >= end - from - 1;
    }

    /**
     * Packs ({@code pack}) or unpacks {@code count} instances of a small indexed pattern repeating every
     * {@code userStride} bytes (a vector of an indexed leaf: the Indexed test, struct members), or,
     * when {@code outer} is not null, at {@code userBase + outer[outerFrom + i]} (a list of records:
     * atoms): one {@link #blocks} loop per instance (records that pay a call per instance run as
     * generated word moves instead, {@link GeneratedKernel#records}). Returns the bytes moved.
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
            boolean pack) {
        int nb = offsets.length;
        // one set within a record, or from one record to the next (only uniform blocks ask)
        boolean oneSet = lengths == null
                && (inOneSet(offsets, 0, nb)
                        || (outer == null
                                ? count > 1 && MemoryAccess.oneSet(userStride)
                                : inOneSet(outer, outerFrom, (int) (outerFrom + count))));
        long p = packedOffset;
        for (long i = 0; i < count; i++) {
            long at = outer == null ? userBase + i * userStride : userBase + outer[(int) (outerFrom + i)];
            p += listed(user, at, offsets, lengths, uniform, 0, nb, packed, p, pack, oneSet, true);
        }
        return p - packedOffset;
    }
}
