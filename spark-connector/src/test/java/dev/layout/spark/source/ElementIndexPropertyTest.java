package dev.layout.spark.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Order;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link ElementIndex} against a naive model: an odometer that walks every element of the shape in
 * storage order (the fastest coordinate turning first) and counts. Each element's index by strides
 * is its count, and its coordinates print back from the index.
 */
class ElementIndexPropertyTest {
    @Property(tries = 300)
    void theIndexByStridesIsTheElementsPlaceInStorageOrder(
            @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 0, max = 5) Integer> dims, @ForAll boolean fortran) {
        long[] shape = dims.stream().mapToLong(Integer::longValue).toArray();
        Order order = fortran ? Order.F : Order.C;
        ElementIndex index = new ElementIndex(shape, order);
        int d = shape.length;
        long count = 1;
        for (long s : shape) {
            count *= s;
        }
        // the odometer: x[dimension(k)] for k = d-1 (fastest) .. 0
        long[] x = new long[d];
        for (long n = 0; n < count; n++) {
            long lin = 0;
            StringBuilder want = new StringBuilder("(");
            for (int dim = 0; dim < d; dim++) {
                lin += x[dim] * index.stride(dim);
                want.append(dim == 0 ? "" : ", ")
                        .append("i")
                        .append(dim)
                        .append(" = ")
                        .append(x[dim]);
            }
            assertThat(lin).as("index of %s", want).isEqualTo(n);
            assertThat(index.coordinates(lin)).isEqualTo(want.append(")").toString());
            for (int k = d - 1; k >= 0; k--) {
                int dim = fortran ? d - 1 - k : k;
                assertThat(index.dimension(k)).isEqualTo(dim);
                if (++x[dim] < shape[dim]) {
                    break;
                }
                x[dim] = 0;
            }
        }
    }
}
