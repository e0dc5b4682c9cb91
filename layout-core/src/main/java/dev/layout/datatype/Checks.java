package dev.layout.datatype;

/**
 * Argument checks and overflow-checked arithmetic with the project's message template
 * {@code "<op>: <arg> <value> (expected: <constraint>)"}. Kept tiny on purpose (no Guava in core).
 */
public final class Checks {
    private Checks() {}

    /** Fails with {@code "<op>: <arg> <value> (expected: >= 0)"} when {@code value < 0}. */
    public static long nonNegative(String op, String arg, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(op + ": " + arg + " " + value + " (expected: >= 0)");
        }
        return value;
    }

    /** Fails with {@code "<op>: <arg> <value> (expected: >= 1)"} when {@code value < 1}. */
    public static long positive(String op, String arg, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(op + ": " + arg + " " + value + " (expected: >= 1)");
        }
        return value;
    }

    public static <T> T notNull(String op, String arg, T value) {
        if (value == null) {
            throw new NullPointerException(op + ": " + arg + " is null");
        }
        return value;
    }

    public static IllegalArgumentException invalid(String op, String arg, Object value, String expected) {
        return new IllegalArgumentException(op + ": " + arg + " " + value + " (expected: " + expected + ")");
    }

    /** {@code a + b}, or an {@link IllegalArgumentException} naming {@code op} on 64-bit overflow. */
    public static long add(String op, long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(op, a + " + " + b);
        }
    }

    public static long sub(String op, long a, long b) {
        try {
            return Math.subtractExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(op, a + " - " + b);
        }
    }

    /** {@code a * b}, or an {@link IllegalArgumentException} naming {@code op} on 64-bit overflow. */
    public static long mul(String op, long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(op, a + " * " + b);
        }
    }

    public static int toIntIndex(String op, String arg, long value) {
        if (value < 0 || value > Integer.MAX_VALUE - 8) {
            throw invalid(op, arg, value, "0.." + (Integer.MAX_VALUE - 8));
        }
        return (int) value;
    }

    private static IllegalArgumentException overflow(String op, String expr) {
        return new IllegalArgumentException(
                op + ": byte offset " + expr + " overflows 64 bits (expected: offsets and sizes within +-2^63)");
    }
}
