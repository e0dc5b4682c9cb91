package dev.layout.arrow.grid;

import dev.layout.arrow.ArrowMemory;
import dev.layout.arrow.VectorPacking;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float8Vector;

/**
 * One rank's block of a 3D (or 1D/2D) float64 global array, with ghost cells, backed by a dense
 * Arrow {@link Float8Vector} in row-major order: the decomposition gives the block, {@link
 * HaloTypes} the halo datatypes, and {@link #fileView()} the view of the block in a file holding
 * the whole global array.
 *
 * <pre>{@code
 * try (GhostedBlock b = GhostedBlock.allocate(allocator, decomposition, rank, 1)) {
 *   reader.readAt(0, b.memory(), 0, b.halos().interior(), 1);   // with reader over b.fileView()
 *   for (Halo h : b.halos().all()) { ... pack h.send(), unpack into the neighbour's h.receive() ... }
 * }
 * }</pre>
 */
public final class GhostedBlock implements AutoCloseable {
    private final BlockDecomposition decomposition;
    private final long rank;
    private final HaloTypes halos;
    private final Float8Vector vector;

    private GhostedBlock(BlockDecomposition decomposition, long rank, HaloTypes halos, Float8Vector vector) {
        this.decomposition = decomposition;
        this.rank = rank;
        this.halos = halos;
        this.vector = vector;
    }

    /**
     * Allocates rank {@code rank}'s block with {@code ghost} ghost cells per side, zero-filled.
     *
     * @throws IllegalArgumentException if the ghosted block has more than {@code Integer.MAX_VALUE} cells
     */
    public static GhostedBlock allocate(
            BufferAllocator allocator, BlockDecomposition decomposition, long rank, long ghost) {
        Objects.requireNonNull(allocator, "GhostedBlock: allocator is null");
        Objects.requireNonNull(decomposition, "GhostedBlock: decomposition is null");
        HaloTypes h = new HaloTypes(decomposition.blockSizes(rank), ghost, Primitive.FLOAT64);
        long cells = 1;
        for (long s : h.ghostedSizes()) {
            cells = Math.multiplyExact(cells, s);
        }
        if (cells > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "GhostedBlock: " + cells + " cells (expected: <= " + Integer.MAX_VALUE + ")");
        }
        return new GhostedBlock(
                decomposition, rank, h, VectorPacking.denseFloat8(allocator, "block-" + rank, (int) cells));
    }

    public long rank() {
        return rank;
    }

    public BlockDecomposition decomposition() {
        return decomposition;
    }

    public HaloTypes halos() {
        return halos;
    }

    /** The backing vector (owned by this block). */
    public Float8Vector vector() {
        return vector;
    }

    /** The block's cells as memory, element 0 at byte 0. */
    public Memory memory() {
        return ArrowMemory.ofData(vector);
    }

    /** The view of this block's interior in a file holding the global array from byte 0. */
    public FileView fileView() {
        return new FileView(0, Primitive.FLOAT64, decomposition.fileType(rank, Primitive.FLOAT64));
    }

    /** The neighbour in {@code direction}, or -1 at the edge of the grid. */
    public long neighbour(int[] direction) {
        long[] c = decomposition.coords(rank);
        for (int d = 0; d < c.length; d++) {
            c[d] += direction[d];
        }
        return decomposition.rankAt(c);
    }

    @Override
    public void close() {
        vector.close();
    }
}
