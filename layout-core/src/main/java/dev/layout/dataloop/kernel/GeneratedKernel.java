package dev.layout.dataloop.kernel;

import static dev.layout.bytecode.ClassBytes.*;

import dev.layout.bytecode.ClassBytes;
import dev.layout.memory.Memory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loop over instances of one fixed body of word moves, generated per shape as a hidden class whose
 * offsets, counts and strides are constants: the records of a small listed leaf ({@link #records}),
 * planes of rows of strided blocks (Flash I/O's z over y over x, {@link #planes}) and a long strided
 * run ({@link #strip}). Exploits: with the offsets in the code the JIT folds them into addressing
 * modes and the row loop has a constant trip count, as in a hand-written loop nest; with them in
 * registers, C2 unrolls the loop, computes every address with a multiply and spills addresses to the
 * stack. One kernel per distinct shape and memory kinds, cached: beyond {@link #MAX_CLASSES}, or with
 * {@code -Dlayout.kernels.generate=false}, none is made and the engine runs its generic loops. A kernel's
 * class is generated when its loops first run, and each loop takes over from the generic loops once it
 * is measured as fast ({@link Promotion}).
 */
public final class GeneratedKernel {
    /** How many distinct shapes get a generated class: a bound on metaspace for programs with many types. */
    static final int MAX_CLASSES = 2048;
    /** {@code -Dlayout.kernels.generate=false} turns generation off (the engine's generic loops run). */
    static final boolean ENABLED = !"false".equals(System.getProperty("layout.kernels.generate"));
    /** The most word moves a loop body holds: a bound on code size, far below C2's limit on the methods it compiles. */
    public static final int MAX_BODY_MOVES = 32;
    /** Blocks per row of a strip's rows form ({@link #strip}). */
    public static final int MAX_ROW = 16;
    /** The most rows per plane. */
    public static final int MAX_ROWS = 1 << 16;

    private static final ConcurrentHashMap<Shape, GeneratedKernel> CACHE = new ConcurrentHashMap<>();
    private static final String SELF = "dev/layout/dataloop/kernel/GeneratedKernel";
    private static final String LOOPS = SELF + "$Loops";
    private static final String UNSAFE = "sun/misc/Unsafe";
    private static final String STRIDED = "(Ljava/lang/Object;JJILjava/lang/Object;J)V";
    private static final String LISTED = "(Ljava/lang/Object;J[JIILjava/lang/Object;J)V";

    /** What this kernel is generated for. */
    private final Shape shape;

    /** Its loops, a hidden class generated at the first call that runs them (a layout used once never needs them). */
    private volatile Loops loops;

    /**
     * When each of this kernel's loops runs whole calls (they start on trial: {@link Promotion}), by
     * {@code (pack ? 0 : 2) + (listed ? 1 : 0)}: each loop is a method the JIT compiles on its own.
     */
    private final Promotion[] promotions = {new Promotion(), new Promotion(), new Promotion(), new Promotion()};

    private GeneratedKernel(Shape shape) {
        this.shape = shape;
    }

    /** When this kernel's loop for packing ({@code pack}) or unpacking, at listed offsets ({@code listed}) or at a spacing, runs instead of the generic loops. */
    public Promotion promotion(boolean pack, boolean listed) {
        return promotions[(pack ? 0 : 2) + (listed ? 1 : 0)];
    }

    /** The word moves one instance makes (what the cost model weighs for records). */
    public int moveCount() {
        return shape.body.size() / 3;
    }

    /** The loops of one shape, generated as a hidden class that extends this one. */
    abstract static class Loops {
        /** Moves instance i from {@code ub + ua + i * spacing} (a strip: its own stride) to {@code pb + pa + i * size}, i < n. */
        abstract void gather(Object ub, long ua, long spacing, int n, Object pb, long pa);

        /** Moves instance i from {@code ub + ua + outer[from + i]}. */
        abstract void gatherList(Object ub, long ua, long[] outer, int from, int n, Object pb, long pa);

        /** Unpacks: the mirror of {@link #gather}. */
        abstract void scatter(Object ub, long ua, long spacing, int n, Object pb, long pa);

        /** Unpacks: the mirror of {@link #gatherList}. */
        abstract void scatterList(Object ub, long ua, long[] outer, int from, int n, Object pb, long pa);
    }

    /** This kernel's loops, generated now if they were not. */
    private Loops loops() {
        Loops l = loops;
        if (l == null) {
            synchronized (this) {
                l = loops;
                if (l == null) {
                    loops = l = generate(shape);
                }
            }
        }
        return l;
    }

    /**
     * The blocks of a small listed leaf ({@code offsets}; {@code lengths}, or {@code uniform} bytes
     * each when null) as word moves, block after block, each as {@link #wordMoves} makes it (any width).
     * Null unless there are 1 to {@link #MAX_BODY_MOVES} moves and the blocks are pairwise disjoint in
     * user space (an unpack of overlapping blocks must write them in order, the last one winning; a
     * block's own overlapping words write the same bytes twice with the same values). Layout: triples
     * (user offset, packed offset, bytes), what {@link #records} takes.
     */
    public static long[] moves(long[] offsets, long[] lengths, long uniform) {
        int nb = offsets.length;
        int n = 0;
        for (int b = 0; b < nb && n <= MAX_BODY_MOVES; b++) {
            long len = lengths == null ? uniform : lengths[b];
            n += len < 1 ? 0 : (int) Math.min(movesPerBlock(len), MAX_BODY_MOVES + 1);
            for (int c = 0; c < b; c++) {
                long lc = lengths == null ? uniform : lengths[c];
                if (offsets[b] < offsets[c] + lc && offsets[c] < offsets[b] + len) {
                    return null;
                }
            }
        }
        if (n < 1 || n > MAX_BODY_MOVES) {
            return null;
        }
        long[] w = new long[3 * n];
        int i = 0;
        long packed = 0;
        for (int b = 0; b < nb; b++) {
            long len = lengths == null ? uniform : lengths[b];
            if (len > 0) {
                long[] m = wordMoves((int) len);
                for (int j = 0; j < m.length; j += 2, i += 3) {
                    w[i] = offsets[b] + m[j];
                    w[i + 1] = packed + m[j];
                    w[i + 2] = m[j + 1];
                }
            }
            packed += len;
        }
        return w;
    }

    /**
     * The kernel for records of the word moves {@code moves} (as {@link #moves} makes them), instances
     * {@code size} packed bytes apart, for the memory kinds {@code kinds} ({@link MemoryAccess#baseKinds});
     * null if generation is off or the class bound is reached.
     */
    public static GeneratedKernel records(long[] moves, long size, int kinds) {
        return records(moves, size, 0, 0, kinds);
    }

    /**
     * {@link #records} in rows: each instance {@code rows} records {@code rowStride} user bytes apart (a
     * vector of records: a row of an array of structs); {@code rows} 0 is {@link #records}.
     */
    public static GeneratedKernel records(long[] moves, long size, int rows, long rowStride, int kinds) {
        checkKinds(kinds);
        if (rows < 0 || rows > MAX_ROWS) {
            throw new IllegalArgumentException("GeneratedKernel: " + rows + " rows (expected: 0 to " + MAX_ROWS + ")");
        }
        boolean words = moves.length > 0 && moves.length % 3 == 0 && size > 0;
        for (int k = 2; k < moves.length && words; k += 3) {
            words = moves[k] == 8 || moves[k] == 4 || moves[k] == 2 || moves[k] == 1;
        }
        if (!words) {
            throw new IllegalArgumentException("GeneratedKernel: " + moves.length + " words for a " + size
                    + "-byte instance (expected: at least one move of 3 words, the last 1, 2, 4 or 8 bytes; size > 0)");
        }
        return cached(
                new Shape(Arrays.stream(moves).boxed().toList(), size, false, 0, rows, rowStride, 1, 1, 0, kinds));
    }

    /**
     * The kernel for planes of {@code rows} rows {@code rowStride} bytes apart, each of {@code blocks}
     * blocks of {@code width} bytes {@code blockStride} apart, packed contiguously (a row of more than
     * {@link #MAX_BODY_MOVES} word moves as a loop over chunks of it, {@link #chunkBlocks}); null when a
     * block has more moves than that, or generation is off or at its bound.
     */
    public static GeneratedKernel planes(
            int width, long blocks, long blockStride, long rows, long rowStride, int kinds) {
        checkKinds(kinds);
        if (width < 1
                || blocks < 1
                || blocks > Integer.MAX_VALUE
                || movesPerBlock(width) > MAX_BODY_MOVES
                || rows < 1
                || rows > MAX_ROWS) {
            return null;
        }
        int chunk = chunkBlocks(movesPerBlock(width), (int) blocks);
        return cached(new Shape(
                blocks(width, chunk, blockStride),
                blocks * width,
                false,
                0,
                (int) rows,
                rowStride,
                1,
                (int) blocks / chunk,
                chunk * blockStride,
                kinds));
    }

    /**
     * The blocks of a row that one loop body moves: all of them when their moves fit {@link
     * #MAX_BODY_MOVES}, else the largest divisor of {@code blocks} whose moves do (at least one block).
     * Exploits: a longer row is then a loop of constant trip count and constant strides over that body,
     * which C2 compiles about as fast as the row written out, while its bytecode stays one body long and
     * its back-edges come once per chunk, so the tiered compilers take it up about as soon as they take
     * up a body of one row (a long row written out has one back-edge per row and ran interpreted for many
     * more calls: benchmarks/issue-22-rounds.md, session 45).
     */
    static int chunkBlocks(int movesPerBlock, int blocks) {
        for (int k = Math.min(blocks, MAX_BODY_MOVES / movesPerBlock); k > 1; k--) {
            if (blocks % k == 0) {
                return k;
            }
        }
        return 1;
    }

    /**
     * The kernel for a strip: any number of blocks of {@code width} bytes, {@code stride} bytes apart on
     * the user side and adjacent on the packed side; null when a block is more than {@link
     * #MAX_BODY_MOVES} word moves or generation is off or at its bound. Run it through {@link #strip(
     * GeneratedKernel, Memory, long, long, long, Memory, long, boolean)}.
     *
     * <p>Its form depends on the memory: 4-byte blocks with the packed side on the heap get instances of
     * {@link #MAX_ROW} straight-line blocks (the caller moves the tail), everything else one block per
     * instance with the stride a constant: C2 compiles narrow stores into a heap array better as
     * straight-line rows.
     */
    public static GeneratedKernel strip(int width, long stride, int kinds) {
        checkKinds(kinds);
        if (width < 1 || movesPerBlock(width) > MAX_BODY_MOVES) {
            return null;
        }
        boolean rows = width == 4 && (kinds & 2) == 0;
        int blocks = rows ? MAX_ROW : 1;
        return cached(new Shape(
                blocks(width, blocks, stride),
                (long) blocks * width,
                !rows,
                stride,
                rows ? 1 : 0,
                blocks * stride,
                blocks,
                1,
                0,
                kinds));
    }

    /** The moves of {@code blocks} blocks of {@code width} bytes, {@code stride} apart in user space, adjacent when packed. */
    private static List<Long> blocks(int width, int blocks, long stride) {
        long[] m = wordMoves(width);
        List<Long> body = new ArrayList<>();
        for (int k = 0; k < blocks; k++) {
            for (int j = 0; j < m.length; j += 2) {
                body.addAll(List.of(k * stride + m[j], (long) k * width + m[j], m[j + 1]));
            }
        }
        return body;
    }

    /** How many word moves {@link #wordMoves} makes of a block of {@code width} bytes. */
    public static int movesPerBlock(long width) {
        int word = width >= 8 ? 8 : width >= 4 ? 4 : width >= 2 ? 2 : 1;
        return (int) ((width + word - 1) / word);
    }

    /**
     * The word moves that copy a block of {@code width} bytes (1 to 8 x {@link #MAX_BODY_MOVES}) with
     * constant offsets, as pairs (offset, bytes): whole 8-byte words, and a width that is not a multiple
     * of the largest word that fits in it ends with one more such word overlapping the previous one (24
     * bytes: 0, 8, 16; 20 bytes: 0, 8, 12; 6 bytes: 0, 2 as 4-byte words), as short {@code memcpy}
     * implementations do. Overlapping moves write the same bytes twice with the same values.
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

    /**
     * Packs ({@code pack}) or unpacks {@code count} instances through {@code kernel}: instance i at
     * {@code userOffset + i * spacing} in {@code user} (a strip: at its own stride) or, when {@code
     * outer} is not null, at {@code userOffset + outer[from + i]}; packed contiguously from {@code
     * packedOffset}. Returns false, doing nothing, when the kernel cannot run here (none, every-access
     * checking on, or more instances than an int counts); the caller then runs the generic loops.
     */
    public static boolean run(
            GeneratedKernel kernel,
            Memory user,
            long userOffset,
            long spacing,
            long[] outer,
            int from,
            long count,
            Memory packed,
            long packedOffset,
            boolean pack) {
        if (kernel == null || MemoryAccess.CHECK_EVERY_ACCESS || count > Integer.MAX_VALUE) {
            return false;
        }
        try {
            Object ub = user.base();
            long ua = user.address() + userOffset;
            Object pb = packed.base();
            long pa = packed.address() + packedOffset;
            Loops l = kernel.loops();
            if (pack && outer == null) {
                l.gather(ub, ua, spacing, (int) count, pb, pa);
            } else if (pack) {
                l.gatherList(ub, ua, outer, from, (int) count, pb, pa);
            } else if (outer == null) {
                l.scatter(ub, ua, spacing, (int) count, pb, pa);
            } else {
                l.scatterList(ub, ua, outer, from, (int) count, pb, pa);
            }
        } finally {
            Reference.reachabilityFence(user);
            Reference.reachabilityFence(packed);
        }
        return true;
    }

    /**
     * Packs ({@code pack}) or unpacks the leading blocks of {@code count} blocks of a strided run (block
     * i at {@code userOffset + i * stride}, packed contiguously from {@code packedOffset}) through the
     * {@link #strip} {@code kernel}. Returns how many blocks it moved: all of them, a multiple of {@link
     * #MAX_ROW} for a strip in rows form (the caller moves the tail), or 0 when the kernel cannot run.
     */
    public static long strip(
            GeneratedKernel kernel,
            Memory user,
            long userOffset,
            long stride,
            long count,
            Memory packed,
            long packedOffset,
            boolean pack) {
        if (kernel == null) {
            return 0;
        }
        int row = kernel.shape.stripRow;
        if (row == 1) {
            // count and stride go through as they are: with count / row computed in front of the (inlined)
            // loop, C2 compiles a slower loop.
            return run(kernel, user, userOffset, stride, null, 0, count, packed, packedOffset, pack) ? count : 0;
        }
        long instances = count / row;
        return run(kernel, user, userOffset, row * stride, null, 0, instances, packed, packedOffset, pack)
                ? instances * row
                : 0;
    }

    private static void checkKinds(int kinds) {
        if (kinds < 0 || kinds > 3) {
            throw new IllegalArgumentException(
                    "GeneratedKernel: kinds " + kinds + " (expected: 0-3 from MemoryAccess.baseKinds)");
        }
    }

    /**
     * A generated shape: a row's moves as triples (user offset, packed offset, bytes), {@code size}
     * packed bytes; instances {@code spacing} user bytes apart when {@code constantSpacing} (else by the
     * call's argument or list), each {@code rows} rows {@code rowStride} user bytes apart (0: one row
     * and no row loop); the blocks a strip moves per instance ({@code stripRow}, else 1); the times a
     * row runs the body ({@code chunks}, each {@code chunkStride} user bytes and {@code size / chunks}
     * packed bytes on from the last; 1: the body is the row); the memory kinds. Planes keep their row
     * loop even for one row: C2 then leaves the instance loop as it is, where as the innermost loop it
     * unrolls it and spills the unrolled rows' addresses.
     */
    private record Shape(
            List<Long> body,
            long size,
            boolean constantSpacing,
            long spacing,
            int rows,
            long rowStride,
            int stripRow,
            int chunks,
            long chunkStride,
            int kinds) {}

    private static GeneratedKernel cached(Shape shape) {
        if (!ENABLED) {
            return null;
        }
        GeneratedKernel k = CACHE.get(shape);
        if (k != null || CACHE.size() >= MAX_CLASSES) {
            return k;
        }
        return CACHE.computeIfAbsent(shape, GeneratedKernel::new);
    }

    private static Loops generate(Shape shape) {
        ClassBytes cb = new ClassBytes(SELF + "$$Generated", LOOPS, 49);
        cb.defaultConstructor(LOOPS);
        loop(cb, shape, "gather", false, true);
        loop(cb, shape, "gatherList", true, true);
        loop(cb, shape, "scatter", false, false);
        loop(cb, shape, "scatterList", true, false);
        return (Loops) instantiate(cb.toBytes(), null, "shape " + shape.body);
    }

    /**
     * Defines a hidden class in this package (so it reads {@code MemoryAccess.U}) from {@code
     * classFile} and calls its no-argument constructor; the class gets {@code classData} (read with
     * {@link MethodHandles#classData}) when it is not null.
     */
    static Object instantiate(byte[] classFile, Object classData, String what) {
        try {
            MethodHandles.Lookup hidden = classData == null
                    ? MethodHandles.lookup().defineHiddenClass(classFile, true)
                    : MethodHandles.lookup().defineHiddenClassWithClassData(classFile, classData, true);
            return hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("could not define the generated kernel for " + what + ": " + e, e);
        }
    }

    // Locals: 0 this, 1 ub, 2-3 ua, 4-5 spacing (4 outer, 5 from), 6 n, 7 pb, 8-9 pa, 10 i (instance),
    // 11 j (row), 12-13 u (the row's user address), 14-15 p (its packed address), 16 the row's chunk.
    private static void loop(ClassBytes cb, Shape s, String name, boolean listed, boolean gather) {
        ClassBytes.Code c = cb.code();
        int instances = c.label();
        int rows = c.label();
        int rowsDone = c.label();
        int end = c.label();
        fixBase(c, (s.kinds & 1) != 0, 1);
        fixBase(c, (s.kinds & 2) != 0, 7);
        c.op(ICONST_0).istore(10);
        c.bind(instances).iload(10).iload(6).branch(IF_ICMPGE, end);
        if (s.rows > 0) {
            c.op(ICONST_0).istore(11);
            c.bind(rows).iload(11).ldcInt(s.rows).branch(IF_ICMPGE, rowsDone);
        }
        // u = ua + (outer[from + i] or i * spacing) [+ j * rowStride]; p = pa + i * size * rows [+ j * size]
        c.lload(2);
        if (listed) {
            c.aload(4).iload(5).iload(10).op(IADD).op(LALOAD);
        } else if (s.constantSpacing) {
            c.iload(10).op(I2L).ldcLong(s.spacing).op(LMUL);
        } else {
            c.iload(10).op(I2L).lload(4).op(LMUL);
        }
        c.op(LADD);
        if (s.rows > 0) {
            c.iload(11).op(I2L).ldcLong(s.rowStride).op(LMUL).op(LADD);
        }
        c.lstore(12);
        c.lload(8)
                .iload(10)
                .op(I2L)
                .ldcLong(s.size * Math.max(1, s.rows))
                .op(LMUL)
                .op(LADD);
        if (s.rows > 0) {
            c.iload(11).op(I2L).ldcLong(s.size).op(LMUL).op(LADD);
        }
        c.lstore(14);
        int chunkLoop = c.label();
        int chunksDone = c.label();
        if (s.chunks > 1) {
            c.op(ICONST_0).istore(16);
            c.bind(chunkLoop).iload(16).ldcInt(s.chunks).branch(IF_ICMPGE, chunksDone);
        }
        for (int k = 0; k < s.body.size(); k += 3) {
            int bytes = s.body.get(k + 2).intValue();
            if (gather) {
                move(c, bytes, 7, 14, s.body.get(k + 1), 1, 12, s.body.get(k));
            } else {
                move(c, bytes, 1, 12, s.body.get(k), 7, 14, s.body.get(k + 1));
            }
        }
        if (s.chunks > 1) {
            c.lload(12).ldcLong(s.chunkStride).op(LADD).lstore(12);
            c.lload(14).ldcLong(s.size / s.chunks).op(LADD).lstore(14);
            c.iinc(16, 1).branch(GOTO, chunkLoop);
            c.bind(chunksDone);
        }
        if (s.rows > 0) {
            c.iinc(11, 1).branch(GOTO, rows);
            c.bind(rowsDone);
        }
        c.iinc(10, 1).branch(GOTO, instances);
        c.bind(end).op(RETURN);
        c.end(0, name, listed ? LISTED : STRIDED, 12, 17);
    }

    /**
     * Emits code that replaces a base (local {@code local}) with the constant null where that memory
     * is off-heap and with a {@code byte[]} (what every heap {@code Memory} is) checked not to be null
     * where it is an array. Exploits: C2 compiles an Unsafe access whose base may be null, or an array
     * of unknown type, as a "mixed" access (kept in order by barriers, not unrolled); with the kind and
     * the array type fixed in the code, not only in the profile, the moves compile as a hand-written
     * loop's for that memory.
     */
    private static void fixBase(ClassBytes.Code c, boolean offHeap, int local) {
        if (offHeap) {
            c.op(ACONST_NULL).astore(local);
        } else {
            c.aload(local)
                    .invoke(
                            INVOKESTATIC,
                            "java/util/Objects",
                            "requireNonNull",
                            "(Ljava/lang/Object;)Ljava/lang/Object;")
                    .checkcast("[B")
                    .astore(local);
        }
    }

    /**
     * Emits {@code U.putX(obj[to], addr[to] + toOff, U.getX(obj[from], addr[from] + fromOff))} for a
     * word of {@code bytes} (1, 2, 4 or 8); objects and addresses are locals.
     */
    private static void move(
            ClassBytes.Code c, int bytes, int toObj, int toAddr, long toOff, int fromObj, int fromAddr, long fromOff) {
        String t = bytes == 8 ? "J" : bytes == 4 ? "I" : bytes == 2 ? "S" : "B";
        String name = bytes == 8 ? "Long" : bytes == 4 ? "Int" : bytes == 2 ? "Short" : "Byte";
        c.field(GETSTATIC, "dev/layout/dataloop/kernel/MemoryAccess", "U", "L" + UNSAFE + ";");
        c.aload(toObj).lload(toAddr);
        if (toOff != 0) {
            c.ldcLong(toOff).op(LADD);
        }
        c.field(GETSTATIC, "dev/layout/dataloop/kernel/MemoryAccess", "U", "L" + UNSAFE + ";");
        c.aload(fromObj).lload(fromAddr);
        if (fromOff != 0) {
            c.ldcLong(fromOff).op(LADD);
        }
        c.invoke(INVOKEVIRTUAL, UNSAFE, "get" + name, "(Ljava/lang/Object;J)" + t);
        c.invoke(INVOKEVIRTUAL, UNSAFE, "put" + name, "(Ljava/lang/Object;J" + t + ")V");
    }
}
