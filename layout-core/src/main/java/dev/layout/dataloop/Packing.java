package dev.layout.dataloop;

import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.util.ArrayList;
import java.util.List;

/**
 * One-call forms of the engine ({@code MPI_Pack}, {@code MPI_Unpack}, {@code MPI_Pack_external},
 * flattening) for when no partial processing is needed.
 *
 * <pre>{@code
 * byte[] packed = Packing.pack(Datatype.vector(4, 1, 4, Primitive.FLOAT32), 1, matrix, 0);
 * }</pre>
 */
public final class Packing {
    private Packing() {}

    /** Packs {@code count} elements whose origin is {@code src[origin]}; returns {@code byteSize * count} bytes. */
    public static byte[] pack(Datatype type, long count, byte[] src, long origin) {
        Segment s = Segment.of(type, count, Memory.ofArray(src), origin);
        byte[] out = new byte[Math.toIntExact(s.byteSize())];
        s.pack(Memory.ofArray(out), 0, out.length);
        return out;
    }

    /** Packs into {@code dst} at {@code dstOffset}; returns the bytes written. */
    public static long pack(Datatype type, long count, Memory src, long origin, Memory dst, long dstOffset) {
        Segment s = Segment.of(type, count, src, origin);
        return s.pack(dst, dstOffset, s.byteSize());
    }

    /** Unpacks {@code byteSize * count} bytes from {@code packed} into {@code count} elements at {@code dst[origin]}. */
    public static long unpack(Datatype type, long count, Memory packed, long packedOffset, Memory dst, long origin) {
        Segment s = Segment.of(type, count, dst, origin);
        return s.unpack(packed, packedOffset, s.byteSize());
    }

    public static void unpack(Datatype type, long count, byte[] packed, byte[] dst, long origin) {
        unpack(type, count, Memory.ofArray(packed), 0, Memory.ofArray(dst), origin);
    }

    /** {@code MPI_Pack_external("external32", ...)}. */
    public static byte[] packExternal32(Datatype type, long count, byte[] src, long origin) {
        Segment s = Segment.external32(type, count, Memory.ofArray(src), origin);
        byte[] out = new byte[Math.toIntExact(s.byteSize())];
        s.pack(Memory.ofArray(out), 0, out.length);
        return out;
    }

    public static long packExternal32(Datatype type, long count, Memory src, long origin, Memory dst, long dstOffset) {
        Segment s = Segment.external32(type, count, src, origin);
        return s.pack(dst, dstOffset, s.byteSize());
    }

    /** {@code MPI_Unpack_external("external32", ...)}. */
    public static long unpackExternal32(
            Datatype type, long count, Memory packed, long packedOffset, Memory dst, long origin) {
        Segment s = Segment.external32(type, count, dst, origin);
        return s.unpack(packed, packedOffset, s.byteSize());
    }

    /** All contiguous runs of {@code count} elements in pack order, adjacent runs merged, offsets from the origin. */
    public static List<Piece> flatten(Datatype type, long count) {
        Segment s = Segment.layout(type, count);
        List<Piece> all = new ArrayList<>();
        while (s.remaining() > 0) {
            List<Piece> next = s.flatten(1 << 16);
            if (!all.isEmpty() && !next.isEmpty()) {
                Piece last = all.get(all.size() - 1);
                Piece first = next.get(0);
                if (last.offset() + last.length() == first.offset()) {
                    all.set(all.size() - 1, new Piece(last.offset(), last.length() + first.length()));
                    next = next.subList(1, next.size());
                }
            }
            all.addAll(next);
        }
        return all;
    }
}
