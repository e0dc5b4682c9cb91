package dev.layout.collective;

/** Folds reduction operands in the order they are added; untouched result when nothing was added. */
final class Fold {
    private final String op;
    private final ReduceOp rop;
    private final int length;
    private byte[] acc;

    Fold(String op, ReduceOp rop, int length) {
        this.op = op;
        this.rop = rop;
        this.length = length;
    }

    void add(byte[] operand, int from) {
        if (operand.length != length) {
            throw new IllegalArgumentException(op + ": operand from rank " + from + " has " + operand.length
                    + " bytes (expected: " + length + ")");
        }
        if (acc == null) {
            acc = operand.clone();
        } else {
            rop.combine(acc, operand);
        }
    }

    /** Writes the result into recv; leaves it untouched when nothing was added. */
    void writeTo(Block recv) {
        if (acc != null) {
            recv.unpack(acc);
        }
    }

    /** The result (requires at least one operand). */
    byte[] result() {
        if (acc == null) {
            throw new IllegalStateException(op + ": no operand to reduce");
        }
        return acc;
    }
}
