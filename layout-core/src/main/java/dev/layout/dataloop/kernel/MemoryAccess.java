package dev.layout.dataloop.kernel;

import dev.layout.memory.Memory;
import java.lang.ref.Reference;

/**
 * Unchecked kernels for the dataloop engine, which has checked the whole footprint of an operation
 * before calling them. Not for general use: a wrong offset here is a wrong memory access.
 */
public final class MemoryAccess {
    private MemoryAccess() {}

    /** The kernels' handle on {@link sun.misc.Unsafe} (also read by the generated kernels). */
    static final sun.misc.Unsafe U = unsafe();

    private static sun.misc.Unsafe unsafe() {
        try {
            java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError("kernels need sun.misc.Unsafe: " + e);
        }
    }

    /**
     * When true (system property {@code layout.memory.checkEveryAccess}), every kernel access is
     * bounds-checked too. For debugging the engine; the up-front footprint check is always on.
     */
    public static final boolean CHECK_EVERY_ACCESS = Boolean.getBoolean("layout.memory.checkEveryAccess");

    /**
     * The widest block the strided loops move as word moves (a copy of the loops per width, the width
     * a constant; {@link #ONE_SET_WORD_BYTES} where blocks may share one cache set); each wider block
     * is one bulk copy, whose call costs more than the moves it would save below this.
     */
    public static final int WORD_BLOCK_BYTES = 128;

    /**
     * The widest block moved as word moves where blocks may share one cache set ({@link #oneSet}
     * strides, listed blocks): one 64-byte line. Wider ones there are bulk copies (see {@link
     * StridedLoops#of}).
     */
    public static final int ONE_SET_WORD_BYTES = 64;

    /**
     * The widest block moved as word moves where its stores fall into one cache set (a {@link #oneSet}
     * destination stride: an unpack), as for pacing ({@link #mayPace}): four word stores. Why: there
     * every block's stores miss, into lines of the same set, and wider blocks stored as words ran at
     * either of two speeds from one JVM to the next, where a bulk copy per block (a call that spaces the
     * blocks' stores) ran at the faster one more steadily (benchmarks/issue-22-rounds.md, session 42).
     * Loads from one set (a pack) run faster as words, up to {@link #ONE_SET_WORD_BYTES}.
     */
    public static final int ONE_SET_STORE_WORD_BYTES = 32;

    /**
     * Whether the generic loops move a block of {@code width} bytes as word moves (else as one bulk
     * copy): up to {@link #ONE_SET_STORE_WORD_BYTES} where the blocks' stores may share one cache set
     * ({@code oneSetStores}), else {@link #ONE_SET_WORD_BYTES} where their loads may ({@code oneSetLoads}),
     * else {@link #WORD_BLOCK_BYTES}. The one rule the loops ({@link StridedLoops#of}) and the cost model follow.
     */
    public static boolean movesAsWords(long width, boolean oneSetLoads, boolean oneSetStores) {
        return width <= (oneSetStores ? ONE_SET_STORE_WORD_BYTES : oneSetLoads ? ONE_SET_WORD_BYTES : WORD_BLOCK_BYTES);
    }

    /** Bytes at which addresses fall into the same set of the level-1 and level-2 caches (64 KiB on current x86 and Arm cores). */
    static final long SET_SPAN = 64 * 1024;

    /**
     * Whether blocks {@code stride} bytes apart all fall into one set of the level-1 and level-2 caches
     * (a stride that is a non-zero multiple of {@link #SET_SPAN}).
     */
    public static boolean oneSet(long stride) {
        return stride != 0 && stride % SET_SPAN == 0;
    }

    /**
     * Whether a loop over blocks of {@code width} bytes that are {@code stride} bytes apart on one side
     * may pace its blocks ({@link OneSetPacing} chooses whether it does): blocks in one cache set
     * ({@link #oneSet}) whose accesses are few (up to {@link #ONE_SET_STORE_WORD_BYTES}: at most four
     * word moves), issued back to back, may keep more of the set's lines in flight than it has ways, so
     * that they evict each other before they are used. Wider blocks issue enough moves of their own. The
     * one rule every loop and the cost model follow.
     */
    public static boolean mayPace(long stride, long width) {
        return oneSet(stride) && width <= ONE_SET_STORE_WORD_BYTES;
    }

    /** Stores to the thread's own pad ({@link #pad}) per paced block. */
    private static final int PAD_STORES = 11;

    /**
     * Each thread's pad: lines no other thread writes, so the stores to it always hit the cache. The
     * stores go to the middle ({@link #pad(long[], long)}: elements 8 to 18), at least 64 bytes from
     * either end, so no other object the collector places next to it shares their lines.
     */
    private static final ThreadLocal<long[]> PADS = ThreadLocal.withInitial(() -> new long[PAD_STORES + 16]);

    /** This thread's pad, for a paced loop to pass to {@link #pad(long[], long)} per block. */
    static long[] pad() {
        return PADS.get();
    }

    /**
     * Paces a loop by one block: {@link #PAD_STORES} stores of {@code v} to {@code pad}. They take
     * entries of the store queue that the next blocks' own accesses would otherwise fill, so fewer of
     * those are in flight at once, as a hand loop's call per block does with its stack traffic.
     */
    static void pad(long[] pad, long v) {
        pad[18] = v;
        pad[8] = v;
        pad[9] = v;
        pad[10] = v;
        pad[11] = v;
        pad[12] = v;
        pad[13] = v;
        pad[14] = v;
        pad[15] = v;
        pad[16] = v;
        pad[17] = v;
    }

    /** Copies one block ({@link #copyRaw}). */
    public static void copy(Memory src, long srcOffset, Memory dst, long dstOffset, long length) {
        if (CHECK_EVERY_ACCESS) {
            src.checkRange("kernel", srcOffset, length);
            dst.checkRange("kernel", dstOffset, length);
        }
        try {
            Object sb = src.base();
            long sa = src.address() + srcOffset;
            Object db = dst.base();
            long da = dst.address() + dstOffset;
            copyRaw(sb, sa, db, da, length);
        } finally {
            Reference.reachabilityFence(src);
            Reference.reachabilityFence(dst);
        }
    }

    /**
     * One block, by width: the widths that are whole words (a float, a double, a complex double, a
     * 3-vector of doubles) as exactly their words, other widths up to 64 bytes in a bounded number of
     * overlapping word moves ({@link #copySmall}), over 64 bytes the bulk copy intrinsic.
     */
    static void copyRaw(Object sb, long sa, Object db, long da, long length) {
        if (length == 8) {
            U.putLong(db, da, U.getLong(sb, sa));
        } else if (length == 4) {
            U.putInt(db, da, U.getInt(sb, sa));
        } else if (length == 16) {
            U.putLong(db, da, U.getLong(sb, sa));
            U.putLong(db, da + 8, U.getLong(sb, sa + 8));
        } else if (length <= 64) {
            copySmall(sb, sa, db, da, length);
        } else {
            MemoryAccess.U.copyMemory(sb, sa, db, da, length);
        }
    }

    /**
     * Up to 64 bytes, any width, in {@code ceil(width / 8)} word moves (fewer below 8 bytes), as short
     * {@code memcpy} implementations do: a width that is not a whole number of words ends with one
     * more word overlapping the previous one (9-16 bytes: the first and the last 8; 17-24: the first
     * 16 and the last 8; 25-32: the first and the last 16; 33-64: {@link #moveWords}). The source and
     * the destination never overlap, so bytes written twice are written with the same values.
     */
    static void copySmall(Object sb, long sa, Object db, long da, long length) {
        if (length > 32) {
            moveWords(sb, sa, db, da, length);
        } else if (length > 24) {
            move16x2(sb, sa, db, da, length - 16);
        } else if (length > 16) {
            move8x3(sb, sa, db, da, length - 8);
        } else if (length >= 8) {
            move8x2(sb, sa, db, da, length - 8);
        } else if (length >= 4) {
            move4x2(sb, sa, db, da, length - 4);
        } else if (length >= 2) {
            short a = U.getShort(sb, sa);
            short b = U.getShort(sb, sa + length - 2);
            U.putShort(db, da, a);
            U.putShort(db, da + length - 2, b);
        } else if (length == 1) {
            U.putByte(db, da, U.getByte(sb, sa));
        }
    }

    /**
     * A block of 33 to {@link StridedLoops#EXACT_WIDTHS} bytes ({@code w} its width): its whole 8-byte
     * words, then its last 8 bytes (overlapping the last whole word when the width is not a multiple of
     * 8), {@code ceil(w / 8)} moves in all. Exploits: with 8-byte words this is the fewest moves; the first and last 32 bytes
     * (what {@code memcpy} does with 32-byte registers) would take eight, and C2 merges the repeated
     * ones only when it knows both bases are arrays. In a copy for one width the loop unrolls to
     * straight moves.
     */
    static void moveWords(Object sb, long s, Object db, long d, long w) {
        int last = (int) w - 8;
        for (int o = 0; o < last; o += 8) { // an int loop: C2 unrolls counted int loops, not long ones
            U.putLong(db, d + o, U.getLong(sb, s + o));
        }
        U.putLong(db, d + last, U.getLong(sb, s + last));
    }

    /** A block of 17 to 24 bytes ({@code e} its width - 8; a 3-vector of doubles exactly): its first 16 and its last 8 bytes, all loads first. */
    static void move8x3(Object sb, long s, Object db, long d, long e) {
        long a0 = U.getLong(sb, s);
        long a1 = U.getLong(sb, s + 8);
        long b = U.getLong(sb, s + e);
        U.putLong(db, d, a0);
        U.putLong(db, d + 8, a1);
        U.putLong(db, d + e, b);
    }

    /** A block of 25 to 32 bytes ({@code e} its width - 16): its first and its last 16 bytes, all loads first. */
    static void move16x2(Object sb, long s, Object db, long d, long e) {
        long a0 = U.getLong(sb, s);
        long a1 = U.getLong(sb, s + 8);
        long b0 = U.getLong(sb, s + e);
        long b1 = U.getLong(sb, s + e + 8);
        U.putLong(db, d, a0);
        U.putLong(db, d + 8, a1);
        U.putLong(db, d + e, b0);
        U.putLong(db, d + e + 8, b1);
    }

    /** A block of 8 to 16 bytes ({@code e} its width - 8): its first and its last 8 bytes, both loads first. */
    static void move8x2(Object sb, long s, Object db, long d, long e) {
        long a = U.getLong(sb, s);
        long b = U.getLong(sb, s + e);
        U.putLong(db, d, a);
        U.putLong(db, d + e, b);
    }

    /** A block of 4 to 8 bytes ({@code e} its width - 4): its first and its last 4 bytes, both loads first. */
    static void move4x2(Object sb, long s, Object db, long d, long e) {
        int a = U.getInt(sb, s);
        int b = U.getInt(sb, s + e);
        U.putInt(db, d, a);
        U.putInt(db, d + e, b);
    }

    /**
     * Gathers {@code count} blocks of {@code blockBytes} at {@code srcOffset + i * srcStride} into
     * {@code dst} at {@code dstOffset + i * dstStride}. This one loop is both pack (dstStride =
     * blockBytes) and unpack (srcStride = blockBytes) of a vector leaf, through the copy of the strided
     * loops compiled for these memory kinds and this block width ({@link StridedLoops#of}).
     */
    public static void strided(
            Memory src,
            long srcOffset,
            long srcStride,
            Memory dst,
            long dstOffset,
            long dstStride,
            long blockBytes,
            long count) {
        if (CHECK_EVERY_ACCESS) {
            for (long i = 0; i < count; i++) {
                src.checkRange("kernel", srcOffset + i * srcStride, blockBytes);
                dst.checkRange("kernel", dstOffset + i * dstStride, blockBytes);
            }
        }
        try {
            Object sb = src.base();
            long sa = src.address() + srcOffset;
            Object db = dst.base();
            long da = dst.address() + dstOffset;
            StridedLoops loops = StridedLoops.of(sb, db, blockBytes, oneSet(srcStride), oneSet(dstStride));
            while (count > 0) {
                int n = (int) Math.min(count, 1 << 30);
                loops.strided(sb, sa, srcStride, db, da, dstStride, blockBytes, n);
                count -= n;
                sa += n * srcStride;
                da += n * dstStride;
            }
        } finally {
            Reference.reachabilityFence(src);
            Reference.reachabilityFence(dst);
        }
    }

    /**
     * Which kinds of memory a kernel call joins, 0 to 3: bit 0 set when the user memory is off-heap,
     * bit 1 when the packed memory is. Generated kernels are made per kinds, so each sees one.
     */
    public static int baseKinds(Memory user, Memory packed) {
        return (user.base() == null ? 1 : 0) | (packed.base() == null ? 2 : 0);
    }

    /**
     * Three nested strided loops in one call: {@code n3} planes of {@code n2} rows of {@code n1} blocks,
     * block (i, j, k) at {@code srcOffset + i * s3 + j * s2 + k * s1} going to {@code dstOffset + i *
     * d3 + j * d2 + k * d1}. The Flash I/O type's z, y and x loops (8 x 8 x 8 doubles of a block's
     * interior) in one kernel call instead of eight. Exploits: the width test and the int-range checks
     * are done once per call, not once per plane; each plane then runs the width's row kernel.
     */
    public static void strided3(
            Memory src,
            long srcOffset,
            long s3,
            long s2,
            long s1,
            Memory dst,
            long dstOffset,
            long d3,
            long d2,
            long d1,
            long blockBytes,
            long n3,
            long n2,
            long n1) {
        // the row loops of StridedLoops take counts in an int and no access checking
        if (CHECK_EVERY_ACCESS || n2 > Integer.MAX_VALUE || n1 > Integer.MAX_VALUE) {
            for (long i = 0; i < n3; i++) {
                for (long j = 0; j < n2; j++) {
                    strided(src, srcOffset + i * s3 + j * s2, s1, dst, dstOffset + i * d3 + j * d2, d1, blockBytes, n1);
                }
            }
            return;
        }
        try {
            int no = (int) n2;
            int ni = (int) n1;
            Object sb = src.base();
            long sa = src.address() + srcOffset;
            Object db = dst.base();
            long da = dst.address() + dstOffset;
            StridedLoops.of(sb, db, blockBytes, oneSet(s1), oneSet(d1))
                    .planes(sb, sa, s3, s2, s1, db, da, d3, d2, d1, blockBytes, n3, no, ni);
        } finally {
            Reference.reachabilityFence(src);
            Reference.reachabilityFence(dst);
        }
    }

    /** Reverses the bytes of each {@code unit}-byte element in {@code [offset, offset + length)} (external32). */
    public static void swapInPlace(Memory m, long offset, long length, int unit) {
        if (CHECK_EVERY_ACCESS) {
            m.checkRange("kernel", offset, length);
        }
        try {
            Object b = m.base();
            long a = m.address() + offset;
            switch (unit) {
                case 2 -> {
                    for (long i = 0; i + 2 <= length; i += 2) {
                        MemoryAccess.U.putShort(b, a + i, Short.reverseBytes(MemoryAccess.U.getShort(b, a + i)));
                    }
                }
                case 4 -> {
                    for (long i = 0; i + 4 <= length; i += 4) {
                        MemoryAccess.U.putInt(b, a + i, Integer.reverseBytes(MemoryAccess.U.getInt(b, a + i)));
                    }
                }
                case 8 -> {
                    for (long i = 0; i + 8 <= length; i += 8) {
                        MemoryAccess.U.putLong(b, a + i, Long.reverseBytes(MemoryAccess.U.getLong(b, a + i)));
                    }
                }
                default -> {}
            }
        } finally {
            Reference.reachabilityFence(m);
        }
    }
}
