package dev.layout.transport;

import dev.layout.dataloop.Segment;
import dev.layout.dataloop.ThreadSegments;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;

/**
 * Bytes {@code [from, from + length)} of the packed stream of {@code count} elements of {@code
 * type} whose origin is byte {@code origin} of {@code memory}: where a typed message comes from or
 * goes to, without packing it. {@link #copy} moves one region into another with one pass of the
 * datatype engine, which is how a same-JVM sender fills a receiver's posted buffer ({@link
 * Transport#postReceive}).
 *
 * <p>A region is an immutable description: each operation walks it with a segment of its thread's
 * ({@link ThreadSegments}), so a repeated copy or pack makes no new segment.
 */
public final class TypedRegion {
    private final Memory memory;
    private final Datatype type;
    private final long count;
    private final long origin;
    private final long from;
    private final int length;

    private TypedRegion(Memory memory, Datatype type, long count, long origin, long from, long length) {
        this.memory = memory;
        this.type = type;
        this.count = count;
        this.origin = origin;
        long size = packedSize(memory, type, count, origin); // checks the footprint against the memory
        if (from < 0 || length < 0 || from > size - length) {
            throw new IllegalArgumentException("typedRegion: bytes [" + from + ", " + (from + length)
                    + ") (expected: in [0, " + size + ") of " + type + " x " + count + ")");
        }
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "typedRegion: length " + length + " (expected: <= " + (Integer.MAX_VALUE - 8) + " per message)");
        }
        this.from = from;
        this.length = (int) length;
    }

    /**
     * The whole packed stream of {@code count} elements of {@code type} at {@code origin} of {@code memory}.
     *
     * @throws NullPointerException if memory or type is null
     * @throws IllegalArgumentException or IndexOutOfBoundsException if the elements do not fit the memory
     */
    public static TypedRegion of(Memory memory, Datatype type, long count, long origin) {
        return new TypedRegion(memory, type, count, origin, 0, packedSize(memory, type, count, origin));
    }

    /** Bytes {@code [from, to)} of the packed stream of {@code count} elements (see the class comment). */
    public static TypedRegion range(Memory memory, Datatype type, long count, long origin, long from, long to) {
        return new TypedRegion(memory, type, count, origin, from, to - from);
    }

    /** All of a byte array: one contiguous run. */
    public static TypedRegion ofArray(byte[] bytes) {
        return of(Memory.ofArray(bytes), dev.layout.datatype.Primitive.BYTE, bytes.length, 0);
    }

    /** The number of packed bytes in this region. */
    public int length() {
        return length;
    }

    /** This region's bytes as a new array. */
    public byte[] pack() {
        byte[] out = new byte[length];
        Segment s = segment();
        try {
            s.seek(from);
            s.pack(Memory.ofArray(out), 0, length);
        } finally {
            ThreadSegments.give(s);
        }
        return out;
    }

    /** Writes {@code data} (exactly {@link #length()} bytes) into this region's memory. */
    public void unpack(byte[] data) {
        if (data.length != length) {
            throw new IllegalArgumentException(
                    "typedRegion: data length " + data.length + " (expected: " + length + ")");
        }
        Segment s = segment();
        try {
            s.seek(from);
            s.unpack(Memory.ofArray(data), 0, length);
        } finally {
            ThreadSegments.give(s);
        }
    }

    /**
     * Copies {@code src} into {@code dst} (regions of equal length) with one engine pass: a
     * contiguous side is the packed buffer of the other side's pack or unpack; otherwise each
     * contiguous run of the source is unpacked into the destination.
     *
     * @throws IllegalArgumentException if the lengths differ
     */
    public static void copy(TypedRegion src, TypedRegion dst) {
        if (src.length != dst.length) {
            throw new IllegalArgumentException("typedRegion: copy of " + src.length + " bytes into a region of "
                    + dst.length + " (expected: equal lengths)");
        }
        if (src.length == 0) {
            return;
        }
        Segment s = dst.contiguous() || !src.contiguous() ? src.segment() : null;
        Segment d = dst.contiguous() ? null : dst.segment();
        try {
            if (d == null) {
                s.seek(src.from);
                s.pack(dst.memory, dst.start(), dst.length);
            } else if (s == null) {
                d.seek(dst.from);
                d.unpack(src.memory, src.start(), src.length);
            } else {
                s.seek(src.from);
                d.seek(dst.from);
                long base = src.origin;
                s.process((offset, len, stream) -> d.unpack(src.memory, base + offset, len), src.length);
            }
        } finally {
            if (s != null) {
                ThreadSegments.give(s);
            }
            if (d != null) {
                ThreadSegments.give(d);
            }
        }
    }

    /** A segment of this thread's over the region's elements (given back by the caller). */
    private Segment segment() {
        return ThreadSegments.take(type, count, memory, origin);
    }

    /** The packed bytes of {@code count} elements of {@code type}, once their footprint is checked against the memory. */
    private static long packedSize(Memory memory, Datatype type, long count, long origin) {
        Segment s = ThreadSegments.take(type, count, memory, origin);
        ThreadSegments.give(s);
        return s.byteSize();
    }

    /** Whether the packed stream lies in memory as it is: bytes {@code [lb, lb + byteSize * count)} from the origin. */
    private boolean contiguous() {
        return type.isContiguous() && (count <= 1 || type.extent() == type.byteSize());
    }

    /** The memory offset of this region's first byte, for a contiguous region. */
    private long start() {
        return origin + type.lb() + from;
    }

    @Override
    public String toString() {
        return "bytes [" + from + ", " + (from + length) + ") of " + type + " x " + count + " at " + origin;
    }
}
