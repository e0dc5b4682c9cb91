package dev.layout.dataloop;

/**
 * Runs a nest in its cache-blocked order ({@link BlockedOrder}): the permuted loops, then each
 * iteration of the inner node through the same batched kernel calls as the segment's walk (a vector
 * leaf, repeated leaves, or repeated planes per call). Stateless: the segment passes the user base
 * and the packed position, and adds up the bytes done.
 */
final class BlockedWalk {
    private BlockedWalk() {}

    /**
     * Iterations {@code [from, from + count)} of the moved loop of {@code order} (all of them for a whole
     * instance), the head's base at {@code u}, packed from {@code stream} (where iteration {@code from}
     * starts when the moved loop is the head's own); returns the bytes done.
     */
    static long run(NativeKernel k, BlockedOrder order, long u, long stream, long from, long count) {
        long first = u + from * order.moved().user();
        return blockedLoops(k, order, 0, first, stream, BlockedOrder.firstCount(order.inner()), count);
    }

    /**
     * The permuted loops from {@code dim} inward, then the inner node's first {@code runs} iterations
     * (fewer than all in the last group of a strip-mined loop). Recursion at most as deep as the stack
     * has levels (two loops per level at most).
     */
    private static long blockedLoops(
            NativeKernel k, BlockedOrder order, int dim, long u, long stream, long runs, long moved) {
        if (dim == order.loops().length) {
            return firstLoop(k, order.inner(), u + order.innerDisp(), stream, runs);
        }
        boolean last = dim == order.loops().length - 1;
        long n = last ? moved : order.loops()[dim].count();
        long us = order.loops()[dim].user();
        long ps = order.loops()[dim].packed();
        long done = 0;
        for (long i = 0; i < n; i++) {
            long r = dim == order.chunkLoop()
                    ? Math.min(order.chunk(), BlockedOrder.firstCount(order.inner()) - i * order.chunk())
                    : runs;
            done += blockedLoops(k, order, dim + 1, u + i * us, stream + i * ps, r, moved);
        }
        return done;
    }

    /**
     * Iterations {@code [0, runs)} of the first loop of the vector/contig nest {@code d} at user base
     * {@code u} (its disp included), packed from {@code stream}; returns the bytes done.
     */
    static long firstLoop(NativeKernel k, Dataloop d, long u, long stream, long runs) {
        if (d.leaf) {
            return d.kind == Dataloop.Kind.VECTOR
                    ? k.vectorLeaf(d, u, runs, stream, 1)
                    : k.run(u, d.blocklen, stream, 1, 0);
        }
        Dataloop c = d.child;
        long cu = u + c.disp;
        if (d.kind == Dataloop.Kind.CONTIG) {
            // The first loop is the elements.
            return c.leaf ? k.repeat(c, cu, d.ext, runs, stream, 1) : elements(k, c, cu, d.ext, runs, stream);
        }
        if (d.blocklen == 1 && c.leaf) {
            return k.repeat(c, cu, d.stride, runs, stream, 1);
        }
        if (d.blocklen == 1 && planes(c)) {
            return k.repeatPlanes(c, cu, d.stride, runs, stream, 1);
        }
        long done = 0;
        for (long b = 0; b < runs; b++) {
            long first = cu + b * d.stride;
            done += c.leaf
                    ? k.repeat(c, first, d.ext, d.blocklen, stream + done, 1)
                    : elements(k, c, first, d.ext, d.blocklen, stream + done);
        }
        return done;
    }

    /** {@code count} whole instances of the non-leaf nest {@code c}, instance i at {@code u + i * spacing}. */
    private static long elements(NativeKernel k, Dataloop c, long u, long spacing, long count, long stream) {
        long done = 0;
        for (long j = 0; j < count; j++) {
            done += firstLoop(k, c, u + j * spacing, stream + done, BlockedOrder.firstCount(c));
        }
        return done;
    }

    /** A "plane": a vector with one leaf per block (Flash I/O's y loop over x rows, a 3D block's z slices). */
    static boolean planes(Dataloop c) {
        return !c.leaf && c.kind == Dataloop.Kind.VECTOR && c.blocklen == 1 && c.child.leaf;
    }
}
