package dev.layout.dataloop.kernel;

import java.lang.constant.ConstantDescs;
import java.lang.invoke.MethodHandles;
import java.util.Objects;

/**
 * The code of {@link StridedLoops}: this class file is defined as a hidden class once per copy that
 * {@link StridedLoops#of} holds. Nothing here may name this class's own type except through {@code
 * this} (an array or a cast of it would not verify in a hidden copy).
 */
final class StridedLoopCode extends StridedLoops {
    /**
     * What this copy serves, from the hidden class's class data: bits 0-1 the kinds of memory (bit 0:
     * source off-heap, bit 1: destination off-heap), the bits above the block width (over {@link
     * StridedLoops#EXACT_WIDTHS}: any wider width); -1 in the plain class, which serves all. A
     * constant to the JIT.
     */
    private static final int COPY = copy();

    private static final int KINDS = COPY < 0 ? -1 : COPY & 3;

    StridedLoopCode() {}

    private static int copy() {
        try {
            Integer k = MethodHandles.classData(MethodHandles.lookup(), ConstantDescs.DEFAULT_NAME, Integer.class);
            return k == null ? -1 : k;
        } catch (IllegalAccessException e) {
            return -1;
        }
    }

    /** The block width: this copy's own, a constant, in a hidden copy for one width ({@link StridedLoops#EXACT_WIDTHS}). */
    private static long width(long w) {
        return COPY < 0 || COPY >> 2 > EXACT_WIDTHS ? w : COPY >> 2;
    }

    /** The width class of {@code w} ({@link StridedLoops#widthClass}): a constant in a hidden copy. */
    private static int copyClass(long w) {
        return StridedLoops.widthClass(COPY < 0 ? w : COPY >> 2);
    }

    /**
     * The source base as this copy's JIT should see it: the constant null in a copy for off-heap
     * sources, a reference known not to be null in a copy for arrays. Exploits: C2 compiles an Unsafe
     * access whose base may be either as a "mixed" access (kept in order by barriers, not unrolled or
     * scheduled freely); with the kind a constant, each copy's loops compile as the hand-written loop
     * for that memory does, whatever its profile has seen.
     */
    private static Object src(Object sb) {
        return KINDS < 0 ? sb : (KINDS & 1) != 0 ? null : Objects.requireNonNull(sb);
    }

    /** {@link #src} for the destination base. */
    private static Object dst(Object db) {
        return KINDS < 0 ? db : (KINDS & 2) != 0 ? null : Objects.requireNonNull(db);
    }

    /**
     * A base for {@link #row} ({@code bit} 1: the source, 2: the destination): as {@link #src}, and an
     * array typed as the {@code byte[]} every heap {@code Memory} is. Exploits: an access to an array
     * of unknown type is still kept in order by barriers; to a {@code byte[]} C2 unrolls and schedules
     * the loop freely, which pays on one long row (vector w24 s32, benchmarks/issue-22-rounds.md). The other loops keep the
     * barriers: rows of a few blocks (hvector rows), listed blocks, and blocks in one cache set, paced
     * or not, ran slower typed (benchmarks/issue-22-rounds.md).
     */
    private static Object typed(Object b, int bit) {
        return KINDS < 0 ? b : (KINDS & bit) != 0 ? null : (byte[]) Objects.requireNonNull(b);
    }

    /**
     * {@code n} blocks of {@code blockBytes}, block i from {@code sa + i * ss} to {@code da + i * ds}:
     * blocks that may be paced ({@link MemoryAccess#mayPace}) as one row of {@link #oneSetPlanes};
     * other blocks in one cache set ({@link MemoryAccess#oneSet}) one row of {@link #rowsOf}; else one
     * {@link #row}.
     */
    @Override
    void stridedLoop(Object sb, long sa, long ss, Object db, long da, long ds, long blockBytes, int n) {
        if (MemoryAccess.mayPace(ss, blockBytes) || MemoryAccess.mayPace(ds, blockBytes)) {
            oneSetPlanes(-1, sb, sa, 0, 0, ss, db, da, 0, 0, ds, blockBytes, 1, 1, n);
        } else if (MemoryAccess.oneSet(ss) || MemoryAccess.oneSet(ds)) {
            rowsOf(sb, sa, 0, ss, db, da, 0, ds, blockBytes, 1, n);
        } else {
            row(typed(sb, 1), sa, ss, typed(db, 2), da, ds, blockBytes, n);
        }
    }

    /**
     * {@link #planesLoop} of blocks that may be paced ({@link MemoryAccess#mayPace}): every row {@link
     * #paced}, else each plane's rows by {@link #rowsOf}, by {@code strategy} ({@link OneSetPacing#PACED}
     * or 0) or, if it is -1, as {@link OneSetPacing} chooses once for the whole call. Exploits: rows of
     * a few blocks (an hvector of short vectors) pay the choice once per call, not once per row, and
     * their trials time the call's rows together.
     */
    void oneSetPlanes(
            int strategy,
            Object sb,
            long sa,
            long s3,
            long s2,
            long s1,
            Object db,
            long da,
            long d3,
            long d2,
            long d1,
            long w,
            long n3,
            int no,
            int ni) {
        int access = MemoryAccess.mayPace(d1, w) ? OneSetPacing.STRIDED_STORES : OneSetPacing.STRIDED_LOADS;
        long blocks = n3 * no * ni;
        int s = strategy >= 0 ? strategy : OneSetPacing.begin(access, w, blocks);
        long start = OneSetPacing.clock(s);
        for (long i = 0; i < n3; i++) {
            if (OneSetPacing.paced(s)) {
                paced(sb, sa + i * s3, s2, s1, db, da + i * d3, d2, d1, w, no, ni);
            } else {
                rowsOf(sb, sa + i * s3, s2, s1, db, da + i * d3, d2, d1, w, no, ni);
            }
        }
        OneSetPacing.end(access, w, blocks, s, start);
    }

    /** One row of {@code n} blocks of {@code w} bytes, block i from {@code sa + i * ss} to {@code da + i * ds}, by {@link #move}. */
    private static void row(Object sb, long sa, long ss, Object db, long da, long ds, long w, int n) {
        for (int i = 0; i < n; i++, sa += ss, da += ds) {
            move(sb, sa, db, da, w);
        }
    }

    /**
     * {@code no} rows of {@code n} blocks paced ({@link OneSetPacing}), block (i, j) from {@code sa + i
     * * so + j * ss} to {@code da + i * dO + j * ds}. Stores into one cache set (an unpack): each
     * block's moves ({@link #move}), then the pad's stores ({@link MemoryAccess#pad}, looked up once per
     * call). Loads from it (a pack): a call per block ({@link #moveByCall}), which paced them faster
     * than the pad.
     */
    void paced(Object sb, long sa, long so, long ss, Object db, long da, long dO, long ds, long w, int no, int n) {
        sb = src(sb);
        db = dst(db);
        if (!MemoryAccess.oneSet(ds)) {
            for (int i = 0; i < no; i++, sa += so, da += dO) {
                for (int j = 0; j < n; j++) {
                    moveByCall(sb, sa + j * ss, db, da + j * ds, w);
                }
            }
            return;
        }
        long[] pad = MemoryAccess.pad();
        for (int i = 0; i < no; i++, sa += so, da += dO) {
            for (int j = 0; j < n; j++) {
                move(sb, sa + j * ss, db, da + j * ds, w);
                MemoryAccess.pad(pad, j);
            }
        }
    }

    /**
     * One block of {@code w} bytes, inlined into the caller's loop: 1, 4 and 8 bytes one exact move,
     * other widths up to {@link StridedLoops#EXACT_WIDTHS} bytes their {@code ceil(w / 8)} word moves
     * (the last one overlapping when the width is not a whole number of words), wider blocks a bulk
     * copy. Exploits: in a hidden copy the width is a constant, so every loop here compiles only that
     * width's moves, at fixed offsets; {@link MemoryAccess#copyRaw}'s width tests would carry a branch
     * profile shared with every width the JVM has moved, and loops calling it were recompiled again and
     * again as the widths changed.
     */
    private static void move(Object sb, long s, Object db, long d, long w) {
        sun.misc.Unsafe u = MemoryAccess.U;
        w = width(w);
        int c = copyClass(w);
        if (c == 9) {
            u.copyMemory(sb, s, db, d, w);
        } else if (c == 8) {
            MemoryAccess.moveWords(sb, s, db, d, w);
        } else if (c == 7) {
            MemoryAccess.move16x2(sb, s, db, d, w - 16);
        } else if (c == 6) {
            MemoryAccess.move8x3(sb, s, db, d, w - 8);
        } else if (c == 5) {
            MemoryAccess.move8x2(sb, s, db, d, w - 8);
        } else if (c == 4) {
            u.putLong(db, d, u.getLong(sb, s));
        } else if (c == 3) {
            MemoryAccess.move4x2(sb, s, db, d, w - 4);
        } else if (c == 2) {
            u.putInt(db, d, u.getInt(sb, s));
        } else if (c == 1) {
            short a = u.getShort(sb, s);
            short b = u.getShort(sb, s + w - 2);
            u.putShort(db, d, a);
            u.putShort(db, d + w - 2, b);
        } else {
            u.putByte(db, d, u.getByte(sb, s));
        }
    }

    /**
     * {@link #move} for the paced widths (up to 32 bytes) as a call: the same moves, written out here for
     * every class, so the method is larger than C2 inlines into a hot loop (325 bytes of bytecode,
     * FreqInlineSize) and each block is a call of its own, as in a hand loop whose per-block copy is a
     * method. Exploits: the call's stack accesses and return between one block's loads and the next
     * keep fewer loads from the one cache set in flight. In a hidden copy the
     * class is a constant, so the compiled method holds only its width's moves.
     */
    private static void moveByCall(Object sb, long s, Object db, long d, long w) {
        sun.misc.Unsafe u = MemoryAccess.U;
        w = width(w);
        int c = copyClass(w);
        if (c == 7) {
            long e = w - 16;
            long a0 = u.getLong(sb, s);
            long a1 = u.getLong(sb, s + 8);
            long b0 = u.getLong(sb, s + e);
            long b1 = u.getLong(sb, s + e + 8);
            u.putLong(db, d, a0);
            u.putLong(db, d + 8, a1);
            u.putLong(db, d + e, b0);
            u.putLong(db, d + e + 8, b1);
        } else if (c == 6) {
            long e = w - 8;
            long a0 = u.getLong(sb, s);
            long a1 = u.getLong(sb, s + 8);
            long b = u.getLong(sb, s + e);
            u.putLong(db, d, a0);
            u.putLong(db, d + 8, a1);
            u.putLong(db, d + e, b);
        } else if (c == 5) {
            long a = u.getLong(sb, s);
            long b = u.getLong(sb, s + w - 8);
            u.putLong(db, d, a);
            u.putLong(db, d + w - 8, b);
        } else if (c == 4) {
            u.putLong(db, d, u.getLong(sb, s));
        } else if (c == 3) {
            int a = u.getInt(sb, s);
            int b = u.getInt(sb, s + w - 4);
            u.putInt(db, d, a);
            u.putInt(db, d + w - 4, b);
        } else if (c == 2) {
            u.putInt(db, d, u.getInt(sb, s));
        } else if (c == 1) {
            short a = u.getShort(sb, s);
            short b = u.getShort(sb, s + w - 2);
            u.putShort(db, d, a);
            u.putShort(db, d + w - 2, b);
        } else {
            u.putByte(db, d, u.getByte(sb, s));
        }
    }

    /**
     * {@code no} rows of {@code ni} blocks of {@code w} bytes, block (i, j) from {@code sa + i * so + j
     * * si} to {@code da + i * dO + j * di}: a nest of two loops, the addresses bumped by the strides,
     * each block by {@link #move}.
     */
    void rowsOf(Object sb, long sa, long so, long si, Object db, long da, long dO, long di, long w, int no, int ni) {
        sb = src(sb);
        db = dst(db);
        for (int i = 0; i < no; i++) {
            long s = sa + i * so;
            long d = da + i * dO;
            for (int j = 0; j < ni; j++, s += si, d += di) {
                move(sb, s, db, d, w);
            }
        }
    }

    /**
     * Blocks of one width {@code w} at listed offsets {@code ua + offsets[b]}, to or from ({@code
     * gather}) the contiguous side at {@code pa}, each by {@link #move}. The loop tests the direction
     * with an {@code if}, which C2 hoists out of the loop (a select it would leave in).
     */
    @Override
    void listedLoop(Object ub, long ua, long[] offsets, int from, int to, Object pb, long pa, long w, boolean gather) {
        if (gather) {
            ub = src(ub);
            pb = dst(pb);
        } else {
            pb = src(pb);
            ub = dst(ub);
        }
        w = width(w);
        long p = pa;
        for (int b = from; b < to; b++, p += w) {
            if (gather) {
                move(ub, ua + offsets[b], pb, p, w);
            } else {
                move(pb, p, ub, ua + offsets[b], w);
            }
        }
    }

    @Override
    void planesLoop(
            Object sb,
            long sa,
            long s3,
            long s2,
            long s1,
            Object db,
            long da,
            long d3,
            long d2,
            long d1,
            long blockBytes,
            long n3,
            int no,
            int ni) {
        sb = src(sb);
        db = dst(db);
        if (MemoryAccess.mayPace(s1, blockBytes) || MemoryAccess.mayPace(d1, blockBytes)) {
            oneSetPlanes(-1, sb, sa, s3, s2, s1, db, da, d3, d2, d1, blockBytes, n3, no, ni);
            return;
        }
        boolean tiled = blockBytes == 16 && tile16(d2, d1, no);
        for (long i = 0; i < n3; i++) {
            if (tiled) {
                tiled16(sb, sa + i * s3, s2, s1, db, da + i * d3, d2, d1, no, ni);
            } else {
                rowsOf(sb, sa + i * s3, s2, s1, db, da + i * d3, d2, d1, blockBytes, no, ni);
            }
        }
    }

    /**
     * Whether {@code no} rows of 16-byte blocks go through {@link #tiled16}: a transpose
     * (FFT columns, a column type resized to one element) unpacked into its transposed side, where
     * rows {@code dO} = 16 bytes apart interleave so that four consecutive rows' block j fill one
     * 64-byte line, and the lines never overlap (|di| >= 64), so the changed order of the moves cannot
     * change the result. Not for a pack reading the transposed side, whose tiled form was unsteady
     * from one JVM to the next where the row order is not.
     */
    static boolean tile16(long dO, long di, int no) {
        return no >= 4 && dO == 16 && Math.abs(di) >= 64;
    }

    /**
     * Rows of 16-byte blocks, four rows at a time: for each j, blocks (i..i+3, j). Exploits: on the
     * transposed side those four blocks are one 64-byte line, written (or read) whole once instead of
     * a quarter at a time in four passes over the rows; with rows 32 KiB apart (a 2048-column complex
     * slab) every pass would otherwise miss, because all of a column's lines fall in the same cache
     * sets. The other side reads (or writes) four sequential streams. Leftover rows (fewer than four)
     * go through {@link #rowsOf}.
     */
    void tiled16(Object sb, long sa, long so, long si, Object db, long da, long dO, long di, int no, int ni) {
        sb = src(sb);
        db = dst(db);
        int i = 0;
        for (; i + 4 <= no; i += 4) {
            long s = sa + i * so;
            long d = da + i * dO;
            for (int j = 0; j < ni; j++) {
                long sj = s + j * si;
                long dj = d + j * di;
                long a0 = MemoryAccess.U.getLong(sb, sj);
                long a1 = MemoryAccess.U.getLong(sb, sj + 8);
                long b0 = MemoryAccess.U.getLong(sb, sj + so);
                long b1 = MemoryAccess.U.getLong(sb, sj + so + 8);
                long c0 = MemoryAccess.U.getLong(sb, sj + 2 * so);
                long c1 = MemoryAccess.U.getLong(sb, sj + 2 * so + 8);
                long e0 = MemoryAccess.U.getLong(sb, sj + 3 * so);
                long e1 = MemoryAccess.U.getLong(sb, sj + 3 * so + 8);
                MemoryAccess.U.putLong(db, dj, a0);
                MemoryAccess.U.putLong(db, dj + 8, a1);
                MemoryAccess.U.putLong(db, dj + dO, b0);
                MemoryAccess.U.putLong(db, dj + dO + 8, b1);
                MemoryAccess.U.putLong(db, dj + 2 * dO, c0);
                MemoryAccess.U.putLong(db, dj + 2 * dO + 8, c1);
                MemoryAccess.U.putLong(db, dj + 3 * dO, e0);
                MemoryAccess.U.putLong(db, dj + 3 * dO + 8, e1);
            }
        }
        if (i < no) {
            rowsOf(sb, sa + i * so, so, si, db, da + i * dO, dO, di, 16, no - i, ni);
        }
    }
}
