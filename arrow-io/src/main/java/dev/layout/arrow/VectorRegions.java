package dev.layout.arrow;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import java.util.Objects;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;

/**
 * Datatypes of regions (rows, columns, faces, slabs, halos) of 2D and 3D arrays stored row-major
 * (last index fastest, {@link Order#C}) in the data buffer of a fixed-width vector. All regions are
 * {@code subarray} types of the whole array, so their origin is element 0 of the vector and one
 * element of the region type has the extent of the whole array.
 *
 * <pre>{@code
 * long[] sizes = {256, 256, 256};
 * Datatype yz = VectorRegions.face(Primitive.FLOAT64, sizes, 2, 0);   // x == 0: 1 double every 256
 * // subarray([256,256,256], [256,256,1], [0,0,0], C, float64)
 * }</pre>
 */
public final class VectorRegions {
    private VectorRegions() {}

    /** The element datatype of a fixed-width vector: its primitive, or {@code contig(width, byte)}. */
    public static Datatype elementType(BaseFixedWidthVector vector) {
        Objects.requireNonNull(vector, "elementType: vector is null");
        Primitive p = primitiveOf(vector);
        return p != null ? p : Datatype.contiguous(vector.getTypeWidth(), Primitive.BYTE);
    }

    /** The primitive matching the vector's values, or null (e.g. decimals, fixed-size binary). */
    public static Primitive primitiveOf(BaseFixedWidthVector v) {
        if (v instanceof Float8Vector) {
            return Primitive.FLOAT64;
        } else if (v instanceof Float4Vector) {
            return Primitive.FLOAT32;
        } else if (v instanceof BigIntVector) {
            return Primitive.INT64;
        } else if (v instanceof IntVector) {
            return Primitive.INT32;
        } else if (v instanceof SmallIntVector) {
            return Primitive.INT16;
        } else if (v instanceof TinyIntVector) {
            return Primitive.INT8;
        } else if (v instanceof UInt1Vector) {
            return Primitive.UINT8;
        } else if (v instanceof UInt2Vector) {
            return Primitive.UINT16;
        } else if (v instanceof UInt4Vector) {
            return Primitive.UINT32;
        } else if (v instanceof UInt8Vector) {
            return Primitive.UINT64;
        }
        return null;
    }

    /** A box {@code starts .. starts + subsizes} of an array of {@code sizes}, row-major. */
    public static Datatype slab(Datatype element, long[] sizes, long[] starts, long[] subsizes) {
        Objects.requireNonNull(sizes, "slab: sizes is null");
        return Datatype.subarray(sizes, subsizes, starts, Order.C, element);
    }

    /** Row {@code row} of a {@code rows x cols} matrix: {@code cols} contiguous elements. */
    public static Datatype row(Datatype element, long rows, long cols, long row) {
        return slab(element, new long[] {rows, cols}, new long[] {row, 0}, new long[] {1, cols});
    }

    /** Column {@code col} of a {@code rows x cols} matrix: {@code rows} elements, {@code cols} apart. */
    public static Datatype column(Datatype element, long rows, long cols, long col) {
        return slab(element, new long[] {rows, cols}, new long[] {0, col}, new long[] {rows, 1});
    }

    /**
     * The plane {@code index} of axis {@code axis} of an n-dimensional array (a row or column for 2D,
     * a face for 3D): every element whose coordinate on {@code axis} is {@code index}.
     *
     * @throws IllegalArgumentException if axis is not in {@code [0, sizes.length)} or index is not in
     *     {@code [0, sizes[axis])}
     */
    public static Datatype face(Datatype element, long[] sizes, int axis, long index) {
        return faceSlab(element, sizes, axis, index, 1);
    }

    /** {@code width} consecutive planes of axis {@code axis} starting at {@code index}. */
    public static Datatype faceSlab(Datatype element, long[] sizes, int axis, long index, long width) {
        Objects.requireNonNull(sizes, "face: sizes is null");
        if (axis < 0 || axis >= sizes.length) {
            throw new IllegalArgumentException("face: axis " + axis + " (expected: 0 <= axis < " + sizes.length + ")");
        }
        if (width < 1 || index < 0 || index > sizes[axis] - width) {
            throw new IllegalArgumentException("face: index " + index + " width " + width
                    + " (expected: 0 <= index, index + width <= sizes[" + axis + "] " + sizes[axis] + ")");
        }
        long[] starts = new long[sizes.length];
        long[] sub = sizes.clone();
        starts[axis] = index;
        sub[axis] = width;
        return slab(element, sizes, starts, sub);
    }

    /** Which side of a block along one axis. */
    public enum Side {
        LOW,
        HIGH
    }

    /** Which copy of a halo: the owned cells that neighbours need, or the ghost cells they fill. */
    public enum HaloPart {
        /** Interior cells next to the boundary, sent to the neighbour. */
        SEND,
        /** Ghost cells outside the interior, received from the neighbour. */
        RECEIVE
    }

    /**
     * The halo face of a block with {@code ghost} ghost cells on every side: {@code sizes} include the
     * ghosts; along {@code axis} the region is {@code ghost} thick, along the other axes it spans the
     * interior only (no edges or corners; see {@code dev.layout.arrow.grid.HaloTypes} for those).
     */
    public static Datatype halo(Datatype element, long[] sizes, long ghost, int axis, Side side, HaloPart part) {
        Objects.requireNonNull(sizes, "halo: sizes is null");
        Objects.requireNonNull(side, "halo: side is null");
        Objects.requireNonNull(part, "halo: part is null");
        if (ghost < 1) {
            throw new IllegalArgumentException("halo: ghost " + ghost + " (expected: >= 1)");
        }
        if (axis < 0 || axis >= sizes.length) {
            throw new IllegalArgumentException("halo: axis " + axis + " (expected: 0 <= axis < " + sizes.length + ")");
        }
        long[] starts = new long[sizes.length];
        long[] sub = new long[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            if (sizes[d] < 3 * ghost) {
                throw new IllegalArgumentException(
                        "halo: sizes[" + d + "] " + sizes[d] + " (expected: >= 3 * ghost " + 3 * ghost + ")");
            }
            starts[d] = ghost;
            sub[d] = sizes[d] - 2 * ghost;
        }
        sub[axis] = ghost;
        starts[axis] = switch (side) {
            case LOW -> part == HaloPart.SEND ? ghost : 0;
            case HIGH -> part == HaloPart.SEND ? sizes[axis] - 2 * ghost : sizes[axis] - ghost;
        };
        return slab(element, sizes, starts, sub);
    }
}
