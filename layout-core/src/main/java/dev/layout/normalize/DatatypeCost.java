package dev.layout.normalize;

import dev.layout.datatype.Contiguous;
import dev.layout.datatype.Darray;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Indexed;
import dev.layout.datatype.Primitive;
import dev.layout.datatype.Resized;
import dev.layout.datatype.Struct;
import dev.layout.datatype.Subarray;
import dev.layout.datatype.Vector;

/**
 * The cost of a {@link Datatype} description under a level-additive {@link CostModel}: every
 * constructor is priced as the con/vec/idx nodes it stands for, visited as often as the counts
 * above it say, so that a datatype written from a {@link TypePath} costs exactly what the path
 * costs.
 *
 * <table>
 *   <caption>Constructors as nodes (M = visits of the constructor)</caption>
 *   <tr><td>primitive P</td><td>con(1) at M</td></tr>
 *   <tr><td>contiguous(c, P)</td><td>con(c) at M</td></tr>
 *   <tr><td>contiguous(c, T)</td><td>vec(c) at M + T at M·c</td></tr>
 *   <tr><td>(h)vector(c, b, ·, P)</td><td>vec(c) at M + con(b) at M·c</td></tr>
 *   <tr><td>(h)vector(c, b, ·, T)</td><td>vec(c) at M + vec(b) at M·c if b &gt; 1 + T at M·c·b</td></tr>
 *   <tr><td>(h)indexed_block(b, k displacements, ·)</td><td>idx(k) at M, then as vector</td></tr>
 *   <tr><td>(h)indexed(k blocks, c elements)</td><td>idx(2k) at M (section 6: Kidx + 2k),
 *       then as a block form with the mean blocklength ceil(c/k)</td></tr>
 *   <tr><td>struct(k members)</td><td>idx(3k) at M (three arrays) + each member as a block</td></tr>
 *   <tr><td>resized(lb, extent, T)</td><td>vec(1) at M (two words) + T at M</td></tr>
 *   <tr><td>subarray, darray</td><td>idx(3·ndims) resp. idx(4·ndims + 2) at M + oldType at
 *       M·(elements)</td></tr>
 * </table>
 *
 * Costs saturate at {@code Long.MAX_VALUE} instead of overflowing.
 */
public final class DatatypeCost {
    private DatatypeCost() {}

    /** The cost of {@code type} under {@code model}. */
    public static long cost(Datatype type, CostModel model) {
        return cost(type, model, 1);
    }

    private static long cost(Datatype t, CostModel m, long mult) {
        if (t instanceof Primitive) {
            return node(m, TypePath.Kind.CON, 1, mult);
        }
        if (t instanceof Contiguous c) {
            if (c.oldType() instanceof Primitive) {
                return node(m, TypePath.Kind.CON, c.count(), mult);
            }
            return add(node(m, TypePath.Kind.VEC, c.count(), mult), cost(c.oldType(), m, mul(mult, c.count())));
        }
        if (t instanceof Vector v) {
            return add(
                    node(m, TypePath.Kind.VEC, v.count(), mult),
                    block(v.oldType(), v.blocklength(), m, mul(mult, v.count())));
        }
        if (t instanceof Indexed x) {
            int k = x.blockCount();
            if (x.uniformBlocklength() >= 0) {
                return add(
                        node(m, TypePath.Kind.IDX, k, mult),
                        block(x.oldType(), x.uniformBlocklength(), m, mul(mult, k)));
            }
            long total = 0;
            for (int i = 0; i < k; i++) {
                total = add(total, x.blocklength(i));
            }
            long mean = k == 0 ? 0 : (total + k - 1) / k;
            return add(node(m, TypePath.Kind.IDX, 2L * k, mult), block(x.oldType(), mean, m, mul(mult, k)));
        }
        if (t instanceof Struct s) {
            long c = node(m, TypePath.Kind.IDX, 3L * s.memberCount(), mult);
            for (int i = 0; i < s.memberCount(); i++) {
                c = add(c, block(s.type(i), s.blocklength(i), m, mult));
            }
            return c;
        }
        if (t instanceof Resized r) {
            return add(node(m, TypePath.Kind.VEC, 1, mult), cost(r.oldType(), m, mult));
        }
        if (t instanceof Subarray s) {
            return add(
                    node(m, TypePath.Kind.IDX, 3L * s.sizes().length, mult),
                    cost(s.oldType(), m, mul(mult, elements(s.lowered(), s.oldType()))));
        }
        if (t instanceof Darray d) {
            return add(
                    node(m, TypePath.Kind.IDX, 4L * d.gsizes().length + 2, mult),
                    cost(d.oldType(), m, mul(mult, elements(d.lowered(), d.oldType()))));
        }
        throw new IllegalArgumentException("cost: unknown datatype " + t.combiner());
    }

    /** b copies of child, as a leaf con(b) for a primitive, else vec(b) (if b > 1) over child. */
    private static long block(Datatype child, long b, CostModel m, long mult) {
        if (child instanceof Primitive) {
            return node(m, TypePath.Kind.CON, Math.max(b, 1), mult);
        }
        long c = b > 1 ? node(m, TypePath.Kind.VEC, b, mult) : 0;
        return add(c, cost(child, m, mul(mult, Math.max(b, 1))));
    }

    private static long elements(Datatype lowered, Datatype old) {
        return old.byteSize() == 0 ? 1 : Math.max(1, lowered.byteSize() / old.byteSize());
    }

    private static long node(CostModel m, TypePath.Kind kind, long count, long mult) {
        return CutProgram.nodeCost(m, kind, count, mult);
    }

    private static long add(long a, long b) {
        return CutProgram.sat(a, b);
    }

    private static long mul(long a, long b) {
        long r;
        try {
            r = Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
        return r;
    }
}
