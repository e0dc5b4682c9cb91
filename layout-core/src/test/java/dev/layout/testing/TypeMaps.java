package dev.layout.testing;

import dev.layout.datatype.Contiguous;
import dev.layout.datatype.Darray;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Distribution;
import dev.layout.datatype.Indexed;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.datatype.Resized;
import dev.layout.datatype.Struct;
import dev.layout.datatype.Subarray;
import dev.layout.datatype.Vector;
import java.util.ArrayList;
import java.util.List;

/**
 * A naive type-map interpreter written straight from the MPI definitions (independent of the
 * engine and of the subarray/darray lowering): the reference the property tests compare against.
 */
public final class TypeMaps {
    private TypeMaps() {}

    /** One entry of a type map. */
    public record Entry(long disp, Primitive primitive) {}

    /** The type map of one element, in pack order. */
    public static List<Entry> typeMap(Datatype t) {
        List<Entry> out = new ArrayList<>();
        add(t, 0, out);
        return out;
    }

    private static void add(Datatype t, long at, List<Entry> out) {
        switch (t.combiner()) {
            case NAMED -> out.add(new Entry(at, (Primitive) t));
            case CONTIGUOUS -> {
                Contiguous c = (Contiguous) t;
                for (long i = 0; i < c.count(); i++) {
                    add(c.oldType(), at + i * c.oldType().extent(), out);
                }
            }
            case VECTOR, HVECTOR -> {
                Vector v = (Vector) t;
                long stride = t.combiner() == dev.layout.datatype.Combiner.VECTOR
                        ? v.stride() * v.oldType().extent()
                        : v.stride();
                for (long i = 0; i < v.count(); i++) {
                    for (long j = 0; j < v.blocklength(); j++) {
                        add(v.oldType(), at + i * stride + j * v.oldType().extent(), out);
                    }
                }
            }
            case INDEXED, HINDEXED, INDEXED_BLOCK, HINDEXED_BLOCK -> {
                Indexed x = (Indexed) t;
                boolean bytes = t.combiner() == dev.layout.datatype.Combiner.HINDEXED
                        || t.combiner() == dev.layout.datatype.Combiner.HINDEXED_BLOCK;
                long e = x.oldType().extent();
                for (int b = 0; b < x.blockCount(); b++) {
                    long d = bytes ? x.displacement(b) : x.displacement(b) * e;
                    for (long j = 0; j < x.blocklength(b); j++) {
                        add(x.oldType(), at + d + j * e, out);
                    }
                }
            }
            case STRUCT -> {
                Struct s = (Struct) t;
                for (int i = 0; i < s.memberCount(); i++) {
                    for (long j = 0; j < s.blocklength(i); j++) {
                        add(
                                s.type(i),
                                at + s.byteDisplacement(i) + j * s.type(i).extent(),
                                out);
                    }
                }
            }
            case RESIZED -> add(((Resized) t).oldType(), at, out);
            case SUBARRAY -> {
                Subarray s = (Subarray) t;
                long[][] owned = new long[s.sizes().length][];
                for (int d = 0; d < owned.length; d++) {
                    owned[d] = new long[(int) s.subsizes()[d]];
                    for (int k = 0; k < owned[d].length; k++) {
                        owned[d][k] = s.starts()[d] + k;
                    }
                }
                grid(s.sizes(), owned, s.order(), s.oldType(), at, out);
            }
            case DARRAY -> {
                Darray a = (Darray) t;
                int n = a.gsizes().length;
                long[] coords = new long[n];
                long rest = a.rank();
                long procs = a.size();
                for (int i = 0; i < n; i++) {
                    procs /= a.psizes()[i];
                    coords[i] = rest / procs;
                    rest %= procs;
                }
                long[][] owned = new long[n][];
                for (int d = 0; d < n; d++) {
                    List<Long> idx = new ArrayList<>();
                    long g = a.gsizes()[d];
                    long p = a.psizes()[d];
                    long c = coords[d];
                    long darg = a.dargs()[d];
                    Distribution dist = a.distribs()[d];
                    if (dist == Distribution.NONE) {
                        for (long k = 0; k < g; k++) idx.add(k);
                    } else if (dist == Distribution.BLOCK) {
                        long blk = darg == Datatype.DEFAULT_DARG ? (g + p - 1) / p : darg;
                        for (long k = blk * c; k < Math.min(g, blk * (c + 1)); k++) idx.add(k);
                    } else {
                        long blk = darg == Datatype.DEFAULT_DARG ? 1 : darg;
                        for (long start = c * blk; start < g; start += p * blk) {
                            for (long k = start; k < Math.min(g, start + blk); k++) idx.add(k);
                        }
                    }
                    owned[d] = idx.stream().mapToLong(Long::longValue).toArray();
                }
                grid(a.gsizes(), owned, a.order(), a.oldType(), at, out);
            }
        }
    }

    /** Elements of an n-d array whose per-dimension indices are {@code owned}, in array order. */
    private static void grid(long[] sizes, long[][] owned, Order order, Datatype old, long at, List<Entry> out) {
        int n = sizes.length;
        for (long[] o : owned) {
            if (o.length == 0) {
                return;
            }
        }
        long[] strides = new long[n];
        long s = 1;
        for (int k = 0; k < n; k++) {
            int d = order == Order.C ? n - 1 - k : k;
            strides[d] = s;
            s *= sizes[d];
        }
        int[] idx = new int[n];
        while (true) {
            long lin = 0;
            for (int d = 0; d < n; d++) {
                lin += owned[d][idx[d]] * strides[d];
            }
            add(old, at + lin * old.extent(), out);
            // odometer, fastest dimension first
            int k = 0;
            for (; k < n; k++) {
                int d = order == Order.C ? n - 1 - k : k;
                if (++idx[d] < owned[d].length) {
                    break;
                }
                idx[d] = 0;
            }
            if (k == n) {
                return;
            }
        }
    }

    /** Packs {@code count} elements at {@code origin} by walking the type map entry by entry. */
    public static byte[] naivePack(Datatype t, long count, byte[] src, long origin, boolean external32) {
        List<Entry> map = typeMap(t);
        byte[] out = new byte[(int) (t.byteSize() * count)];
        int p = 0;
        for (long i = 0; i < count; i++) {
            for (Entry e : map) {
                int size = (int) e.primitive().byteSize();
                long at = origin + i * t.extent() + e.disp();
                for (int k = 0; k < size; k++) {
                    int from = external32 && e.primitive() != Primitive.BYTE ? size - 1 - k : k;
                    out[p + k] = src[(int) (at + from)];
                }
                p += size;
            }
        }
        return out;
    }

    /** Byte offsets from the origin, in pack order, of {@code count} elements. */
    public static long[] byteOffsets(Datatype t, long count) {
        List<Entry> map = typeMap(t);
        long[] out = new long[(int) (t.byteSize() * count)];
        int p = 0;
        for (long i = 0; i < count; i++) {
            for (Entry e : map) {
                for (int k = 0; k < e.primitive().byteSize(); k++) {
                    out[p++] = i * t.extent() + e.disp() + k;
                }
            }
        }
        return out;
    }
}
