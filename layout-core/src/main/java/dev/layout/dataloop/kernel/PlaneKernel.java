package dev.layout.dataloop.kernel;

import static dev.layout.bytecode.ClassBytes.*;

import dev.layout.bytecode.ClassBytes;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Planes of rows of strided blocks (Flash I/O's z over y over x: a vector of vectors of blocks under
 * 64 bytes, packed contiguously), generated per plane shape as a hidden class whose counts and
 * strides inside a plane are constants. Exploits: a row is straight-line code with constant offsets
 * (each block its {@link #wordMoves}) and the row loop has a constant trip count, like the
 * hand-written loop nest; with the strides in registers, C2's unrolled loop computes every address
 * with a multiply and spills them.
 *
 * <p>A {@link #strip} is the one-dimensional case, a long vector leaf: one loop over its blocks with
 * the stride and width literals, the very loop a hand-written pack of a strided array is.
 */
public abstract class PlaneKernel {
    /**
     * The most word moves a generated loop body holds (a row of a plane, a record of {@link
     * WordKernel}): a bound on code size, far below C2's limit on the methods it compiles.
     */
    public static final int MAX_BODY_MOVES = 32;
    /** Rows of the strip's rows form ({@link #strip}). */
    public static final int MAX_ROW = 16;
    /** The most rows per plane. */
    public static final int MAX_ROWS = 1 << 16;

    private static final ConcurrentHashMap<Key, PlaneKernel> CACHE = new ConcurrentHashMap<>();
    private static final String SELF = "dev/layout/dataloop/kernel/PlaneKernel";
    private static final String DESC = "(Ljava/lang/Object;JJILjava/lang/Object;J)V";

    protected PlaneKernel() {}

    /**
     * Packs {@code count} planes, plane i at {@code ub + ua + i * spacing}, to {@code pb + pa + i *
     * planeBytes}: row j of a plane at {@code + j * rowStride}, block k of a row at {@code + k *
     * blockStride}. A {@link #strip} packs {@code count} blocks, block i at {@code ub + ua + i *
     * stride}, to {@code pb + pa + i * width}, and does not read {@code spacing}.
     */
    abstract void gather(Object ub, long ua, long spacing, int count, Object pb, long pa);

    /** Unpacks: the mirror of {@link #gather}. */
    abstract void scatter(Object ub, long ua, long spacing, int count, Object pb, long pa);

    /**
     * The generated kernel for planes of {@code rows} rows {@code rowStride} bytes apart, each of
     * {@code blocks} blocks of {@code width} bytes {@code blockStride} apart; null when a row has more
     * than {@link #MAX_BODY_MOVES} word moves, or generation is off or at its bound.
     * One class per combination of memory kinds ({@link MemoryAccess#baseKinds}), as {@link WordKernel#of}.
     */
    public static PlaneKernel of(int width, long blocks, long blockStride, long rows, long rowStride, int kinds) {
        GeneratedKernels.checkKinds("PlaneKernel", kinds);
        if (width < 1 || blocks < 1 || blocks * movesPerBlock(width) > MAX_BODY_MOVES || rows < 1 || rows > MAX_ROWS) {
            return null;
        }
        return GeneratedKernels.cached(
                CACHE,
                new Key(width, (int) blocks, blockStride, (int) rows, rowStride, kinds, false),
                PlaneKernel::generate);
    }

    /**
     * Blocks a strip moves per plane: 1 for the one-loop form (then {@code count} is in blocks), {@link
     * #MAX_ROW} for the rows form (see {@link #strip}). Set once, before the kernel is published by the
     * cache; {@link MemoryAccess#strip} reads it.
     */
    int stripRow = 1;

    /**
     * The generated kernel for a strip: any number of blocks of {@code width} bytes, {@code stride}
     * bytes apart on the user side and adjacent on the packed side, for the memory kinds {@code kinds};
     * null when a block is more than {@link #MAX_BODY_MOVES} word moves or generation is off or at its
     * bound. Run it through {@link MemoryAccess#strip}.
     *
     * <p>Its form depends on the memory: 4-byte blocks with the packed side on the heap get rows of
     * {@link #MAX_ROW} straight-line blocks (planes of one row; {@link MemoryAccess#strip} moves the
     * whole rows and leaves the tail), everything else the one loop: C2 compiles narrow stores into a
     * heap array better as straight-line rows.
     */
    public static PlaneKernel strip(int width, long stride, int kinds) {
        GeneratedKernels.checkKinds("PlaneKernel", kinds);
        if (width < 1 || movesPerBlock(width) > MAX_BODY_MOVES) {
            return null;
        }
        return GeneratedKernels.cached(CACHE, new Key(width, 1, stride, 1, stride, kinds, true), PlaneKernel::generate);
    }

    private record Key(int width, int blocks, long blockStride, int rows, long rowStride, int kinds, boolean strip) {}

    private static PlaneKernel generate(Key key) {
        ClassBytes cb = new ClassBytes(SELF + "$$Planes", SELF, 49);
        GeneratedKernels.constructor(cb, SELF);
        boolean rows = key.strip && key.width == 4 && (key.kinds & 2) == 0;
        if (rows) {
            // The rows form of a strip: planes of one row of MAX_ROW blocks, spaced MAX_ROW * stride.
            Key row = new Key(key.width, MAX_ROW, key.blockStride, 1, MAX_ROW * key.blockStride, key.kinds, false);
            loop(cb, row, "gather", true);
            loop(cb, row, "scatter", false);
        } else if (key.strip) {
            strip(cb, key, "gather", true);
            strip(cb, key, "scatter", false);
        } else {
            loop(cb, key, "gather", true);
            loop(cb, key, "scatter", false);
        }
        PlaneKernel k = (PlaneKernel) GeneratedKernels.instantiate(cb, (key.strip ? "strip " : "planes ") + key);
        k.stripRow = rows ? MAX_ROW : 1;
        return k;
    }

    // Locals as in loop: 1 ub, 2-3 ua, 6 count, 7 pb, 8-9 pa, 10 i (block), 12-13 u, 14-15 p.
    private static void strip(ClassBytes cb, Key key, String name, boolean gather) {
        ClassBytes.Code c = cb.code();
        int blocks = c.label();
        int end = c.label();
        GeneratedKernels.fixBases(c, key.kinds, 1, 7);
        c.op(ICONST_0).istore(10);
        c.bind(blocks).iload(10).iload(6).branch(IF_ICMPGE, end);
        // u = ua + i * stride; p = pa + i * width, both literals
        c.lload(2).iload(10).op(I2L).ldcLong(key.blockStride).op(LMUL).op(LADD).lstore(12);
        c.lload(8).iload(10).op(I2L).ldcLong(key.width).op(LMUL).op(LADD).lstore(14);
        moves(c, key.width, 0, 0, gather);
        c.iinc(10, 1).branch(GOTO, blocks);
        c.bind(end).op(RETURN);
        c.end(0, name, DESC, 12, 16);
    }

    /** The moves of one block of {@code width} bytes ({@link #wordMoves}) between user address local 12 (+ {@code uo}) and packed local 14 (+ {@code po}). */
    private static void moves(ClassBytes.Code c, int width, long uo, long po, boolean gather) {
        long[] m = wordMoves(width);
        for (int k = 0; k < m.length; k += 2) {
            long h = m[k];
            int bytes = (int) m[k + 1];
            if (gather) {
                GeneratedKernels.move(c, bytes, 7, 14, po + h, 1, 12, uo + h);
            } else {
                GeneratedKernels.move(c, bytes, 1, 12, uo + h, 7, 14, po + h);
            }
        }
    }

    /** How many word moves {@link #wordMoves} makes of a block of {@code width} bytes. */
    public static int movesPerBlock(long width) {
        int word = width >= 8 ? 8 : width >= 4 ? 4 : width >= 2 ? 2 : 1;
        return (int) ((width + word - 1) / word);
    }

    /**
     * The word moves that copy a block of {@code width} bytes (1 to 8 x {@link #MAX_BODY_MOVES}) with constant offsets, as pairs
     * (offset, bytes): whole 8-byte words, and a width that is not a multiple of the largest word that
     * fits in it ends with one more such word overlapping the previous one (24 bytes: 0, 8, 16; 20
     * bytes: 0, 8, 12; 6 bytes: 0, 2 as 4-byte words), as short {@code memcpy} implementations do.
     * Overlapping moves write the same bytes twice with the same values.
     */
    public static long[] wordMoves(int width) {
        if (width < 1 || movesPerBlock(width) > MAX_BODY_MOVES) {
            throw new IllegalArgumentException(
                    "wordMoves: width " + width + " (expected: 1 to " + 8 * MAX_BODY_MOVES + ")");
        }
        int word = width >= 8 ? 8 : width >= 4 ? 4 : width >= 2 ? 2 : 1;
        int n = movesPerBlock(width);
        long[] m = new long[2 * n];
        for (int k = 0; k < n; k++) {
            m[2 * k] = Math.min((long) k * word, width - word);
            m[2 * k + 1] = word;
        }
        return m;
    }

    // Locals: 0 this, 1 ub, 2-3 ua, 4-5 spacing, 6 count, 7 pb, 8-9 pa, 10 i (plane), 11 j (row),
    // 12-13 u (the row's user address), 14-15 p (its packed address).
    private static void loop(ClassBytes cb, Key key, String name, boolean gather) {
        long row = (long) key.blocks * key.width;
        long plane = row * key.rows;
        ClassBytes.Code c = cb.code();
        int planes = c.label();
        int rowsLoop = c.label();
        int rowsDone = c.label();
        int end = c.label();
        GeneratedKernels.fixBases(c, key.kinds, 1, 7);
        c.op(ICONST_0).istore(10);
        c.bind(planes).iload(10).iload(6).branch(IF_ICMPGE, end);
        c.op(ICONST_0).istore(11);
        c.bind(rowsLoop).iload(11).ldcInt(key.rows).branch(IF_ICMPGE, rowsDone);
        // u = ua + i * spacing + j * rowStride; p = pa + i * plane + j * row
        c.lload(2)
                .iload(10)
                .op(I2L)
                .lload(4)
                .op(LMUL)
                .op(LADD)
                .iload(11)
                .op(I2L)
                .ldcLong(key.rowStride)
                .op(LMUL)
                .op(LADD)
                .lstore(12);
        c.lload(8)
                .iload(10)
                .op(I2L)
                .ldcLong(plane)
                .op(LMUL)
                .op(LADD)
                .iload(11)
                .op(I2L)
                .ldcLong(row)
                .op(LMUL)
                .op(LADD)
                .lstore(14);
        for (int k = 0; k < key.blocks; k++) {
            moves(c, key.width, k * key.blockStride, (long) k * key.width, gather);
        }
        c.iinc(11, 1).branch(GOTO, rowsLoop);
        c.bind(rowsDone).iinc(10, 1).branch(GOTO, planes);
        c.bind(end).op(RETURN);
        c.end(0, name, DESC, 12, 16);
    }
}
