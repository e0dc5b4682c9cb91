package dev.layout.dataloop;

import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
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
        return packed(type, count, Representation.NATIVE, Memory.ofArray(src), origin);
    }

    /** Packs into {@code dst} at {@code dstOffset}; returns the bytes written. */
    public static long pack(Datatype type, long count, Memory src, long origin, Memory dst, long dstOffset) {
        return move(type, count, Representation.NATIVE, src, origin, dst, dstOffset, true);
    }

    /** Unpacks {@code byteSize * count} bytes from {@code packed} into {@code count} elements at {@code dst[origin]}. */
    public static long unpack(Datatype type, long count, Memory packed, long packedOffset, Memory dst, long origin) {
        return move(type, count, Representation.NATIVE, dst, origin, packed, packedOffset, false);
    }

    public static void unpack(Datatype type, long count, byte[] packed, byte[] dst, long origin) {
        unpack(type, count, Memory.ofArray(packed), 0, Memory.ofArray(dst), origin);
    }

    /** {@code MPI_Pack_external("external32", ...)}. */
    public static byte[] packExternal32(Datatype type, long count, byte[] src, long origin) {
        return packed(type, count, Representation.EXTERNAL32, Memory.ofArray(src), origin);
    }

    /** {@code MPI_Unpack_external("external32", ...)}. */
    public static long unpackExternal32(
            Datatype type, long count, Memory packed, long packedOffset, Memory dst, long origin) {
        return move(type, count, Representation.EXTERNAL32, dst, origin, packed, packedOffset, false);
    }

    private static byte[] packed(Datatype type, long count, Representation rep, Memory src, long origin) {
        Segment s = ThreadSegments.take(type, count, rep, src, origin); // a repeated call allocates nothing
        try {
            if (s.byteSize() > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(
                        "pack: " + s.byteSize() + " packed bytes (expected: < 2 GiB to return an array)");
            }
            byte[] out = new byte[(int) s.byteSize()];
            s.pack(Memory.ofArray(out), 0, out.length);
            return out;
        } finally {
            ThreadSegments.give(s);
        }
    }

    /** All of {@code count} elements between {@code user} and {@code packed}. */
    private static long move(
            Datatype type,
            long count,
            Representation rep,
            Memory user,
            long origin,
            Memory packed,
            long packedOffset,
            boolean pack) {
        Segment s = ThreadSegments.take(type, count, rep, user, origin);
        try {
            return pack ? s.pack(packed, packedOffset, s.byteSize()) : s.unpack(packed, packedOffset, s.byteSize());
        } finally {
            ThreadSegments.give(s);
        }
    }

    /** All contiguous runs of {@code count} elements in pack order, adjacent runs merged, offsets from the origin. */
    public static List<Piece> flatten(Datatype type, long count) {
        return Segment.layout(type, count).flatten(Integer.MAX_VALUE);
    }
}
