package dev.layout.arrow.grid;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Distribution;
import dev.layout.datatype.Order;
import java.util.Arrays;
import java.util.Objects;

/**
 * A block decomposition of an n-dimensional global array (row-major) over a process grid, exactly
 * as {@code darray} with {@link Distribution#BLOCK} in every dimension decomposes it: block size
 * {@code ceil(global / procs)} per dimension, ranks row-major over the grid.
 *
 * <pre>{@code
 * BlockDecomposition d = new BlockDecomposition(new long[] {256, 256, 256}, new long[] {2, 2, 2});
 * d.blockSizes(5);   // [128, 128, 128] at starts d.blockStarts(5) = [128, 0, 128]
 * d.fileType(5, Primitive.FLOAT64);   // the subarray of the global array rank 5 owns
 * }</pre>
 */
public final class BlockDecomposition {
    private final long[] globalSizes;
    private final long[] procs;
    private final long size;

    /** @throws IllegalArgumentException if the lengths differ or a size is not positive */
    public BlockDecomposition(long[] globalSizes, long[] procs) {
        Objects.requireNonNull(globalSizes, "BlockDecomposition: globalSizes is null");
        Objects.requireNonNull(procs, "BlockDecomposition: procs is null");
        if (globalSizes.length == 0 || globalSizes.length != procs.length) {
            throw new IllegalArgumentException("BlockDecomposition: globalSizes length " + globalSizes.length
                    + ", procs length " + procs.length + " (expected: equal and >= 1)");
        }
        long n = 1;
        for (int d = 0; d < procs.length; d++) {
            if (globalSizes[d] < 1) {
                throw new IllegalArgumentException(
                        "BlockDecomposition: globalSizes[" + d + "] " + globalSizes[d] + " (expected: >= 1)");
            }
            if (procs[d] < 1 || procs[d] > globalSizes[d]) {
                throw new IllegalArgumentException("BlockDecomposition: procs[" + d + "] " + procs[d]
                        + " (expected: 1 <= procs <= globalSizes[" + d + "] " + globalSizes[d] + ")");
            }
            n = Math.multiplyExact(n, procs[d]);
        }
        this.globalSizes = globalSizes.clone();
        this.procs = procs.clone();
        this.size = n;
    }

    public int dimensions() {
        return globalSizes.length;
    }

    public long[] globalSizes() {
        return globalSizes.clone();
    }

    public long[] procs() {
        return procs.clone();
    }

    /** Number of ranks. */
    public long size() {
        return size;
    }

    /** Grid coordinates of {@code rank} (row-major). */
    public long[] coords(long rank) {
        checkRank(rank);
        long[] c = new long[procs.length];
        long r = rank;
        for (int d = procs.length - 1; d >= 0; d--) {
            c[d] = r % procs[d];
            r /= procs[d];
        }
        return c;
    }

    /** The rank at {@code coords}, or -1 if outside the grid (no periodicity). */
    public long rankAt(long[] coords) {
        long r = 0;
        for (int d = 0; d < procs.length; d++) {
            if (coords[d] < 0 || coords[d] >= procs[d]) {
                return -1;
            }
            r = r * procs[d] + coords[d];
        }
        return r;
    }

    private long blockLength(int d) {
        return (globalSizes[d] + procs[d] - 1) / procs[d];
    }

    public long[] blockStarts(long rank) {
        long[] c = coords(rank);
        long[] s = new long[c.length];
        for (int d = 0; d < c.length; d++) {
            s[d] = Math.min(globalSizes[d], c[d] * blockLength(d));
        }
        return s;
    }

    /** Block sizes of {@code rank} (a trailing block may be smaller, or empty, as with darray). */
    public long[] blockSizes(long rank) {
        long[] s = blockStarts(rank);
        long[] n = new long[s.length];
        for (int d = 0; d < s.length; d++) {
            n[d] = Math.min(blockLength(d), globalSizes[d] - s[d]);
        }
        return n;
    }

    /** The subarray of the global array that {@code rank} owns: a filetype for a file view of the whole array. */
    public Datatype fileType(long rank, Datatype element) {
        return Datatype.subarray(globalSizes, blockSizes(rank), blockStarts(rank), Order.C, element);
    }

    /** The same region as the equivalent {@code darray} (block in every dimension). */
    public Datatype darray(long rank, Datatype element) {
        Distribution[] dist = new Distribution[procs.length];
        long[] dargs = new long[procs.length];
        Arrays.fill(dist, Distribution.BLOCK);
        Arrays.fill(dargs, Datatype.DEFAULT_DARG);
        return Datatype.darray(size, rank, globalSizes, dist, dargs, procs, Order.C, element);
    }

    private void checkRank(long rank) {
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException(
                    "BlockDecomposition: rank " + rank + " (expected: 0 <= rank < " + size + ")");
        }
    }

    @Override
    public String toString() {
        return "blocks(" + Arrays.toString(globalSizes) + " over " + Arrays.toString(procs) + ")";
    }
}
