package dev.layout.testing;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Distribution;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/** Random valid nested datatypes of bounded size, for property tests (every constructor appears). */
public final class RandomTypes {
    private RandomTypes() {}

    /** Types of depth at most {@code maxDepth} whose data is at most {@code maxBytes} per element. */
    public static Arbitrary<Datatype> types(int maxDepth, long maxBytes) {
        return Arbitraries.randomValue(r -> {
            while (true) {
                try {
                    Datatype t = type(r, maxDepth);
                    if (t.byteSize() <= maxBytes && Math.abs(t.extent()) <= 1 << 16 && t.trueExtent() <= 1 << 18) {
                        return t;
                    }
                } catch (IllegalArgumentException e) {
                    // an invalid combination drawn (e.g. a darray block too small): draw again
                }
            }
        });
    }

    /**
     * Types built to reach every leaf kernel of the engine: long vectors and hvectors, vectors of
     * vectors (planes), indexed blocks at random slots, records of a few fields repeated (alone or in rows), resized runs,
     * and short blocks all in one cache set (strided or listed, which the engine paces), with block widths of any size from 1 to 160 bytes (odd ones included) and counts up to
     * 2000, at most {@code maxBytes} of data per element.
     */
    public static Arbitrary<Datatype> leafTypes(long maxBytes) {
        return Arbitraries.randomValue(r -> {
            while (true) {
                Datatype t = leafType(r);
                if (t.byteSize() <= maxBytes && t.byteSize() > 0 && t.trueExtent() <= 1 << 20) {
                    return t;
                }
            }
        });
    }

    /** One draw of {@link #leafTypes}. */
    public static Datatype leafType(Random r) {
        Primitive[] units = {Primitive.INT8, Primitive.INT16, Primitive.FLOAT32, Primitive.FLOAT64};
        Primitive e = units[r.nextInt(units.length)];
        long w = 1 + r.nextInt(r.nextBoolean() ? 8 : (int) (160 / e.byteSize())); // block in elements
        long gap = 1 + r.nextInt(r.nextInt(4) == 0 ? 64 : 4);
        long count = 1 + r.nextInt(r.nextBoolean() ? 40 : 2000);
        switch (r.nextInt(7)) {
            case 0:
                return Datatype.vector(count, w, w + gap, e);
            case 1:
                return Datatype.hvector(count, 1, (w + gap) * e.byteSize() + r.nextInt(3), Datatype.contiguous(w, e));
            case 2: {
                long rows = 1 + r.nextInt(16);
                long inner = 1 + r.nextInt(40);
                Datatype row = Datatype.vector(inner, w, w + gap, e);
                return Datatype.hvector(rows, 1, row.extent() + r.nextInt(5) * e.byteSize(), row);
            }
            case 3: {
                int n = (int) Math.min(count, 500);
                long[] slots = new long[n];
                for (int i = 0; i < n; i++) {
                    slots[i] = i;
                }
                for (int i = n - 1; i > 0; i--) {
                    int j = r.nextInt(i + 1);
                    long x = slots[i];
                    slots[i] = slots[j];
                    slots[j] = x;
                    slots[i] *= w + gap;
                }
                slots[0] *= w + gap;
                return Datatype.indexedBlock(w, slots, e);
            }
            case 4: {
                // A record of two to four fields of one to three elements, repeated.
                int fields = 2 + r.nextInt(3);
                long[] lens = new long[fields];
                long[] disps = new long[fields];
                long at = 0;
                for (int i = 0; i < fields; i++) {
                    lens[i] = 1 + r.nextInt(3);
                    disps[i] = at;
                    at += lens[i] + r.nextInt(3);
                }
                Datatype record =
                        Datatype.resized(0, (at + r.nextInt(4)) * e.byteSize(), Datatype.indexed(lens, disps, e));
                if (r.nextInt(3) == 0) {
                    // rows of records: a sub-block of an array of structs
                    Datatype row = Datatype.contiguous(1 + r.nextInt(12), record);
                    return Datatype.hvector(1 + count / 8, 1, row.extent() + record.extent() * (1 + r.nextInt(3)), row);
                }
                return Datatype.contiguous(count, record);
            }
            case 5:
                return Datatype.contiguous(
                        count, Datatype.resized(0, (w + gap) * e.byteSize(), Datatype.contiguous(w, e)));
            default: {
                // Blocks of up to 40 bytes all in one cache set (64 KiB apart, 2 to 16 of them): strided, or listed in
                // a random order; the engine paces those of up to 32 bytes.
                long set = (1 << 16) / e.byteSize();
                long b = 1 + r.nextInt((int) Math.max(1, 40 / e.byteSize()));
                int n = 2 + r.nextInt(15);
                if (r.nextBoolean()) {
                    return Datatype.vector(n, b, set, e);
                }
                long[] slots = new long[n];
                for (int i = 0; i < n; i++) {
                    slots[i] = i * set;
                }
                for (int i = n - 1; i > 0; i--) {
                    int j = r.nextInt(i + 1);
                    long x = slots[i];
                    slots[i] = slots[j];
                    slots[j] = x;
                }
                return Datatype.indexedBlock(b, slots, e);
            }
        }
    }

    public static Datatype type(Random r, int depth) {
        if (depth == 0 || r.nextInt(5) == 0) {
            Primitive[] p = Primitive.values();
            return p[r.nextInt(p.length)];
        }
        Datatype old = type(r, depth - 1);
        switch (r.nextInt(12)) {
            case 0:
                return Datatype.contiguous(r.nextInt(5), old);
            case 1:
                return Datatype.vector(r.nextInt(4) + 1, r.nextInt(3), r.nextInt(9) - 3, old);
            case 2:
                return Datatype.hvector(r.nextInt(4) + 1, r.nextInt(3), r.nextInt(80) - 20, old);
            case 3: {
                int n = r.nextInt(4) + 1;
                return Datatype.indexed(longs(r, n, 0, 3), longs(r, n, -4, 12), old);
            }
            case 4: {
                int n = r.nextInt(4) + 1;
                return Datatype.hindexed(longs(r, n, 0, 3), longs(r, n, -30, 100), old);
            }
            case 5:
                return Datatype.indexedBlock(r.nextInt(3), longs(r, r.nextInt(4) + 1, -3, 10), old);
            case 6:
                return Datatype.hindexedBlock(r.nextInt(3), longs(r, r.nextInt(4) + 1, -20, 90), old);
            case 7: {
                int n = r.nextInt(3) + 1;
                List<Datatype> types = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    types.add(i == 0 ? old : type(r, depth - 1));
                }
                return Datatype.struct(longs(r, n, 0, 3), longs(r, n, -16, 64), types);
            }
            case 8:
            case 9: {
                int nd = r.nextInt(3) + 1;
                long[] sizes = new long[nd];
                long[] sub = new long[nd];
                long[] starts = new long[nd];
                for (int d = 0; d < nd; d++) {
                    sizes[d] = r.nextInt(5) + 1;
                    sub[d] = r.nextInt((int) sizes[d]) + 1;
                    starts[d] = r.nextInt((int) (sizes[d] - sub[d] + 1));
                }
                if (r.nextBoolean()) {
                    return Datatype.subarray(sizes, sub, starts, r.nextBoolean() ? Order.C : Order.F, old);
                }
                long[] ps = new long[nd];
                Distribution[] ds = new Distribution[nd];
                long[] dargs = new long[nd];
                long size = 1;
                for (int d = 0; d < nd; d++) {
                    ds[d] = Distribution.values()[r.nextInt(3)];
                    ps[d] = ds[d] == Distribution.NONE ? 1 : r.nextInt(3) + 1;
                    dargs[d] = r.nextBoolean() ? Datatype.DEFAULT_DARG : r.nextInt(3) + 1;
                    size *= ps[d];
                }
                return Datatype.darray(
                        size, r.nextInt((int) size), sizes, ds, dargs, ps, r.nextBoolean() ? Order.C : Order.F, old);
            }
            default:
                return Datatype.resized(r.nextInt(17) - 8, r.nextInt(40) - 4, old);
        }
    }

    private static long[] longs(Random r, int n, int lo, int hi) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = lo + r.nextInt(hi - lo + 1);
        }
        return a;
    }
}
