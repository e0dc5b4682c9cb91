package dev.layout.dataloop.kernel;

import static dev.layout.bytecode.ClassBytes.*;

import dev.layout.bytecode.ClassBytes;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The loops over repeated instances of one small pattern of word moves (the blocks of a small listed
 * leaf, {@link #moves}), generated per pattern as a hidden class whose offsets and instance size are
 * constants. Exploits: with the offsets in the code, the JIT folds them into addressing modes, as in
 * a hand-written loop over records; with the offsets in registers, C2 unrolls the loop and, needing
 * two registers per move and copy, spills addresses to the stack and to vector registers. One class per distinct
 * pattern, cached (see {@link GeneratedKernels}: beyond its bound, or when {@code
 * -Dlayout.kernels.generate=false}, {@link #of} returns null and the engine runs its generic record loops).
 */
public abstract class WordKernel {
    private static final ConcurrentHashMap<Key, WordKernel> CACHE = new ConcurrentHashMap<>();
    private static final String SELF = "dev/layout/dataloop/kernel/WordKernel";
    private static final String STRIDED = "(Ljava/lang/Object;JJILjava/lang/Object;J)V";
    private static final String LISTED = "(Ljava/lang/Object;J[JIILjava/lang/Object;J)V";

    /** Moves in this kernel's pattern (what the cost model weighs); set once, before the cache publishes it. */
    private int moveCount;

    protected WordKernel() {}

    /** The word moves one instance of this kernel's pattern makes. */
    public int moveCount() {
        return moveCount;
    }

    /**
     * Most 8-byte and 4-byte moves a pattern may have: a bound on the generated code, and what makes a
     * listed leaf a record of words (one fixed sequence of moves) rather than a leaf of varying widths.
     */
    static final int MAX_LONGS = 4;

    static final int MAX_INTS = 2;

    /**
     * The blocks of a small listed leaf ({@code offsets}; {@code lengths}, or {@code uniform} bytes
     * each when null) as word moves: each block of a multiple of 4 bytes is its 8-byte words plus one
     * trailing 4-byte word. Null unless all blocks decompose, there are 1 to {@link #MAX_LONGS} long
     * moves and at most {@link #MAX_INTS} int moves, and the blocks are pairwise disjoint in user space
     * (so the kernel may do the long moves before the int moves whatever their order in the pattern:
     * unpack writes no byte twice). Layout: pairs (user offset, packed offset), longs first, then the
     * two counts (what {@link #of} takes).
     */
    public static long[] moves(long[] offsets, long[] lengths, long uniform) {
        int nb = offsets.length;
        if (nb > MAX_LONGS + MAX_INTS) {
            return null;
        }
        int nl = 0;
        int ni = 0;
        for (int b = 0; b < nb; b++) {
            long len = lengths == null ? uniform : lengths[b];
            if (len % 4 != 0) {
                return null;
            }
            nl += (int) Math.min(len / 8, MAX_LONGS + 1);
            ni += (int) (len % 8 / 4);
            for (int c = 0; c < b; c++) {
                long lc = lengths == null ? uniform : lengths[c];
                if (offsets[b] < offsets[c] + lc && offsets[c] < offsets[b] + len) {
                    return null;
                }
            }
        }
        if (nl < 1 || nl > MAX_LONGS || ni > MAX_INTS) {
            return null;
        }
        long[] w = new long[2 * (nl + ni) + 2];
        int li = 0;
        int ii = 2 * nl;
        long packed = 0;
        for (int b = 0; b < nb; b++) {
            long len = lengths == null ? uniform : lengths[b];
            long k = 0;
            for (; k + 8 <= len; k += 8, li += 2) {
                w[li] = offsets[b] + k;
                w[li + 1] = packed + k;
            }
            if (k < len) {
                w[ii] = offsets[b] + k;
                w[ii + 1] = packed + k;
                ii += 2;
            }
            packed += len;
        }
        w[w.length - 2] = nl;
        w[w.length - 1] = ni;
        return w;
    }

    /** Packs instance i from {@code ub + ua + i * stride} to {@code pb + pa + i * size}, i < n. */
    abstract void gather(Object ub, long ua, long stride, int n, Object pb, long pa);

    /** Packs instance i from {@code ub + ua + outer[from + i]}. */
    abstract void gatherList(Object ub, long ua, long[] outer, int from, int n, Object pb, long pa);

    /** Unpacks: the mirror of {@link #gather}. */
    abstract void scatter(Object ub, long ua, long stride, int n, Object pb, long pa);

    /** Unpacks: the mirror of {@link #gatherList}. */
    abstract void scatterList(Object ub, long ua, long[] outer, int from, int n, Object pb, long pa);

    /**
     * The generated kernel for a pattern laid out as {@link #moves} makes it ({@code nl} 8-byte then
     * {@code ni} 4-byte moves as (user offset, packed offset) pairs, then {@code nl} and {@code ni}),
     * instances {@code size} packed bytes apart, for one combination of memory kinds ({@link
     * MemoryAccess#baseKinds}): the same code in a class of its own per kinds, so the JIT profiles and
     * compiles heap and off-heap uses separately instead of one loop seeing both; null if generation
     * is off or the class bound is reached.
     */
    public static WordKernel of(long[] words, long size, int kinds) {
        GeneratedKernels.checkKinds("WordKernel", kinds);
        long nl = words.length < 2 ? -1 : words[words.length - 2];
        long ni = words.length < 2 ? -1 : words[words.length - 1];
        if (nl < 0 || ni < 0 || nl + ni == 0 || words.length != 2 * (nl + ni) + 2 || size <= 0) {
            throw new IllegalArgumentException("WordKernel: " + nl + " long and " + ni + " int moves of a " + size
                    + "-byte instance in " + words.length
                    + " words (expected: at least one move, 2 words per move and the two counts, size > 0)");
        }
        return GeneratedKernels.cached(
                CACHE, new Key(Arrays.copyOf(words, 2 * (int) (nl + ni)), (int) nl, size, kinds), WordKernel::generate);
    }

    private record Key(long[] moves, int nl, long size, int kinds) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k
                    && nl == k.nl
                    && size == k.size
                    && kinds == k.kinds
                    && Arrays.equals(moves, k.moves);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(moves) * 31 + nl * 17 + Long.hashCode(size) * 7 + kinds;
        }
    }

    private static WordKernel generate(Key key) {
        ClassBytes cb = new ClassBytes(SELF + "$$Words", SELF, 49);
        GeneratedKernels.constructor(cb, SELF);
        loop(cb, key, "gather", false, true);
        loop(cb, key, "gatherList", true, true);
        loop(cb, key, "scatter", false, false);
        loop(cb, key, "scatterList", true, false);
        WordKernel k = (WordKernel) GeneratedKernels.instantiate(cb, "word moves " + Arrays.toString(key.moves));
        k.moveCount = key.moves.length / 2;
        return k;
    }

    // Locals of every generated method: 0 this, 1 ub, 2-3 ua, 4-5 stride (4 outer, 5 from), 6 n, 7 pb,
    // 8-9 pa, 10 i, 11-12 u (this instance's user address), 13-14 p (its packed address).
    private static void loop(ClassBytes cb, Key key, String name, boolean listed, boolean gather) {
        ClassBytes.Code c = cb.code();
        int head = c.label();
        int end = c.label();
        GeneratedKernels.fixBases(c, key.kinds, 1, 7);
        c.op(ICONST_0).istore(10);
        c.bind(head).iload(10).iload(6).branch(IF_ICMPGE, end);
        c.lload(2);
        if (listed) {
            c.aload(4).iload(5).iload(10).op(IADD).op(LALOAD);
        } else {
            c.iload(10).op(I2L).lload(4).op(LMUL);
        }
        c.op(LADD).lstore(11);
        c.lload(8).iload(10).op(I2L).ldcLong(key.size).op(LMUL).op(LADD).lstore(13);
        long[] m = key.moves;
        for (int k = 0; k < m.length / 2; k++) {
            boolean wide = k < key.nl;
            // gather: U.putX(pb, p + P, U.getX(ub, u + UO)); scatter: U.putX(ub, u + UO, U.getX(pb, p + P))
            int toObj = gather ? 7 : 1;
            int toAddr = gather ? 13 : 11;
            long toOff = gather ? m[2 * k + 1] : m[2 * k];
            int fromObj = gather ? 1 : 7;
            int fromAddr = gather ? 11 : 13;
            long fromOff = gather ? m[2 * k] : m[2 * k + 1];
            GeneratedKernels.move(c, wide ? 8 : 4, toObj, toAddr, toOff, fromObj, fromAddr, fromOff);
        }
        c.iinc(10, 1).branch(GOTO, head);
        c.bind(end).op(RETURN);
        c.end(0, name, listed ? LISTED : STRIDED, 12, 15);
    }
}
