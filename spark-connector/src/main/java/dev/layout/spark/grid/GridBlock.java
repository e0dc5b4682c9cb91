package dev.layout.spark.grid;

import dev.layout.memory.Memory;
import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One rank's block of a {@link DistributedGrid}: the local array of float64 elements including the
 * ghost cells, C order, little-endian bytes (the layout notation's native order, so the halo
 * datatypes pack and unpack it in place through {@link #memory()}).
 *
 * <p>Flat indices address the local array: {@code index(i0, i1, ...)} with local coordinates that
 * start at 0 in the ghost region; the interior starts at {@code ghost} in every dimension.
 */
public final class GridBlock implements Serializable {
    private static final long serialVersionUID = 1L;
    // byte-array view: the JIT turns this into plain loads and stores (no bounds beyond the array's)
    private static final VarHandle DOUBLES =
            MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    private final int rank;
    private final int ghost;
    private final int[] start;
    private final int[] dims;
    private final int[] strides;
    private final byte[] data;

    GridBlock(int rank, int ghost, int[] start, int[] dims, byte[] data) {
        this.rank = rank;
        this.ghost = ghost;
        this.start = start.clone();
        this.dims = dims.clone();
        this.strides = new int[dims.length];
        long s = 1;
        for (int a = dims.length - 1; a >= 0; a--) {
            strides[a] = (int) s;
            s *= dims[a];
        }
        if (s * 8 > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("gridBlock: local size " + Arrays.toString(dims) + " = " + s
                    + " elements (expected: <= 2^28 per block)");
        }
        if (data.length != s * 8) {
            throw new IllegalArgumentException("gridBlock: " + data.length + " bytes (expected: " + s * 8 + ")");
        }
        this.data = data;
    }

    /** The rank (partition) this block belongs to. */
    /**
     * The one block of a partition (a distributed grid has one block per rank and partition); {@code
     * op} names the caller in the error.
     *
     * @throws IllegalStateException if the partition holds no block or more than one
     */
    public static GridBlock onlyBlock(java.util.Iterator<GridBlock> partition, String op) {
        if (!partition.hasNext()) {
            throw new IllegalStateException(op + ": empty partition (expected: one block per partition)");
        }
        GridBlock b = partition.next();
        if (partition.hasNext()) {
            throw new IllegalStateException(op + ": more than one block in the partition of rank " + b.rank());
        }
        return b;
    }

    public int rank() {
        return rank;
    }

    /** Ghost width. */
    public int ghost() {
        return ghost;
    }

    /** Number of dimensions. */
    public int d() {
        return dims.length;
    }

    /** Global coordinates of the first interior element. */
    public int[] start() {
        return start.clone();
    }

    /** Local array sizes including the ghost cells. */
    public int[] dims() {
        return dims.clone();
    }

    /** Interior sizes (the block proper). */
    public int[] interior() {
        int[] n = dims.clone();
        for (int a = 0; a < n.length; a++) {
            n[a] -= 2 * ghost;
        }
        return n;
    }

    /** Element stride of dimension {@code axis} in the flat index. */
    public int stride(int axis) {
        return strides[axis];
    }

    /** Number of elements of the local array (with ghosts). */
    public int length() {
        return data.length >>> 3;
    }

    /** Flat index of local coordinates (0 = first ghost cell). */
    public int index(int... local) {
        int i = 0;
        for (int a = 0; a < local.length; a++) {
            i += local[a] * strides[a];
        }
        return i;
    }

    public double get(int index) {
        return (double) DOUBLES.get(data, index << 3);
    }

    public void set(int index, double value) {
        DOUBLES.set(data, index << 3, value);
    }

    /** The local array as memory for the datatype engine (no copy). */
    public Memory memory() {
        return Memory.ofArray(data);
    }

    /** The backing bytes (no copy). */
    byte[] bytes() {
        return data;
    }

    /** A deep copy. */
    public GridBlock copy() {
        return new GridBlock(rank, ghost, start, dims, data.clone());
    }

    /** Copies every element of {@code other} (same shape) into this block. */
    public void copyFrom(GridBlock other) {
        if (!Arrays.equals(dims, other.dims)) {
            throw new IllegalArgumentException("gridBlock: copy from shape " + Arrays.toString(other.dims)
                    + " (expected: " + Arrays.toString(dims) + ")");
        }
        System.arraycopy(other.data, 0, data, 0, data.length);
    }

    @Override
    public String toString() {
        return "gridBlock(rank " + rank + ", start " + Arrays.toString(start) + ", local " + Arrays.toString(dims)
                + ", ghost " + ghost + ")";
    }
}
