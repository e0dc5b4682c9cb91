package dev.layout.bench.sweep;

import dev.layout.bench.memory.Raw;
import sun.misc.Unsafe;

/**
 * The natural hand loops of a sweep point, the way an engineer writes a pack loop for one layout:
 * walk the blocks in order and move each one with the bulk copy ({@link Move#COPY}: {@code
 * copyMemory}, which is {@code System.arraycopy} on arrays), with plain word moves ({@link
 * Move#WORDS}: 8-byte words, then a 4-, 2- and 1-byte tail) or element by element ({@link
 * Move#ELEMENTS}: a float64 loop, a float32 loop, a byte loop). Pack moves user to packed, unpack the
 * reverse; over (base, address) pairs, so one loop serves every kind of memory.
 */
final class HandLoops {
    private static final Unsafe U = Raw.U;

    private final SweepPoint point;
    /** INDEXED_BLOCK: block byte offsets within an instance; null for the regular shapes. */
    private final long[] offsets;
    /** INDEXED_BLOCK: bytes between instances. */
    private final long extent;

    HandLoops(SweepPoint point) {
        this.point = point;
        if (point.shape() == SweepPoint.Shape.INDEXED_BLOCK) {
            long[] p = SweepPoint.permutation((int) point.blocksPerType(), SweepPoint.SEED);
            for (int i = 0; i < p.length; i++) {
                p[i] *= point.stride();
            }
            this.offsets = p;
            this.extent = point.type().extent();
        } else {
            this.offsets = null;
            this.extent = 0;
        }
    }

    /** How a hand loop moves one block. */
    enum Move {
        COPY,
        WORDS,
        ELEMENTS;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Runs the loop once, moving blocks by {@code move}, packing when {@code pack} (else unpacking). */
    void run(Object ub, long ua, Object pb, long pa, Move move, boolean pack) {
        int how = move == Move.ELEMENTS ? -point.elemBytes() : move == Move.WORDS ? 1 : 0;
        long w = point.blockBytes();
        long s = point.stride();
        switch (point.shape()) {
            case VECTOR, STRUCT -> {
                long n = point.blocksPerType() * point.count();
                for (long i = 0; i < n; i++) {
                    block(ub, ua + i * s, pb, pa + i * w, w, how, pack);
                }
            }
            case HVECTOR -> {
                long rows = point.blocksPerType() / SweepPoint.ROW;
                long rowStride = (SweepPoint.ROW + 1) * s;
                long p = pa;
                for (long r = 0; r < rows; r++) {
                    long u = ua + r * rowStride;
                    for (int j = 0; j < SweepPoint.ROW; j++) {
                        block(ub, u + j * s, pb, p, w, how, pack);
                        p += w;
                    }
                }
            }
            case INDEXED_BLOCK -> {
                long[] off = offsets;
                long p = pa;
                for (long c = 0; c < point.count(); c++) {
                    long u = ua + c * extent;
                    for (long o : off) {
                        block(ub, u + o, pb, p, w, how, pack);
                        p += w;
                    }
                }
            }
        }
    }

    /** {@code how}: 0 bulk copy, 1 words, -e elements of e bytes. */
    private static void block(Object ub, long u, Object pb, long p, long w, int how, boolean pack) {
        if (pack) {
            move(ub, u, pb, p, w, how);
        } else {
            move(pb, p, ub, u, w, how);
        }
    }

    private static void move(Object sb, long sa, Object db, long da, long w, int how) {
        if (how == 0) {
            U.copyMemory(sb, sa, db, da, w);
            return;
        }
        if (how == -8) {
            for (long i = 0; i < w; i += 8) {
                U.putLong(db, da + i, U.getLong(sb, sa + i));
            }
            return;
        }
        if (how == -4) {
            for (long i = 0; i < w; i += 4) {
                U.putInt(db, da + i, U.getInt(sb, sa + i));
            }
            return;
        }
        if (how == -1) {
            for (long i = 0; i < w; i++) {
                U.putByte(db, da + i, U.getByte(sb, sa + i));
            }
            return;
        }
        long i = 0;
        for (; i + 8 <= w; i += 8) {
            U.putLong(db, da + i, U.getLong(sb, sa + i));
        }
        if (i + 4 <= w) {
            U.putInt(db, da + i, U.getInt(sb, sa + i));
            i += 4;
        }
        if (i + 2 <= w) {
            U.putShort(db, da + i, U.getShort(sb, sa + i));
            i += 2;
        }
        if (i < w) {
            U.putByte(db, da + i, U.getByte(sb, sa + i));
        }
    }
}
