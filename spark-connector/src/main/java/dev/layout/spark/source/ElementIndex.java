package dev.layout.spark.source;

import dev.layout.datatype.Order;
import java.io.Serializable;

/**
 * Where an element of a dense array of {@code shape} lies in the file: its index in storage order
 * (the sum of its coordinates times their strides) and the coordinates of an index (for messages).
 */
final class ElementIndex implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long[] shape;
    private final Order order;
    /** Elements between neighbours along each dimension (in the order of {@code shape}). */
    private final long[] strides;

    ElementIndex(long[] shape, Order order) {
        this.shape = shape.clone();
        this.order = order;
        this.strides = new long[shape.length];
        long s = 1;
        for (int k = shape.length - 1; k >= 0; k--) {
            int d = dimension(k);
            strides[d] = s;
            s = shape[d] == 0 ? s : Math.multiplyExact(s, shape[d]);
        }
    }

    int dimensions() {
        return shape.length;
    }

    long size(int d) {
        return shape[d];
    }

    long stride(int d) {
        return strides[d];
    }

    /** The dimension at position {@code k} of storage order (0: the slowest). */
    int dimension(int k) {
        return order == Order.C ? k : shape.length - 1 - k;
    }

    /** The coordinates of index {@code lin}, e.g. {@code (i0 = 3, i1 = 5)}. */
    String coordinates(long lin) {
        StringBuilder b = new StringBuilder("(");
        for (int d = 0; d < shape.length; d++) {
            long x = shape[d] == 0 ? 0 : lin / strides[d] % shape[d];
            b.append(d == 0 ? "" : ", ")
                    .append(FileViewSpec.coordinateName(d))
                    .append(" = ")
                    .append(x);
        }
        return b.append(")").toString();
    }
}
