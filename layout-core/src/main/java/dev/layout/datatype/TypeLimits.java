package dev.layout.datatype;

/**
 * Limits every factory and the parser check, so that hostile descriptions fail with a clear
 * {@link LayoutLimitException} instead of exhausting memory or the stack.
 */
public final class TypeLimits {
    private TypeLimits() {}

    /** Deepest nesting of constructors (config key {@code layout.type.maxDepth}). */
    public static final int MAX_DEPTH = Integer.getInteger("layout.type.maxDepth", 256);

    /** Longest list argument: blocklengths, displacements, struct members, dimensions ({@code layout.type.maxListLength}). */
    public static final int MAX_LIST_LENGTH = Integer.getInteger("layout.type.maxListLength", 1 << 26);

    /** Most dimensions of a subarray or darray ({@code layout.type.maxDims}). */
    public static final int MAX_DIMS = Integer.getInteger("layout.type.maxDims", 64);

    static void checkDepth(String op, int depth) {
        if (depth > MAX_DEPTH) {
            throw new LayoutLimitException(op + ": nesting depth " + depth + " (expected: <= " + MAX_DEPTH
                    + ", config key layout.type.maxDepth)");
        }
    }

    static void checkListLength(String op, String arg, int length) {
        if (length > MAX_LIST_LENGTH) {
            throw new LayoutLimitException(op + ": " + arg + " length " + length + " (expected: <= " + MAX_LIST_LENGTH
                    + ", config key layout.type.maxListLength)");
        }
    }
}
