package dev.layout.dataloop;

import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.util.List;
import java.util.Objects;

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

    /**
     * Per thread, the segments of its last few calls, re-aimed when a call moves the same count of the
     * same type: a repeated pack or unpack between memories allocates nothing. A segment serves only its
     * own thread and lets go of the memories when the call returns.
     */
    private static final ThreadLocal<Segment[]> RECENT = ThreadLocal.withInitial(() -> new Segment[4]);

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

    public static long packExternal32(Datatype type, long count, Memory src, long origin, Memory dst, long dstOffset) {
        return move(type, count, Representation.EXTERNAL32, src, origin, dst, dstOffset, true);
    }

    /** {@code MPI_Unpack_external("external32", ...)}. */
    public static long unpackExternal32(
            Datatype type, long count, Memory packed, long packedOffset, Memory dst, long origin) {
        return move(type, count, Representation.EXTERNAL32, dst, origin, packed, packedOffset, false);
    }

    private static byte[] packed(Datatype type, long count, Representation rep, Memory src, long origin) {
        Segment s = segment(type, count, rep, src, origin);
        try {
            if (s.byteSize() > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(
                        "pack: " + s.byteSize() + " packed bytes (expected: < 2 GiB to return an array)");
            }
            byte[] out = new byte[(int) s.byteSize()];
            s.pack(Memory.ofArray(out), 0, out.length);
            return out;
        } finally {
            s.release();
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
        Segment s = segment(type, count, rep, user, origin);
        try {
            return pack ? s.pack(packed, packedOffset, s.byteSize()) : s.unpack(packed, packedOffset, s.byteSize());
        } finally {
            s.release();
        }
    }

    /** A segment of this thread's for the operation: one of its recent ones re-aimed, or a new one. */
    private static Segment segment(Datatype type, long count, Representation rep, Memory user, long origin) {
        Objects.requireNonNull(user, Segment.USER_NULL);
        Segment[] recent = RECENT.get();
        for (Segment s : recent) {
            if (s != null && s.serves(type, count, rep)) {
                s.aim(user, origin);
                return s;
            }
        }
        Segment s = new Segment(type, count, rep, user, origin);
        System.arraycopy(recent, 0, recent, 1, recent.length - 1);
        recent[0] = s;
        return s;
    }

    /** All contiguous runs of {@code count} elements in pack order, adjacent runs merged, offsets from the origin. */
    public static List<Piece> flatten(Datatype type, long count) {
        return Segment.layout(type, count).flatten(Integer.MAX_VALUE);
    }
}
