package dev.layout.dataloop;

import java.util.ArrayList;
import java.util.List;

/**
 * A cache-blocked order for a strided nest (a chain of vector and contig loops down to a vector or
 * contiguous leaf) whose outer loop has the finest user stride: the loop reordering of Ross, Miller
 * and Gropp (2003, section 3) that keeps the packed order of every byte while changing the order in
 * which they move.
 *
 * <p>The case is the Flash I/O checkpoint: 24 variables per cell, stored variable fastest, packed
 * variable by variable. In packed order each variable's pass sweeps every cell, so each cell's lines
 * are fetched 24 times. Blocked, the variable loop moves inward, just above the largest inner
 * subtree whose cells fit in the cost model's cache ({@link KernelCost#CACHE_BYTES}; property {@code
 * layout.dataloop.blockBudget=0} turns blocking off): for each 16^3 block, for each variable, the
 * block's 8^3 interior, so every line is fetched once. The same holds for records to structure of
 * arrays and pixels to planes.
 *
 * <p>Each instance of {@link #inner} is still processed in its own packed order by the same kernels;
 * only the outer loops are permuted. Packing may always reorder (it reads the user memory); unpacking
 * only when the blocks are {@link #disjoint}. Made by {@link #of}, held per nest by a segment's {@link
 * Plan}; never written.
 */
record BlockedOrder(
        Dim[] loops,
        int chunkLoop,
        long chunk,
        Dataloop inner,
        long innerDisp,
        boolean movedIsHeadLoop,
        boolean disjoint) {
    /*
     * loops: the permuted outer loops, outermost first, the moved one last. chunkLoop: the outer loop that runs over groups of
     * chunk iterations of the inner node's first loop (strip-mining it when all would not fit the budget),
     * or -1. inner: the node below the permuted loops, innerDisp the user bytes from the head's base to
     * its base. movedIsHeadLoop: the moved loop is the head's own first loop,
     * so a run of its iterations (a segment in pieces) can run blocked too. disjoint: no two blocks
     * overlap in user memory.
     */

    /** The subtree below the permuted loops always runs whole; smaller than this it is not worth a call. */
    static final long MIN_INNER_BYTES = 512;

    /** With two iterations of the moved loop (real and imaginary parts) the saving does not pay for the extra loop. */
    static final long MIN_MOVED_COUNT = 3;

    /** Narrower blocks (bytes of RGBA pixels) are bound by the moves, not by the cache: blocking cannot help. */
    static final long MIN_BLOCK_BYTES = 4;

    /**
     * A nest whose budget cuts a vector leaf into runs shorter than this (a transpose by column types:
     * all columns, a few rows at a time) stays in packed order. Each run would be a kernel call of a few
     * blocks, and such an order writes the packed side in pieces of a few blocks far apart, where the
     * packed order writes it in one stream; the strided loops already move a transpose's rows by cache
     * line where they interleave ({@code StridedLoopCode.tile16}).
     */
    static final long MIN_RUN = 32;

    /** The moved loop: the innermost of the permuted loops. */
    Dim moved() {
        return loops[loops.length - 1];
    }

    /** E.g. {@code 4 x 786432 B, 24 x 8 B around vector(count=8, ...)}: the permuted loops (trip count x user stride), then the inner unit. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < loops.length; i++) {
            sb.append(loops[i].count).append(" x ").append(loops[i].user).append(" B");
            if (i == chunkLoop) {
                sb.append(" (groups of ").append(chunk).append(')');
            }
            sb.append(", ");
        }
        sb.setLength(sb.length() - 2);
        sb.append(" around ").append(inner);
        if (!disjoint) {
            sb.append("; blocks overlap: unpack keeps the packed order");
        }
        return sb.toString();
    }

    /**
     * One loop of the nest: trip count, user and packed distance between iterations, the index of the
     * node it belongs to, and whether it is that node's first loop.
     */
    record Dim(long count, long user, long packed, int node, boolean first) {}

    /**
     * The blocked order for the nest headed by {@code head} under a cache budget of {@code budget}
     * bytes, or null: not a strided nest, already in a good order (no outer loop with a finer user
     * stride than every loop inside it), or no blocking that helps within the budget.
     */
    static BlockedOrder of(Dataloop head, long budget) {
        if (budget <= 0 || head.leaf) {
            return null;
        }
        List<Dataloop> chain = new ArrayList<>();
        List<Dim> dims = new ArrayList<>();
        Dataloop n = head;
        while (true) {
            if (n.children != null || (n.kind != Dataloop.Kind.VECTOR && n.kind != Dataloop.Kind.CONTIG)) {
                return null;
            }
            int index = chain.size();
            chain.add(n);
            if (n.leaf) {
                if (n.kind == Dataloop.Kind.VECTOR) {
                    addDim(dims, n.nblocks, n.stride, n.blocklen, index, true);
                }
                break;
            }
            long csize = n.child.size;
            if (n.kind == Dataloop.Kind.VECTOR) {
                addDim(dims, n.nblocks, n.stride, Math.multiplyExact(n.blocklen, csize), index, true);
            }
            addDim(dims, n.blocklen, n.ext, csize, index, n.kind == Dataloop.Kind.CONTIG);
            n = n.child;
        }
        Dataloop leaf = n;
        // The moved loop: the outermost one whose user stride is finer than every loop inside it.
        int moved = -1;
        for (int i = 0; i + 1 < dims.size() && moved < 0; i++) {
            boolean finest = true;
            for (int j = i + 1; j < dims.size() && finest; j++) {
                finest = Math.abs(dims.get(i).user) < Math.abs(dims.get(j).user);
            }
            moved = finest ? i : -1;
        }
        if (moved < 0) {
            return null;
        }
        Dim m = dims.get(moved);
        if (m.count < MIN_MOVED_COUNT || leaf.blocklen < MIN_BLOCK_BYTES) {
            return null;
        }
        // What one pass of the moved loop touches per inner position: its span, in whole 64-byte lines.
        long sweep = Math.max(64, ((m.count - 1) * Math.abs(m.user) + leaf.blocklen + 63) / 64 * 64);
        // The inner unit: the outermost node below the moved loop of which a run of q >= 2 iterations of
        // its first loop (all of them if they fit), times the sweep, fits the budget.
        int innerNode = -1;
        long q = 0;
        for (int c = m.node + 1; c < chain.size() && innerNode < 0; c++) {
            long first = firstCount(chain.get(c));
            double below = sweep;
            for (Dim d : dims) {
                if (d.node > c || (d.node == c && !d.first)) {
                    below *= d.count;
                }
            }
            if (first * below <= budget) {
                innerNode = c;
                q = first;
            } else if (2 * below <= budget) {
                innerNode = c;
                q = (long) (budget / below);
            }
        }
        if (innerNode < 0) {
            return null;
        }
        Dataloop innerLoop = chain.get(innerNode);
        long first = firstCount(innerLoop);
        if (innerLoop.leaf && innerLoop.kind == Dataloop.Kind.VECTOR && q < MIN_RUN) {
            return null;
        }
        if (q * (innerLoop.size / first) < MIN_INNER_BYTES) {
            return null;
        }
        // Outer loops: those above the inner unit in packed order, then the runs of the inner node's first loop, then
        // the moved one.
        List<Dim> outer = new ArrayList<>();
        for (int i = 0; i < dims.size(); i++) {
            if (i != moved && dims.get(i).node < innerNode) {
                outer.add(dims.get(i));
            }
        }
        int chunkLoop = -1;
        if (q < first) {
            chunkLoop = outer.size();
            outer.add(new Dim(
                    (first + q - 1) / q,
                    Math.multiplyExact(q, innerLoop.kind == Dataloop.Kind.VECTOR ? innerLoop.stride : innerLoop.ext),
                    Math.multiplyExact(q, innerLoop.size / first),
                    innerNode,
                    true));
        }
        if (outer.isEmpty()) {
            // Only the moved loop is outside the inner unit: nothing changes.
            return null;
        }
        outer.add(m);
        long innerDisp = 0;
        for (int c = 1; c <= innerNode; c++) {
            innerDisp = Math.addExact(innerDisp, chain.get(c).disp);
        }
        return new BlockedOrder(
                outer.toArray(new Dim[0]),
                chunkLoop,
                q,
                innerLoop,
                innerDisp,
                m.node == 0 && m.first,
                disjoint(dims, leaf.blocklen));
    }

    /** Trip count of a node's first (outermost) loop: blocks of a vector, elements of a contig, 1 for a contiguous leaf. */
    static long firstCount(Dataloop d) {
        return d.kind == Dataloop.Kind.VECTOR ? d.nblocks : d.leaf ? 1 : d.blocklen;
    }

    private static void addDim(List<Dim> dims, long count, long user, long packed, int node, boolean first) {
        if (count > 1) {
            dims.add(new Dim(count, user, packed, node, first));
        }
    }

    /**
     * True when the nest's blocks provably never overlap: taking the loops from the finest user stride
     * up, each stride is at least the span of everything finer (a sufficient test, exact for the
     * nests that occur: arrays of records, subarrays).
     */
    private static boolean disjoint(List<Dim> dims, long blockBytes) {
        List<Dim> sorted = new ArrayList<>(dims);
        sorted.sort((a, b) -> Long.compare(Math.abs(a.user), Math.abs(b.user)));
        long span = blockBytes;
        for (Dim d : sorted) {
            long s = Math.abs(d.user);
            if (s < span) {
                return false;
            }
            span = Math.addExact(span, Math.multiplyExact(d.count - 1, s));
        }
        return true;
    }
}
