package dev.layout.collective;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The predefined reduction operations of the datatype-based collectives ({@code MPI_SUM}, {@code
 * MPI_MAX}, ...), independent of the element type. The collectives pack each operand with its
 * datatype and apply the operation element-wise to the packed stream, so the datatype must have a
 * homogeneous primitive signature ({@link Datatype#homogeneousPrimitive()}); the implementation
 * is chosen per primitive by {@link #on(Primitive)}.
 *
 * <pre>{@code
 * Datatype column = Datatype.vector(4, 1, 6, Primitive.FLOAT64);   // a strided float64 column
 * coll.allreduce(BlockSpec.of(a, 8, 1, column), BlockSpec.of(b, 8, 1, column), Reduction.SUM);
 * Reduction.MAX.on(Primitive.INT32).combine(acc, next);           // the int32 max of two streams
 * }</pre>
 *
 * <p>Integer sums and products wrap around (two's complement, as in C); MIN and MAX compare
 * unsigned primitives as unsigned; the bitwise operations take integer primitives and {@code
 * byte} only; floating-point MIN and MAX follow {@link Math#min(double, double)}.
 */
public enum Reduction {
    SUM,
    PROD,
    MIN,
    MAX,
    BAND,
    BOR,
    BXOR;

    /**
     * The operation on little-endian elements of {@code primitive}.
     *
     * @throws IllegalArgumentException for a bitwise operation on a floating-point primitive, or an
     *     arithmetic one on {@code byte}
     */
    public ReduceOp on(Primitive primitive) {
        if (primitive == null) {
            throw new IllegalArgumentException("reduction: primitive null (expected: a Primitive)");
        }
        boolean bitwise = this == BAND || this == BOR || this == BXOR;
        boolean floating = primitive == Primitive.FLOAT32 || primitive == Primitive.FLOAT64;
        if (bitwise && floating) {
            throw new IllegalArgumentException("reduction: primitive " + primitive.notationName() + " for " + this
                    + " (expected: an integer primitive or byte)");
        }
        if (!bitwise && primitive == Primitive.BYTE) {
            throw new IllegalArgumentException("reduction: primitive byte for " + this
                    + " (expected: a numeric primitive; byte takes BAND, BOR, BXOR)");
        }
        return new PrimitiveOp(this, primitive);
    }

    /**
     * The operation for operands described by {@code datatype}, named {@code op} in errors.
     *
     * @throws IllegalArgumentException if the datatype mixes primitives or has no data, or {@link
     *     #on} refuses its primitive
     */
    ReduceOp forDatatype(String op, String arg, Datatype datatype) {
        Primitive p = datatype.homogeneousPrimitive();
        if (p == null) {
            throw new IllegalArgumentException(
                    op + ": " + arg + " datatype " + datatype + " (expected: a homogeneous primitive signature)");
        }
        try {
            return on(p);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    op + ": " + arg + " datatype " + datatype + " for " + this
                            + " (expected: "
                            + (this == BAND || this == BOR || this == BXOR ? "integer or byte" : "numeric")
                            + " elements)",
                    e);
        }
    }

    /** One reduction on one primitive, over little-endian packed streams. */
    private record PrimitiveOp(Reduction reduction, Primitive primitive) implements ReduceOp {

        @Override
        public int elementByteSize() {
            return (int) primitive.byteSize();
        }

        @Override
        public boolean isCommutative() {
            return true;
        }

        @Override
        public void combine(byte[] accumulator, byte[] next) {
            if (accumulator.length != next.length) {
                throw new IllegalArgumentException(reduction.name().toLowerCase() + ": operand length " + next.length
                        + " (expected: " + accumulator.length + ")");
            }
            ByteBuffer acc = ByteBuffer.wrap(accumulator).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer in = ByteBuffer.wrap(next).order(ByteOrder.LITTLE_ENDIAN);
            int size = elementByteSize();
            for (int off = 0; off + size <= accumulator.length; off += size) {
                switch (primitive) {
                    case FLOAT64 -> acc.putDouble(off, real(acc.getDouble(off), in.getDouble(off)));
                    case FLOAT32 -> acc.putFloat(off, (float) real(acc.getFloat(off), in.getFloat(off)));
                    case INT64, UINT64 ->
                        acc.putLong(off, integer(acc.getLong(off), in.getLong(off), primitive == Primitive.UINT64));
                    case INT32 -> acc.putInt(off, (int) integer(acc.getInt(off), in.getInt(off), false));
                    case UINT32 ->
                        acc.putInt(off, (int) integer(
                                Integer.toUnsignedLong(acc.getInt(off)),
                                Integer.toUnsignedLong(in.getInt(off)),
                                false));
                    case INT16 -> acc.putShort(off, (short) integer(acc.getShort(off), in.getShort(off), false));
                    case UINT16 ->
                        acc.putShort(
                                off, (short) integer(acc.getShort(off) & 0xffff, in.getShort(off) & 0xffff, false));
                    case INT8 -> acc.put(off, (byte) integer(acc.get(off), in.get(off), false));
                    case UINT8, BYTE -> acc.put(off, (byte) integer(acc.get(off) & 0xff, in.get(off) & 0xff, false));
                }
            }
        }

        private double real(double a, double b) {
            return switch (reduction) {
                case SUM -> a + b;
                case PROD -> a * b;
                case MIN -> Math.min(a, b);
                case MAX -> Math.max(a, b);
                default -> throw new IllegalStateException(reduction + " on " + primitive);
            };
        }

        /** Values of narrower unsigned types arrive zero-extended, so signed comparison is right for them. */
        private long integer(long a, long b, boolean unsigned64) {
            return switch (reduction) {
                case SUM -> a + b;
                case PROD -> a * b;
                case MIN -> (unsigned64 ? Long.compareUnsigned(a, b) : Long.compare(a, b)) <= 0 ? a : b;
                case MAX -> (unsigned64 ? Long.compareUnsigned(a, b) : Long.compare(a, b)) >= 0 ? a : b;
                case BAND -> a & b;
                case BOR -> a | b;
                case BXOR -> a ^ b;
            };
        }

        @Override
        public String toString() {
            return reduction.name().toLowerCase() + "(" + primitive.notationName() + ")";
        }
    }
}
