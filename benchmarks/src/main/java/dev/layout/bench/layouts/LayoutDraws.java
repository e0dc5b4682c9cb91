package dev.layout.bench.layouts;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Distribution;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Application layouts drawn at random from a seed, for measuring the engine on layouts no benchmark
 * was tuned on: sub-blocks of 2- to 4-dimensional arrays, slices and lists of naturally aligned
 * records, fields of separate arrays in one struct, rows of strided blocks of odd widths,
 * block-cyclic distributions and sparse rows. Sizes, widths, members and offsets are random; the same
 * seed draws the same layouts.
 */
public final class LayoutDraws {
    private LayoutDraws() {}

    /** What each layout is drawn from, in the order draws cycle through them. */
    static final String[] KINDS = {
        "subarray", "record slice", "record list", "fields", "rows", "block-cyclic", "sparse rows", "record subarray"
    };

    /** The first {@code n} layouts of {@code seed}. */
    public static List<Datatype> draw(long seed, int n) {
        Random r = new Random(seed);
        List<Datatype> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(draw(r, i % KINDS.length));
        }
        return out;
    }

    private static Datatype draw(Random r, int kind) {
        return switch (kind) {
            case 0 -> subarray(r, element(r));
            case 1 -> Datatype.vector(2 + r.nextInt(60), 1 + r.nextInt(3), 4 + r.nextInt(6), record(r));
            case 2 -> {
                long bl = 1 + r.nextInt(2);
                long[] list = sortedSubset(r, 2 + r.nextInt(200), 1 + r.nextInt(4));
                for (int i = 0; i < list.length; i++) {
                    list[i] *= bl;
                }
                yield Datatype.indexedBlock(bl, list, record(r));
            }
            case 3 -> fields(r);
            case 4 -> {
                Primitive e = primitive(r);
                long w = 1 + r.nextInt(9);
                long s = w + 1 + r.nextInt(12);
                Datatype row = Datatype.vector(2 + r.nextInt(30), w, s, e);
                yield Datatype.hvector(2 + r.nextInt(30), 1, row.extent() + e.byteSize() * r.nextInt(40), row);
            }
            case 5 -> blockCyclic(r, element(r));
            case 6 -> sparseRows(r, primitive(r));
            default -> subarray(r, record(r));
        };
    }

    /** A float, a double, an int16, a complex double or a 3-vector of floats. */
    private static Datatype element(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> Primitive.FLOAT32;
            case 1 -> Primitive.FLOAT64;
            case 2 -> Primitive.INT16;
            case 3 -> Datatype.contiguous(2, Primitive.FLOAT64);
            default -> Datatype.contiguous(3, Primitive.FLOAT32);
        };
    }

    private static Primitive primitive(Random r) {
        Primitive[] p = {
            Primitive.INT8, Primitive.INT16, Primitive.INT32, Primitive.INT64, Primitive.FLOAT32, Primitive.FLOAT64
        };
        return p[r.nextInt(p.length)];
    }

    /**
     * A C struct of 2 to 6 members, each 1 to 4 of one primitive, at naturally aligned offsets, its
     * extent rounded up to its widest member (what a compiler lays out); with some chance a member is
     * skipped (a field not sent).
     */
    static Datatype record(Random r) {
        int n = 2 + r.nextInt(5);
        List<Datatype> types = new ArrayList<>();
        List<Long> lens = new ArrayList<>();
        List<Long> disps = new ArrayList<>();
        long at = 0;
        long align = 1;
        for (int i = 0; i < n; i++) {
            Primitive p = primitive(r);
            long len = 1 + r.nextInt(4);
            at = (at + p.byteSize() - 1) / p.byteSize() * p.byteSize();
            align = Math.max(align, p.byteSize());
            if (i == 0 || r.nextInt(4) != 0) {
                types.add(p);
                lens.add(len);
                disps.add(at);
            }
            at += len * p.byteSize();
        }
        long extent = (at + align - 1) / align * align;
        Datatype s = Datatype.struct(
                lens.stream().mapToLong(Long::longValue).toArray(),
                disps.stream().mapToLong(Long::longValue).toArray(),
                types);
        return Datatype.resized(0, extent, s);
    }

    /** A sub-block of a 2- to 4-dimensional array of {@code e}, C or Fortran order. */
    private static Datatype subarray(Random r, Datatype e) {
        int dims = 2 + r.nextInt(3);
        long[] sizes = new long[dims];
        long[] sub = new long[dims];
        long[] starts = new long[dims];
        for (int d = 0; d < dims; d++) {
            sizes[d] = 2 + r.nextInt(dims == 2 ? 200 : dims == 3 ? 48 : 16);
            sub[d] = 1 + r.nextInt((int) sizes[d]);
            starts[d] = r.nextInt((int) (sizes[d] - sub[d] + 1));
        }
        return Datatype.subarray(sizes, sub, starts, r.nextBoolean() ? Order.C : Order.F, e);
    }

    /** Two to four fields of separate arrays (a strided face of each) in one struct, as a halo of several variables. */
    private static Datatype fields(Random r) {
        int n = 2 + r.nextInt(3);
        long[] ones = new long[n];
        long[] disps = new long[n];
        List<Datatype> members = new ArrayList<>();
        long at = 0;
        for (int i = 0; i < n; i++) {
            Primitive e = r.nextBoolean() ? Primitive.FLOAT64 : Primitive.FLOAT32;
            long w = 1 + r.nextInt(4);
            Datatype face = Datatype.vector(8 + r.nextInt(120), w, w + 1 + r.nextInt(64), e);
            ones[i] = 1;
            disps[i] = at;
            members.add(face);
            at += face.extent() + 64L * r.nextInt(8);
        }
        return Datatype.struct(ones, disps, members);
    }

    /** One process's part of a 2-D array distributed block-cyclically (ScaLAPACK) or in blocks. */
    private static Datatype blockCyclic(Random r, Datatype e) {
        long[] grid = {1 + r.nextInt(4), 1 + r.nextInt(3)};
        long[] sizes = {grid[0] * (4 + r.nextInt(60)), grid[1] * (4 + r.nextInt(60))};
        Distribution[] dist = new Distribution[2];
        long[] dargs = new long[2];
        for (int d = 0; d < 2; d++) {
            dist[d] = r.nextBoolean() ? Distribution.CYCLIC : Distribution.BLOCK;
            dargs[d] = dist[d] == Distribution.CYCLIC ? 1 + r.nextInt(4) : Datatype.DEFAULT_DARG;
        }
        long procs = grid[0] * grid[1];
        return Datatype.darray(
                procs, r.nextInt((int) procs), sizes, dist, dargs, grid, r.nextBoolean() ? Order.C : Order.F, e);
    }

    /** Rows of varying lengths (1 to 16 elements) at increasing offsets: the nonzeros a sparse matrix keeps per row. */
    private static Datatype sparseRows(Random r, Primitive e) {
        int n = 4 + r.nextInt(120);
        long[] lens = new long[n];
        long[] disps = new long[n];
        long at = 0;
        for (int i = 0; i < n; i++) {
            lens[i] = 1 + r.nextInt(16);
            disps[i] = at + r.nextInt(8);
            at = disps[i] + lens[i] + r.nextInt(24);
        }
        return Datatype.indexed(lens, disps, e);
    }

    /** About {@code n / every} sorted distinct indices below {@code n}. */
    private static long[] sortedSubset(Random r, int n, int every) {
        long[] out = new long[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (r.nextInt(every) == 0) {
                out[k++] = i;
            }
        }
        return Arrays.copyOf(out, Math.max(1, k));
    }
}
