package dev.layout.naming;

import java.util.Arrays;

/**
 * Balanced grid shapes, as {@code MPI_Dims_create}.
 *
 * <pre>{@code
 * Dims.create(12, 2);   // [4, 3]
 * Dims.create(16, 3);   // [4, 2, 2]
 * Dims.create(7, 2);    // [7, 1]
 * }</pre>
 */
public final class Dims {
    private Dims() {}

    /**
     * The most balanced factorization of {@code p} into {@code d} factors, in non-increasing order:
     * the smallest difference between the largest and the smallest factor, ties broken by the
     * smallest largest factor, then lexicographically smallest.
     *
     * @throws IllegalArgumentException if p < 1 or d < 1
     */
    public static int[] create(int p, int d) {
        if (p < 1) {
            throw new IllegalArgumentException("dimsCreate: p " + p + " (expected: >= 1)");
        }
        if (d < 1) {
            throw new IllegalArgumentException("dimsCreate: d " + d + " (expected: >= 1)");
        }
        Search s = new Search(d);
        s.search(p, 0, p);
        return s.best;
    }

    /**
     * As {@code MPI_Dims_create} with some dimensions fixed: entries of {@code dims} that are
     * positive are kept, zeros are filled with the most balanced factorization of the rest (in
     * non-increasing order over the free positions).
     *
     * @throws IllegalArgumentException if an entry is negative or the fixed entries do not divide p
     */
    public static int[] create(int p, int[] dims) {
        if (p < 1) {
            throw new IllegalArgumentException("dimsCreate: p " + p + " (expected: >= 1)");
        }
        if (dims == null || dims.length == 0) {
            throw new IllegalArgumentException("dimsCreate: d 0 (expected: >= 1)");
        }
        long fixed = 1;
        int free = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw new IllegalArgumentException("dimsCreate: dims[" + i + "] " + dims[i] + " (expected: >= 0)");
            }
            if (dims[i] == 0) {
                free++;
            } else {
                fixed *= dims[i];
            }
        }
        if (fixed > p || p % fixed != 0) {
            throw new IllegalArgumentException(
                    "dimsCreate: fixed dims " + Arrays.toString(dims) + " (expected: product dividing p " + p + ")");
        }
        int[] out = dims.clone();
        if (free == 0) {
            if (fixed != p) {
                throw new IllegalArgumentException(
                        "dimsCreate: dims " + Arrays.toString(dims) + " (expected: product p " + p + ")");
            }
            return out;
        }
        int[] filled = create((int) (p / fixed), free);
        int k = 0;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == 0) {
                out[i] = filled[k++];
            }
        }
        return out;
    }

    private static final class Search {
        final int[] current;
        int[] best;

        Search(int d) {
            current = new int[d];
        }

        /** Fills current[k..] with non-increasing factors <= max whose product is rest. */
        void search(int rest, int k, int max) {
            int d = current.length;
            if (k == d - 1) {
                if (rest <= max) {
                    current[k] = rest;
                    consider();
                }
                return;
            }
            // The largest remaining factor is at least rest^(1/(d-k)).
            for (int f = Math.min(max, rest); f >= 1; f--) {
                if (rest % f != 0) {
                    continue;
                }
                if (pow(f, d - k) < rest) {
                    break; // f and all smaller ones cannot be the largest remaining factor
                }
                current[k] = f;
                search(rest / f, k + 1, f);
            }
        }

        private static long pow(long f, int e) {
            long r = 1;
            for (int i = 0; i < e; i++) {
                r *= f;
                if (r > Integer.MAX_VALUE) {
                    return r;
                }
            }
            return r;
        }

        void consider() {
            if (best == null || better(current, best)) {
                best = current.clone();
            }
        }

        private static boolean better(int[] a, int[] b) {
            int spreadA = a[0] - a[a.length - 1];
            int spreadB = b[0] - b[b.length - 1];
            if (spreadA != spreadB) {
                return spreadA < spreadB;
            }
            return Arrays.compare(a, b) < 0;
        }
    }
}
