package dev.layout.dataloop.kernel;

import dev.layout.memory.Memory;

/**
 * Unchecked moves of blocks at listed offsets, for the dataloop engine (which has checked the whole
 * footprint first; a wrong offset here is a wrong memory access): the blocks of an indexed leaf
 * ({@link #gather}, {@link #scatter}) and repeated small records of them, by the generic record loops
 * ({@link #gatherRepeated}) or a generated {@link WordKernel} ({@link #gatherWords}).
 */
public final class ListedAccess {
    private ListedAccess() {}

    /**
     * Packs blocks {@code [from, to)} of an indexed leaf: block b is {@code lengths[b]} bytes (or
     * {@code uniform} when {@code lengths} is null) at {@code src[srcBase + offsets[b]]}, written
     * back to back from {@code dst[dstOffset]}. Exploits: for uniform blocks the width test is hoisted
     * out of the loop (4/8/16/24-byte blocks are straight word moves: scalars, doubles, complex and
     * 3-vectors of a gather list); for varying lengths each block takes the width switch of {@link
     * #copyRaw}, which branch prediction learns for repeating patterns. Returns the bytes moved.
     */
    public static long gather(
            Memory src,
            long srcBase,
            long[] offsets,
            long[] lengths,
            long uniform,
            int from,
            int to,
            Memory dst,
            long dstOffset) {
        if (MemoryAccess.CHECK_EVERY_ACCESS) {
            long p = dstOffset;
            for (int b = from; b < to; b++) {
                long len = lengths == null ? uniform : lengths[b];
                src.checkRange("kernel", srcBase + offsets[b], len);
                dst.checkRange("kernel", p, len);
                p += len;
            }
        }
        Object sb = src.base();
        long sa = src.address() + srcBase;
        Object db = dst.base();
        long da = dst.address() + dstOffset;
        long d0 = da;
        if (lengths == null) {
            if (uniform == 8) {
                for (int b = from; b < to; b++, da += 8) {
                    MemoryAccess.U.putLong(db, da, MemoryAccess.U.getLong(sb, sa + offsets[b]));
                }
            } else if (uniform == 4) {
                for (int b = from; b < to; b++, da += 4) {
                    MemoryAccess.U.putInt(db, da, MemoryAccess.U.getInt(sb, sa + offsets[b]));
                }
            } else if (uniform == 16) {
                for (int b = from; b < to; b++, da += 16) {
                    long s = sa + offsets[b];
                    MemoryAccess.U.putLong(db, da, MemoryAccess.U.getLong(sb, s));
                    MemoryAccess.U.putLong(db, da + 8, MemoryAccess.U.getLong(sb, s + 8));
                }
            } else if (uniform == 24) {
                for (int b = from; b < to; b++, da += 24) {
                    long s = sa + offsets[b];
                    MemoryAccess.U.putLong(db, da, MemoryAccess.U.getLong(sb, s));
                    MemoryAccess.U.putLong(db, da + 8, MemoryAccess.U.getLong(sb, s + 8));
                    MemoryAccess.U.putLong(db, da + 16, MemoryAccess.U.getLong(sb, s + 16));
                }
            } else if (uniform < 64) {
                listed(sb, sa, offsets, from, to, db, da, uniform, true);
                da += (to - from) * uniform;
            } else {
                for (int b = from; b < to; b++, da += uniform) {
                    MemoryAccess.U.copyMemory(sb, sa + offsets[b], db, da, uniform);
                }
            }
        } else {
            for (int b = from; b < to; b++) {
                long len = lengths[b];
                MemoryAccess.copyRaw(sb, sa + offsets[b], db, da, len);
                da += len;
            }
        }
        return da - d0;
    }

    /**
     * Blocks of one width {@code w} under 64 bytes at listed offsets {@code ua + offsets[b]}, to or
     * from ({@code gather}) the contiguous side at {@code pa}: the overlapping word moves of {@link
     * #copySmall}, the width class chosen once per call, one loop per class and no branch per block.
     */
    static void listed(
            Object ub, long ua, long[] offsets, int from, int to, Object pb, long pa, long w, boolean gather) {
        Object sb = gather ? ub : pb;
        Object db = gather ? pb : ub;
        sun.misc.Unsafe u = MemoryAccess.U;
        long p = pa;
        if (w > 32) {
            long e = w - 32;
            for (int b = from; b < to; b++, p += w) {
                long x = ua + offsets[b];
                long s = gather ? x : p;
                long d = gather ? p : x;
                long a0 = u.getLong(sb, s);
                long a1 = u.getLong(sb, s + 8);
                long a2 = u.getLong(sb, s + 16);
                long a3 = u.getLong(sb, s + 24);
                long b0 = u.getLong(sb, s + e);
                long b1 = u.getLong(sb, s + e + 8);
                long b2 = u.getLong(sb, s + e + 16);
                long b3 = u.getLong(sb, s + e + 24);
                u.putLong(db, d, a0);
                u.putLong(db, d + 8, a1);
                u.putLong(db, d + 16, a2);
                u.putLong(db, d + 24, a3);
                u.putLong(db, d + e, b0);
                u.putLong(db, d + e + 8, b1);
                u.putLong(db, d + e + 16, b2);
                u.putLong(db, d + e + 24, b3);
            }
        } else if (w > 16) {
            long e = w - 16;
            for (int b = from; b < to; b++, p += w) {
                long x = ua + offsets[b];
                long s = gather ? x : p;
                long d = gather ? p : x;
                long a0 = u.getLong(sb, s);
                long a1 = u.getLong(sb, s + 8);
                long b0 = u.getLong(sb, s + e);
                long b1 = u.getLong(sb, s + e + 8);
                u.putLong(db, d, a0);
                u.putLong(db, d + 8, a1);
                u.putLong(db, d + e, b0);
                u.putLong(db, d + e + 8, b1);
            }
        } else if (w >= 8) {
            long e = w - 8;
            for (int b = from; b < to; b++, p += w) {
                long x = ua + offsets[b];
                long s = gather ? x : p;
                long d = gather ? p : x;
                long a = u.getLong(sb, s);
                long c = u.getLong(sb, s + e);
                u.putLong(db, d, a);
                u.putLong(db, d + e, c);
            }
        } else if (w >= 4) {
            long e = w - 4;
            for (int b = from; b < to; b++, p += w) {
                long x = ua + offsets[b];
                long s = gather ? x : p;
                long d = gather ? p : x;
                int a = u.getInt(sb, s);
                int c = u.getInt(sb, s + e);
                u.putInt(db, d, a);
                u.putInt(db, d + e, c);
            }
        } else {
            for (int b = from; b < to; b++, p += w) {
                long x = ua + offsets[b];
                long s = gather ? x : p;
                long d = gather ? p : x;
                MemoryAccess.copySmall(sb, s, db, d, w);
            }
        }
    }

    /** Unpacks blocks {@code [from, to)} of an indexed leaf: the mirror of {@link #gather}, same exploits. */
    public static long scatter(
            Memory src,
            long srcOffset,
            Memory dst,
            long dstBase,
            long[] offsets,
            long[] lengths,
            long uniform,
            int from,
            int to) {
        if (MemoryAccess.CHECK_EVERY_ACCESS) {
            long p = srcOffset;
            for (int b = from; b < to; b++) {
                long len = lengths == null ? uniform : lengths[b];
                dst.checkRange("kernel", dstBase + offsets[b], len);
                src.checkRange("kernel", p, len);
                p += len;
            }
        }
        Object sb = src.base();
        long sa = src.address() + srcOffset;
        Object db = dst.base();
        long da = dst.address() + dstBase;
        long s0 = sa;
        if (lengths == null) {
            if (uniform == 8) {
                for (int b = from; b < to; b++, sa += 8) {
                    MemoryAccess.U.putLong(db, da + offsets[b], MemoryAccess.U.getLong(sb, sa));
                }
            } else if (uniform == 4) {
                for (int b = from; b < to; b++, sa += 4) {
                    MemoryAccess.U.putInt(db, da + offsets[b], MemoryAccess.U.getInt(sb, sa));
                }
            } else if (uniform == 16) {
                for (int b = from; b < to; b++, sa += 16) {
                    long d = da + offsets[b];
                    MemoryAccess.U.putLong(db, d, MemoryAccess.U.getLong(sb, sa));
                    MemoryAccess.U.putLong(db, d + 8, MemoryAccess.U.getLong(sb, sa + 8));
                }
            } else if (uniform == 24) {
                for (int b = from; b < to; b++, sa += 24) {
                    long d = da + offsets[b];
                    MemoryAccess.U.putLong(db, d, MemoryAccess.U.getLong(sb, sa));
                    MemoryAccess.U.putLong(db, d + 8, MemoryAccess.U.getLong(sb, sa + 8));
                    MemoryAccess.U.putLong(db, d + 16, MemoryAccess.U.getLong(sb, sa + 16));
                }
            } else if (uniform < 64) {
                listed(db, da, offsets, from, to, sb, sa, uniform, false);
                sa += (to - from) * uniform;
            } else {
                for (int b = from; b < to; b++, sa += uniform) {
                    MemoryAccess.U.copyMemory(sb, sa, db, da + offsets[b], uniform);
                }
            }
        } else {
            for (int b = from; b < to; b++) {
                long len = lengths[b];
                MemoryAccess.copyRaw(sb, sa, db, da + offsets[b], len);
                sa += len;
            }
        }
        return sa - s0;
    }

    /**
     * Packs {@code count} instances of a small indexed pattern repeating every {@code srcStride}
     * bytes (a vector of an indexed leaf: the Indexed test, struct members), or, when {@code outer}
     * is not null, at {@code srcBase + outer[outerFrom + i]} (a list of records: atoms). Exploits:
     * the pattern's offsets and lengths are loaded into locals once when it has at most four blocks,
     * so each instance is a fixed sequence of width-switched moves with no index-array traffic; the
     * packed side is written sequentially. Returns the bytes moved.
     */
    public static long gatherRepeated(
            Memory src,
            long srcBase,
            long srcStride,
            long[] outer,
            int outerFrom,
            long count,
            long[] offsets,
            long[] lengths,
            long uniform,
            Memory dst,
            long dstOffset) {
        int nb = offsets.length;
        long size = 0;
        for (int b = 0; b < nb; b++) {
            size += lengths == null ? uniform : lengths[b];
        }
        if (MemoryAccess.CHECK_EVERY_ACCESS || nb > 4 || count > Integer.MAX_VALUE) {
            long p = dstOffset;
            for (long i = 0; i < count; i++) {
                long at = outer == null ? srcBase + i * srcStride : srcBase + outer[(int) (outerFrom + i)];
                p += gather(src, at, offsets, lengths, uniform, 0, nb, dst, p);
            }
            return p - dstOffset;
        }
        Object sb = src.base();
        long sa = src.address() + srcBase;
        Object db = dst.base();
        long da = dst.address() + dstOffset;
        long o0 = offsets[0];
        long o1 = nb > 1 ? offsets[1] : 0;
        long o2 = nb > 2 ? offsets[2] : 0;
        long o3 = nb > 3 ? offsets[3] : 0;
        long l0 = lengths == null ? uniform : lengths[0];
        long l1 = nb > 1 ? (lengths == null ? uniform : lengths[1]) : 0;
        long l2 = nb > 2 ? (lengths == null ? uniform : lengths[2]) : 0;
        long l3 = nb > 3 ? (lengths == null ? uniform : lengths[3]) : 0;
        long p1 = l0;
        long p2 = p1 + l1;
        long p3 = p2 + l2;
        int n = (int) count;
        for (int i = 0; i < n; i++) {
            long s = outer == null ? sa + i * srcStride : sa + outer[outerFrom + i];
            long d = da + i * size;
            MemoryAccess.copyRaw(sb, s + o0, db, d, l0);
            if (nb > 1) {
                MemoryAccess.copyRaw(sb, s + o1, db, d + p1, l1);
                if (nb > 2) {
                    MemoryAccess.copyRaw(sb, s + o2, db, d + p2, l2);
                    if (nb > 3) {
                        MemoryAccess.copyRaw(sb, s + o3, db, d + p3, l3);
                    }
                }
            }
        }
        return count * size;
    }

    /** Unpacks {@code count} instances of a small repeating indexed pattern: the mirror of {@link #gatherRepeated}, same exploits. */
    public static long scatterRepeated(
            Memory src,
            long srcOffset,
            Memory dst,
            long dstBase,
            long dstStride,
            long[] outer,
            int outerFrom,
            long count,
            long[] offsets,
            long[] lengths,
            long uniform) {
        int nb = offsets.length;
        long size = 0;
        for (int b = 0; b < nb; b++) {
            size += lengths == null ? uniform : lengths[b];
        }
        if (MemoryAccess.CHECK_EVERY_ACCESS || nb > 4 || count > Integer.MAX_VALUE) {
            long p = srcOffset;
            for (long i = 0; i < count; i++) {
                long at = outer == null ? dstBase + i * dstStride : dstBase + outer[(int) (outerFrom + i)];
                p += scatter(src, p, dst, at, offsets, lengths, uniform, 0, nb);
            }
            return p - srcOffset;
        }
        Object sb = src.base();
        long sa = src.address() + srcOffset;
        Object db = dst.base();
        long da = dst.address() + dstBase;
        long o0 = offsets[0];
        long o1 = nb > 1 ? offsets[1] : 0;
        long o2 = nb > 2 ? offsets[2] : 0;
        long o3 = nb > 3 ? offsets[3] : 0;
        long l0 = lengths == null ? uniform : lengths[0];
        long l1 = nb > 1 ? (lengths == null ? uniform : lengths[1]) : 0;
        long l2 = nb > 2 ? (lengths == null ? uniform : lengths[2]) : 0;
        long l3 = nb > 3 ? (lengths == null ? uniform : lengths[3]) : 0;
        long p1 = l0;
        long p2 = p1 + l1;
        long p3 = p2 + l2;
        int n = (int) count;
        for (int i = 0; i < n; i++) {
            long d = outer == null ? da + i * dstStride : da + outer[outerFrom + i];
            long s = sa + i * size;
            MemoryAccess.copyRaw(sb, s, db, d + o0, l0);
            if (nb > 1) {
                MemoryAccess.copyRaw(sb, s + p1, db, d + o1, l1);
                if (nb > 2) {
                    MemoryAccess.copyRaw(sb, s + p2, db, d + o2, l2);
                    if (nb > 3) {
                        MemoryAccess.copyRaw(sb, s + p3, db, d + o3, l3);
                    }
                }
            }
        }
        return count * size;
    }

    /**
     * Packs {@code count} instances of a small pattern given as word moves (see {@code
     * Dataloop.words}: pairs of user and packed offsets, 8-byte moves then 4-byte moves) through its
     * generated {@code kernel}, instance i at {@code userBase + i * userStride} or, when {@code outer}
     * is not null, at {@code userBase + outer[outerFrom + i]}. Returns the bytes moved.
     */
    public static long gatherWords(
            WordKernel kernel,
            Memory user,
            long userBase,
            long userStride,
            long[] outer,
            int outerFrom,
            long count,
            long size,
            Memory packed,
            long packedOffset) {
        Object ub = user.base();
        long ua = user.address() + userBase;
        Object pb = packed.base();
        long pa = packed.address() + packedOffset;
        if (outer == null) {
            kernel.gather(ub, ua, userStride, (int) count, pb, pa);
        } else {
            kernel.gatherList(ub, ua, outer, outerFrom, (int) count, pb, pa);
        }
        return count * size;
    }

    /** Unpacks {@code count} instances of a word pattern: the mirror of {@link #gatherWords}. */
    public static long scatterWords(
            WordKernel kernel,
            Memory user,
            long userBase,
            long userStride,
            long[] outer,
            int outerFrom,
            long count,
            long size,
            Memory packed,
            long packedOffset) {
        Object ub = user.base();
        long ua = user.address() + userBase;
        Object pb = packed.base();
        long pa = packed.address() + packedOffset;
        if (outer == null) {
            kernel.scatter(ub, ua, userStride, (int) count, pb, pa);
        } else {
            kernel.scatterList(ub, ua, outer, outerFrom, (int) count, pb, pa);
        }
        return count * size;
    }
}
