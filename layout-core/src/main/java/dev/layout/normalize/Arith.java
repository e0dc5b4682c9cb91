package dev.layout.normalize;

/** Exact arithmetic whose overflow becomes an {@link IllegalArgumentException} naming the op. */
final class Arith {
    private Arith() {}

    static long add(String op, long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(op + ": " + a + " + " + b + " overflows 64 bits");
        }
    }

    static long mul(String op, long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(op + ": " + a + " * " + b + " overflows 64 bits");
        }
    }

    static long gcd(long a, long b) {
        a = Math.abs(a);
        b = Math.abs(b);
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
