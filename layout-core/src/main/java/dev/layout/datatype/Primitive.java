package dev.layout.datatype;

import java.util.List;

/**
 * The predefined (basic) datatypes of the layout notation. Each is its own contiguous type map
 * {@code {(primitive, 0)}} with lb 0 and extent equal to its size; natively little-endian.
 */
public enum Primitive implements Datatype {
    BYTE("byte", 1),
    INT8("int8", 1),
    INT16("int16", 2),
    INT32("int32", 4),
    INT64("int64", 8),
    UINT8("uint8", 1),
    UINT16("uint16", 2),
    UINT32("uint32", 4),
    UINT64("uint64", 8),
    FLOAT32("float32", 4),
    FLOAT64("float64", 8);

    private final String notationName;
    private final int byteSize;

    Primitive(String notationName, int byteSize) {
        this.notationName = notationName;
        this.byteSize = byteSize;
    }

    /** The lower-case name used by the layout notation, e.g. {@code float64}. */
    public String notationName() {
        return notationName;
    }

    /** Returns the primitive named {@code name} in the notation, or null if none. */
    public static Primitive forNotationName(String name) {
        for (Primitive p : values()) {
            if (p.notationName.equals(name)) {
                return p;
            }
        }
        return null;
    }

    /**
     * The size of the unit that external32 byte-swaps: 1 for {@code byte} (never swapped) and the
     * one-byte integers, otherwise the primitive's size.
     */
    public int swapUnit() {
        return byteSize;
    }

    /** Same storage class up to signedness ({@code byte}={@code int8}={@code uint8}, ...), as MPICH compares. */
    public boolean sameUpToSignedness(Primitive other) {
        return signless() == other.signless();
    }

    private int signless() {
        return switch (this) {
            case BYTE, INT8, UINT8 -> 1;
            case INT16, UINT16 -> 2;
            case INT32, UINT32 -> 4;
            case INT64, UINT64 -> 8;
            case FLOAT32 -> 40;
            case FLOAT64 -> 80;
        };
    }

    @Override
    public Combiner combiner() {
        return Combiner.NAMED;
    }

    @Override
    public Envelope envelope() {
        return new Envelope(Combiner.NAMED, List.of(), List.of(), List.of());
    }

    @Override
    public long byteSize() {
        return byteSize;
    }

    @Override
    public long lb() {
        return 0;
    }

    @Override
    public long ub() {
        return byteSize;
    }

    @Override
    public long trueLb() {
        return 0;
    }

    @Override
    public long trueUb() {
        return byteSize;
    }

    @Override
    public boolean hasExplicitBounds() {
        return false;
    }

    @Override
    public int alignment() {
        return byteSize;
    }

    @Override
    public Primitive homogeneousPrimitive() {
        return this;
    }

    @Override
    public boolean isContiguous() {
        return true;
    }

    @Override
    public boolean isDense() {
        return true;
    }

    @Override
    public int depth() {
        return 0;
    }

    @Override
    public String toString() {
        return notationName;
    }
}
