package dev.layout.arrow;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;

/**
 * Pack and unpack between the data of fixed-width Arrow vectors and packed byte streams, through
 * the engine and without intermediate copies ({@code ArrowBuf} addresses are used directly).
 * Origins are byte offsets into the vector's data ({@code element index * typeWidth}).
 *
 * <pre>{@code
 * Datatype col = VectorRegions.column(Primitive.FLOAT64, 4, 4, 1);
 * byte[] packed = VectorPacking.pack(vector, col, 1, 0);       // 4 doubles
 * VectorPacking.unpack(packed, 0, other, col, 1, 0);           // into the same column of other
 * }</pre>
 *
 * <p>Only data bytes move; validity buffers are untouched. Use {@link #dense} for arrays without
 * nulls (every validity bit set), which is what grids and file views want.
 */
public final class VectorPacking {
    private VectorPacking() {}

    /** Packs {@code count} elements of {@code type} at byte {@code origin} of the vector's data into a new array. */
    public static byte[] pack(BaseFixedWidthVector src, Datatype type, long count, long origin) {
        Segment s = Segment.of(type, count, ArrowMemory.ofData(src), origin);
        byte[] out = new byte[Math.toIntExact(s.byteSize())];
        s.pack(Memory.ofArray(out), 0, out.length);
        return out;
    }

    /** Packs into {@code dst} at {@code dstOffset}; returns the bytes written ({@code type.byteSize() * count}). */
    public static long pack(
            BaseFixedWidthVector src, Datatype type, long count, long origin, Memory dst, long dstOffset) {
        Segment s = Segment.of(type, count, ArrowMemory.ofData(src), origin);
        return s.pack(dst, dstOffset, s.byteSize());
    }

    /** Packs into an Arrow buffer at {@code dstOffset}; returns the bytes written. */
    public static long pack(
            BaseFixedWidthVector src, Datatype type, long count, long origin, ArrowBuf dst, long dstOffset) {
        return pack(src, type, count, origin, ArrowMemory.of(dst), dstOffset);
    }

    /** Unpacks {@code type.byteSize() * count} bytes of {@code packed} at {@code packedOffset} into the vector's data. */
    public static long unpack(
            Memory packed, long packedOffset, BaseFixedWidthVector dst, Datatype type, long count, long origin) {
        Objects.requireNonNull(packed, "unpack: packed is null");
        Segment s = Segment.of(type, count, ArrowMemory.ofData(dst), origin);
        return s.unpack(packed, packedOffset, s.byteSize());
    }

    public static long unpack(
            byte[] packed, long packedOffset, BaseFixedWidthVector dst, Datatype type, long count, long origin) {
        Objects.requireNonNull(packed, "unpack: packed is null");
        return unpack(Memory.ofArray(packed), packedOffset, dst, type, count, origin);
    }

    public static long unpack(
            ArrowBuf packed, long packedOffset, BaseFixedWidthVector dst, Datatype type, long count, long origin) {
        return unpack(ArrowMemory.of(packed), packedOffset, dst, type, count, origin);
    }

    /**
     * A new vector of {@code valueCount} zeros, every value non-null, value count set: a dense array
     * ready for regions, packing and unpacking. The caller closes it.
     *
     * @throws IllegalArgumentException if {@code valueCount < 0} or the primitive is {@code byte}
     */
    public static BaseFixedWidthVector dense(
            BufferAllocator allocator, String name, Primitive primitive, int valueCount) {
        Objects.requireNonNull(allocator, "dense: allocator is null");
        Objects.requireNonNull(name, "dense: name is null");
        Objects.requireNonNull(primitive, "dense: primitive is null");
        if (valueCount < 0) {
            throw new IllegalArgumentException("dense: valueCount " + valueCount + " (expected: >= 0)");
        }
        BaseFixedWidthVector v =
                switch (primitive) {
                    case FLOAT64 -> new Float8Vector(name, allocator);
                    case FLOAT32 -> new Float4Vector(name, allocator);
                    case INT64 -> new BigIntVector(name, allocator);
                    case INT32 -> new IntVector(name, allocator);
                    case INT16 -> new SmallIntVector(name, allocator);
                    case INT8 -> new TinyIntVector(name, allocator);
                    case UINT8 -> new UInt1Vector(name, allocator);
                    case UINT16 -> new UInt2Vector(name, allocator);
                    case UINT32 -> new UInt4Vector(name, allocator);
                    case UINT64 -> new UInt8Vector(name, allocator);
                    case BYTE ->
                        throw new IllegalArgumentException(
                                "dense: primitive byte (expected: a typed primitive; use int8 or uint8)");
                };
        try {
            v.allocateNew(valueCount);
            v.getDataBuffer().setZero(0, v.getDataBuffer().capacity());
            v.getValidityBuffer().setOne(0, v.getValidityBuffer().capacity());
            v.setValueCount(valueCount);
            return v;
        } catch (RuntimeException e) {
            v.close();
            throw e;
        }
    }

    /** {@link #dense} for {@code float64}. */
    public static Float8Vector denseFloat8(BufferAllocator allocator, String name, int valueCount) {
        return (Float8Vector) dense(allocator, name, Primitive.FLOAT64, valueCount);
    }
}
