package dev.layout.dataloop;

import dev.layout.dataloop.kernel.GeneratedKernel;
import dev.layout.dataloop.kernel.MemoryAccess;
import java.util.IdentityHashMap;

/**
 * How a native pack or unpack runs the nodes of one dataloop tree between one pair of memory kinds
 * ({@link MemoryAccess#baseKinds}): each nest's cache-blocked order and, per leaf, the generated
 * kernel the cost model ({@link KernelCost}) may pick for it (word moves, planes, strip). Made once
 * per segment and memory kinds, at its first pack or unpack; the walk then only looks nodes up and
 * asks the cost model, for the count (and the rows' spacing) at hand, whether the generated kernel or
 * the generic loops run, so a steady-state operation allocates nothing. The {@link Dataloop} stays a
 * plain description: a listed leaf's word moves ({@link GeneratedKernel#moves}) are worked out here,
 * once per plan, and the generated classes are cached by shape and kinds in the kernel package. Used
 * by one segment, so no more thread-safe than it.
 */
final class Plan {
    private final int kinds;
    private final Lookup<BlockedOrder> orders = new Lookup<>();
    private final Lookup<GeneratedKernel> words = new Lookup<>();
    /** Per vector of vector leaves or of records (rows of them), and per vector leaf repeated at a spacing (planes of one row). */
    private final Lookup<GeneratedKernel> planes = new Lookup<>();

    private final Lookup<GeneratedKernel> strips = new Lookup<>();
    private final IdentityHashMap<Dataloop, Boolean> seen = new IdentityHashMap<>();

    Plan(Dataloop root, int kinds) {
        this.kinds = kinds;
        visit(root);
        seen.clear();
    }

    /**
     * Generates a leaf's kernel where the cost model prefers it for the leaf's own count of blocks
     * (records and planes: for many instances, since the walk repeats them); the walk asks again per call.
     */
    private void visit(Dataloop d) {
        if (d == null || seen.put(d, Boolean.TRUE) != null) {
            return;
        }
        if (d.leaf) {
            long[] m = d.offsets == null ? null : GeneratedKernel.moves(d.offsets, d.blocklens, d.blocklen);
            if (m != null && KernelCost.records(d, Integer.MAX_VALUE, m.length / 3) == KernelCost.Kind.WORDS) {
                put(words, d, GeneratedKernel.records(m, d.size, kinds));
            }
            if (d.kind == Dataloop.Kind.VECTOR && KernelCost.vectorLeaf(d, d.nblocks) == KernelCost.Kind.STRIP) {
                put(strips, d, GeneratedKernel.strip((int) d.blocklen, d.stride, kinds));
            }
            return;
        }
        put(orders, d, BlockedOrder.of(d, KernelCost.CACHE_BYTES));
        Dataloop r = d.child;
        if (r != null && r.leaf && r.kind == Dataloop.Kind.VECTOR) {
            if (KernelCost.planes(r, 1, Integer.MAX_VALUE, Long.MAX_VALUE) == KernelCost.Kind.PLANES) {
                // Instances of a vector leaf repeated at a spacing (known per call): planes of one row each.
                put(planes, r, GeneratedKernel.planes((int) r.blocklen, r.nblocks, r.stride, 1, 0, kinds));
            }
            if (BlockedWalk.planes(d)
                    && KernelCost.planes(r, d.nblocks, Integer.MAX_VALUE, d.stride) == KernelCost.Kind.PLANES) {
                put(
                        planes,
                        d,
                        GeneratedKernel.planes((int) r.blocklen, r.nblocks, r.stride, d.nblocks, d.stride, kinds));
            }
        }
        if (r != null && r.offsets != null && BlockedWalk.planes(d) && d.nblocks <= GeneratedKernel.MAX_ROWS) {
            // Rows of records (a row of an array of structs): the records' word moves in a loop over the row.
            long[] m = GeneratedKernel.moves(r.offsets, r.blocklens, r.blocklen);
            if (m != null && KernelCost.records(r, Integer.MAX_VALUE, m.length / 3) == KernelCost.Kind.WORDS) {
                put(planes, d, GeneratedKernel.records(m, r.size, (int) d.nblocks, d.stride, kinds));
            }
        }
        if (d.children != null) {
            for (Dataloop c : d.children) {
                visit(c);
            }
        } else {
            visit(r);
        }
    }

    private static <V> void put(Lookup<V> lookup, Dataloop d, V v) {
        if (v != null) {
            lookup.map.put(d, v);
        }
    }

    /** Node to value; remembers the last lookup, since the walk asks about the same node many times in a row. */
    private static final class Lookup<V> {
        final IdentityHashMap<Dataloop, V> map = new IdentityHashMap<>();
        Dataloop last;
        V value;

        V get(Dataloop d) {
            if (d != last) {
                value = map.get(d);
                last = d;
            }
            return value;
        }
    }

    /** The cache-blocked order for whole instances of the nest {@code d}, or null (see {@link BlockedOrder}). */
    BlockedOrder order(Dataloop d) {
        return orders.get(d);
    }

    /** The generated word moves for {@code count} repeated instances of the listed leaf {@code d}, or null where the record loops are cheaper. */
    GeneratedKernel words(Dataloop d, long count) {
        GeneratedKernel w = words.get(d);
        return w == null || KernelCost.records(d, count, w.moveCount()) != KernelCost.Kind.WORDS ? null : w;
    }

    /**
     * The generated planes ({@link GeneratedKernel#planes}) for {@code count} planes {@code d}: a vector of vector
     * leaves, or a vector leaf repeated {@code spacing} bytes apart (one row each); or the records in rows
     * ({@link GeneratedKernel#records(long[], long, int, long, int)}) of a vector of a listed leaf. Null where
     * the generic loops are cheaper.
     */
    GeneratedKernel planes(Dataloop d, long count, long spacing) {
        GeneratedKernel p = planes.get(d);
        if (p == null) {
            return null;
        }
        Dataloop row = d.leaf ? d : d.child;
        if (row.offsets != null) {
            return KernelCost.records(row, count * d.nblocks, p.moveCount()) == KernelCost.Kind.WORDS ? p : null;
        }
        KernelCost.Kind k = KernelCost.planes(row, d.leaf ? 1 : d.nblocks, count, d.leaf ? spacing : d.stride);
        return k == KernelCost.Kind.PLANES ? p : null;
    }

    /** The generated strip for {@code count} blocks of the vector leaf {@code d} (see {@link GeneratedKernel#strip}), or null. */
    GeneratedKernel strip(Dataloop d, long count) {
        GeneratedKernel s = strips.get(d);
        return s == null || KernelCost.vectorLeaf(d, count) != KernelCost.Kind.STRIP ? null : s;
    }
}
