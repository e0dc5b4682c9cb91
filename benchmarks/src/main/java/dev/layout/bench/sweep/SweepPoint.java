package dev.layout.bench.sweep;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One layout of the sweep: a shape of blocks of {@code blockBytes} (made of elements of {@code
 * elemBytes}) whose starts are {@code stride} bytes apart, {@code count} instances of a type of
 * {@code blocksPerType} blocks. The native program builds the same type from the same numbers
 * ({@link #nativeLine}), so both sides move the same bytes to the same places.
 *
 * <ul>
 *   <li>{@code VECTOR}: {@code vector(blocksPerType, b, stride/e, T)}, count 1.
 *   <li>{@code HVECTOR}: {@code hvector(rows, 1, (ROW + 1) * stride, vector(ROW, b, stride/e, T))}: rows
 *       of {@link #ROW} blocks with one block's gap between rows.
 *   <li>{@code INDEXED_BLOCK}: {@code indexed_block(b, perm, T)}, block i at slot {@code perm[i]} of
 *       slots {@code stride} apart ({@link #permutation}, seeded); {@code count} instances.
 *   <li>{@code STRUCT}: {@code resized(0, stride, struct(...))}, a record of {@code blockBytes} made of
 *       float64, int32 and int8 members in a row; {@code count} records.
 * </ul>
 */
public record SweepPoint(Shape shape, int elemBytes, long blockBytes, long stride, long blocksPerType, long count) {
    /** The sweep's shapes. */
    public enum Shape {
        VECTOR,
        HVECTOR,
        INDEXED_BLOCK,
        STRUCT;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Blocks per row of an {@code HVECTOR}. */
    public static final int ROW = 16;

    /** The seed of the indexed_block permutations (the same in {@code sweep.c}). */
    public static final long SEED = 0x5eedL;

    public SweepPoint {
        if (blockBytes % elemBytes != 0 || stride % elemBytes != 0 || stride <= blockBytes) {
            throw new IllegalArgumentException("sweep point: block " + blockBytes + " stride " + stride + " element "
                    + elemBytes + " (expected: block and stride multiples of the element, stride > block)");
        }
    }

    /** Packed bytes of the whole operation. */
    public long packedBytes() {
        return blockBytes * blocksPerType * count;
    }

    /** Bytes of user memory the operation spans (from its lowest byte). */
    public long userBytes() {
        return switch (shape) {
            case VECTOR, INDEXED_BLOCK, STRUCT -> blocksPerType * count * stride;
            case HVECTOR -> blocksPerType / ROW * (ROW + 1) * stride;
        };
    }

    /** Short name, e.g. {@code vector w12 s16 e4 1MiB}. */
    public String label() {
        return shape.label() + " w" + blockBytes + " s" + stride + " e" + elemBytes + " " + size(packedBytes());
    }

    /** Which stride class the point belongs to (a line of the chart). */
    public String strideClass() {
        if (stride == blockBytes + elemBytes) {
            return "just above";
        }
        if (stride == 4 * blockBytes) {
            return "4x block";
        }
        return "64 KiB";
    }

    static String size(long bytes) {
        if (bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + "MiB";
        }
        if (bytes % 1024 == 0) {
            return bytes / 1024 + "KiB";
        }
        return bytes + "B";
    }

    Primitive element() {
        return switch (elemBytes) {
            case 1 -> Primitive.INT8;
            case 4 -> Primitive.FLOAT32;
            case 8 -> Primitive.FLOAT64;
            default -> throw new IllegalStateException("sweep point: element " + elemBytes);
        };
    }

    /** The datatype of one instance (use with {@link #count}). */
    public Datatype type() {
        Primitive t = element();
        long b = blockBytes / elemBytes;
        long s = stride / elemBytes;
        return switch (shape) {
            case VECTOR -> Datatype.vector(blocksPerType, b, s, t);
            case HVECTOR -> Datatype.hvector(blocksPerType / ROW, 1, (ROW + 1) * stride, Datatype.vector(ROW, b, s, t));
            case INDEXED_BLOCK -> {
                long[] d = permutation((int) blocksPerType, SEED);
                for (int i = 0; i < d.length; i++) {
                    d[i] *= s;
                }
                yield Datatype.indexedBlock(b, d, t);
            }
            case STRUCT -> {
                long[] m = members(blockBytes);
                List<Datatype> types = new ArrayList<>();
                List<Long> lens = new ArrayList<>();
                List<Long> disps = new ArrayList<>();
                long at = 0;
                Primitive[] kinds = {Primitive.FLOAT64, Primitive.INT32, Primitive.INT8};
                for (int k = 0; k < 3; k++) {
                    if (m[k] > 0) {
                        types.add(kinds[k]);
                        lens.add(m[k] / kinds[k].byteSize());
                        disps.add(at);
                        at += m[k];
                    }
                }
                yield Datatype.resized(
                        0,
                        stride,
                        Datatype.struct(
                                lens.stream().mapToLong(Long::longValue).toArray(),
                                disps.stream().mapToLong(Long::longValue).toArray(),
                                types));
            }
        };
    }

    /** A struct record's float64, int32 and int8 member bytes, in that order, summing to {@code bytes}. */
    static long[] members(long bytes) {
        long f = bytes / 16 * 8;
        long i = (bytes - f) / 8 * 4;
        return new long[] {f, i, bytes - f - i};
    }

    /**
     * A permutation of {@code 0..n-1}: Fisher-Yates driven by splitmix64 from {@code seed}, index
     * {@code j = unsigned(next) mod (i + 1)}; {@code sweep.c} computes the same one.
     */
    static long[] permutation(int n, long seed) {
        long[] p = new long[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        long x = seed;
        for (int i = n - 1; i > 0; i--) {
            x += 0x9E3779B97F4A7C15L;
            long z = x;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z ^= z >>> 31;
            int j = (int) Long.remainderUnsigned(z, i + 1);
            long tmp = p[i];
            p[i] = p[j];
            p[j] = tmp;
        }
        return p;
    }

    /** The point as a line for {@code sweep.c}: {@code shape elemBytes blockBytes stride blocksPerType count}. */
    public String nativeLine() {
        return shape.ordinal() + " " + elemBytes + " " + blockBytes + " " + stride + " " + blocksPerType + " " + count;
    }
}
