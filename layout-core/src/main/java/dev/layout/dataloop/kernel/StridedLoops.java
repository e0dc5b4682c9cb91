package dev.layout.dataloop.kernel;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The loops behind {@link MemoryAccess#strided} and {@link MemoryAccess#strided3}: rows of strided blocks. Bases and addresses are
 * already resolved and the footprint checked; a wrong offset here is a wrong memory access.
 *
 * <p>Why instances: the JIT compiles a loop for what its profile has seen. A loop that has moved
 * between {@code byte[]}s and then meets off-heap memory is recompiled for both, as a "mixed" access
 * C2 neither unrolls nor schedules freely; one method holding the loops of several width classes,
 * once C2 compiles more than one of them, runs each slower than the same loop compiled alone
 * (benchmarks/issue-22-rounds.md). {@link #of} therefore holds a copy of {@link StridedLoopCode} per
 * combination of heap or off-heap source and destination and block width (each width up to {@link
 * #EXACT_WIDTHS} bytes, and one copy for all wider blocks), defined on first use as hidden classes
 * from its class file; each copy is profiled and compiled on its own. In a copy the width is a
 * constant, so each block's moves compile to word moves at fixed offsets and the address steps to
 * constants, as in a hand loop written for that width (with the width a variable, random gathers of
 * 24-byte blocks ran well below such a loop: benchmarks/issue-22-rounds.md, fourteenth round). Only the
 * widths a JVM moves are defined and compiled.
 */
abstract class StridedLoops {
    /**
     * The copy for these bases and blocks of {@code blockBytes}: a copy per width where the blocks move
     * as words, the bulk copy's where not ({@link MemoryAccess#movesAsWords}). {@code oneSetLoads} and
     * {@code oneSetStores}: the blocks' loads or stores may fall into one cache set (a stride of {@link
     * MemoryAccess#oneSet} on that side; listed blocks in one set, {@link ListedAccess#inOneSet}, count as loads).
     */
    static StridedLoops of(Object srcBase, Object dstBase, long blockBytes, boolean oneSetLoads, boolean oneSetStores) {
        long width = MemoryAccess.movesAsWords(blockBytes, oneSetLoads, oneSetStores) ? blockBytes : EXACT_WIDTHS + 1;
        return Copies.get((srcBase == null ? 1 : 0) | (dstBase == null ? 2 : 0) | (int) width << 2);
    }

    /** Blocks of up to this many bytes get a copy per width; wider ones (bulk copies) share one. */
    static final int EXACT_WIDTHS = MemoryAccess.WORD_BLOCK_BYTES;

    /**
     * The class of a block width, each moved by its own word moves (StridedLoopCode#move): 1, 2-3,
     * 4, 5-7, 8, 9-16, 17-24, 25-32, 33-128 bytes, and over 128 (bulk copies).
     */
    static int widthClass(long w) {
        return w > EXACT_WIDTHS
                ? 9
                : w > 32
                        ? 8
                        : w > 24 ? 7 : w > 16 ? 6 : w > 8 ? 5 : w == 8 ? 4 : w > 4 ? 3 : w == 4 ? 2 : w > 1 ? 1 : 0;
    }

    /** Calls of at least this many blocks go through the handles below. */
    static final int HANDLE_BLOCKS = 64;

    /**
     * This copy's loops as handles bound to it, through which the final methods below make calls of
     * {@link #HANDLE_BLOCKS} blocks or more. Exploits: a call through a handle that is not a constant is
     * never inlined, so such calls run each copy's loops compiled as methods of their own, whoever calls
     * them. A call site that has met one copy (a JVM moving one width) is otherwise inlined into the
     * walk, where the loop shares the walk's registers: there the listed loop kept its packed pointer on
     * the stack, a store and a load per block (benchmarks/issue-22-rounds.md, session 40). Why a count of
     * blocks: the handle costs once per call (about ten nanoseconds), a spilled loop a few cycles per
     * block, so the handle pays from a few dozen blocks whatever their width; smaller calls are direct.
     */
    private final MethodHandle stridedLoop = bind("stridedLoop");

    private final MethodHandle listedLoop = bind("listedLoop");
    private final MethodHandle planesLoop = bind("planesLoop");

    StridedLoops() {}

    /** This class's abstract method {@code name} as a handle bound to this copy (so calling it runs the copy's override). */
    private MethodHandle bind(String name) {
        try {
            for (Method m : StridedLoops.class.getDeclaredMethods()) {
                if (m.getName().equals(name)) {
                    return MethodHandles.lookup().unreflect(m).bindTo(this);
                }
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("strided loops: " + name + " not accessible", e);
        }
        throw new IllegalStateException("strided loops: no method " + name);
    }

    /** {@code n} blocks of {@code blockBytes}, block i from {@code sa + i * ss} to {@code da + i * ds}. */
    final void strided(Object sb, long sa, long ss, Object db, long da, long ds, long blockBytes, int n) {
        if (n < HANDLE_BLOCKS) {
            stridedLoop(sb, sa, ss, db, da, ds, blockBytes, n);
            return;
        }
        try {
            stridedLoop.invokeExact(sb, sa, ss, db, da, ds, blockBytes, n);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * Blocks of {@code w} bytes at {@code ua + offsets[b]}, b in {@code [from, to)}, gathered ({@code
     * gather}) into or scattered from the contiguous side at {@code pa}; the copy is the one for the
     * direction's source and destination bases.
     */
    final void listed(
            Object ub, long ua, long[] offsets, int from, int to, Object pb, long pa, long w, boolean gather) {
        if (to - from < HANDLE_BLOCKS) {
            listedLoop(ub, ua, offsets, from, to, pb, pa, w, gather);
            return;
        }
        try {
            listedLoop.invokeExact(ub, ua, offsets, from, to, pb, pa, w, gather);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * {@link MemoryAccess#strided3} between resolved addresses, for blocks of up to {@link #EXACT_WIDTHS}
     * bytes and rows and blocks counted in an int.
     */
    final void planes(
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
        if (n3 * no * ni < HANDLE_BLOCKS) {
            planesLoop(sb, sa, s3, s2, s1, db, da, d3, d2, d1, blockBytes, n3, no, ni);
            return;
        }
        try {
            planesLoop.invokeExact(sb, sa, s3, s2, s1, db, da, d3, d2, d1, blockBytes, n3, no, ni);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** The loops throw no checked exception; anything else they throw goes on as it is. */
    private static RuntimeException unchecked(Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        return t instanceof RuntimeException r ? r : new IllegalStateException("strided loops: " + t, t);
    }

    abstract void stridedLoop(Object sb, long sa, long ss, Object db, long da, long ds, long blockBytes, int n);

    abstract void listedLoop(
            Object ub, long ua, long[] offsets, int from, int to, Object pb, long pa, long w, boolean gather);

    abstract void planesLoop(
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
            int ni);

    /** The copies of {@link StridedLoopCode}, each defined on first use (a holder, so that merely loading this class defines nothing). */
    private static final class Copies {
        /** The class file; null without it (an unusual class loader) or with generation off: then one shared copy. */
        private static final byte[] BYTES = classFile();

        private static final StridedLoops SHARED = new StridedLoopCode();
        /** Indexed by {@code (src off-heap ? 1 : 0) | (dst off-heap ? 2 : 0) | min(width, EXACT_WIDTHS + 1) << 2}. */
        private static final AtomicReferenceArray<StridedLoops> COPIES =
                new AtomicReferenceArray<>(4 * (EXACT_WIDTHS + 2));

        private Copies() {}

        static StridedLoops get(int k) {
            StridedLoops c = COPIES.get(k);
            if (c == null) {
                c = BYTES == null
                        ? SHARED
                        : (StridedLoops) GeneratedKernel.instantiate(BYTES, k, "strided loops (copy " + k + ")");
                if (!COPIES.compareAndSet(k, null, c)) {
                    c = COPIES.get(k);
                }
            }
            return c;
        }

        private static byte[] classFile() {
            if (!GeneratedKernel.ENABLED) {
                return null;
            }
            try (InputStream in = StridedLoops.class.getResourceAsStream("StridedLoopCode.class")) {
                return in == null ? null : in.readAllBytes();
            } catch (IOException e) {
                return null;
            }
        }
    }
}
