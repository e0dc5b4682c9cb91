package dev.layout.normalize;

import java.util.Arrays;

/**
 * An ordered, homogeneous displacement sequence {@code x[0], x[1], …, x[n-1]} in elements: a type
 * map without basetypes, the input of type reconstruction.
 *
 * <p>Order matters, values may be negative and may repeat, and {@code x[0]} need not be 0 or the
 * smallest value. The only restriction beyond {@code n >= 1} is that the span {@code max - min}
 * fits in a signed 64-bit integer, so that every difference between two displacements, and every
 * stride and index of a path describing the sequence, is an exact {@code long}.
 *
 * <pre>{@code
 * DisplacementSequence x = DisplacementSequence.parse("5,6,8,9,10,12,13,14,16");
 * TypePath p = Normalizer.of(CostModel.storage(1, 4, 3)).reconstruct(x);
 * // p.toString() is "vec(3,4,idx(3,<5,6,8>,con(1)))", p.cost(model) is 11
 * }</pre>
 *
 * <p>Instances are immutable.
 */
public final class DisplacementSequence {

    private final long[] values;

    private DisplacementSequence(long[] values) {
        this.values = values;
    }

    /**
     * The sequence of the given displacements, copied.
     *
     * @throws IllegalArgumentException if {@code values} is empty, or if {@code max - min} does not
     *     fit in a {@code long}
     * @throws NullPointerException if {@code values} is null
     */
    public static DisplacementSequence of(long... values) {
        return new DisplacementSequence(validate(values.clone()));
    }

    /** Takes ownership of {@code values} without copying (package-private, trusted callers). */
    static DisplacementSequence wrap(long[] values) {
        return new DisplacementSequence(validate(values));
    }

    /**
     * Parses a comma-separated list such as {@code "2,4,-6"}; spaces around the numbers are allowed.
     *
     * @throws IllegalArgumentException if the text is empty, an element is not a 64-bit integer, or
     *     the span does not fit in a {@code long}
     */
    public static DisplacementSequence parse(CharSequence text) {
        String s = text.toString().strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("displacements: empty list (expected: at least one integer)");
        }
        String[] parts = s.split(",", -1);
        long[] v = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i].strip();
            try {
                v[i] = Long.parseLong(p);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "displacements: element " + i + " '" + p + "' (expected: a 64-bit integer)");
            }
        }
        return new DisplacementSequence(validate(v));
    }

    private static long[] validate(long[] v) {
        if (v.length == 0) {
            throw new IllegalArgumentException("displacements: length 0 (expected: >= 1)");
        }
        long min = v[0];
        long max = v[0];
        for (long e : v) {
            min = Math.min(min, e);
            max = Math.max(max, e);
        }
        try {
            Math.subtractExact(max, min);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                    "displacements: span " + min + ".." + max + " (expected: max - min <= " + Long.MAX_VALUE + ")");
        }
        return v;
    }

    /** The number of displacements, {@code n}. */
    public int size() {
        return values.length;
    }

    /** The displacement at {@code index}. */
    public long get(int index) {
        return values[index];
    }

    /** A copy of the displacements. */
    public long[] toArray() {
        return values.clone();
    }

    /** The backing array, never to be modified (package-private). */
    long[] array() {
        return values;
    }

    /** Whether the sequence is regularly strided: {@code x[i+1] - x[i]} is the same for all i. */
    public boolean isRegularlyStrided() {
        for (int i = 2; i < values.length; i++) {
            if (values[i] - values[i - 1] != values[1] - values[0]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DisplacementSequence other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    /** The comma-separated form accepted by {@link #parse}, e.g. {@code 2,4,-6}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(values.length * 4);
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(values[i]);
        }
        return sb.toString();
    }
}
