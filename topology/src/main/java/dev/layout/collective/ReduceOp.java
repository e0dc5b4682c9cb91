package dev.layout.collective;

/**
 * A reduction operator on byte blocks holding little-endian elements. {@link StandardOp} has the
 * predefined ones; layout-core datatypes may add others.
 */
public interface ReduceOp {

    /** Bytes per element; block lengths must be multiples of it. */
    int elementByteSize();

    /** Whether operand order does not matter. */
    boolean isCommutative();

    /**
     * {@code accumulator[i] = accumulator[i] op next[i]} for every element; {@code accumulator} holds
     * the earlier operand.
     */
    void combine(byte[] accumulator, byte[] next);
}
