package dev.layout.naming;

/** Distance measures for stencil neighbourhoods, see {@link Neighborhoods}. */
public enum Metric {
    /** {@code max |v_i|}: Moore neighbourhoods (D2Q9, D3Q27 at depth 1). */
    CHEBYSHEV,
    /** {@code sum |v_i|}: the full von Neumann ball of radius depth (D2Q5, D3Q7 at depth 1). */
    MANHATTAN,
    /**
     * Offsets on one axis only, distance {@code max |v_i|}: the "star" that mpi-ortholib calls
     * Manhattan; identical to {@link #MANHATTAN} at depth 1.
     */
    AXIS;

    /**
     * The distance of an offset under this metric, or -1 for {@link #AXIS} when the offset has more
     * than one non-zero coordinate (it is in no AXIS neighbourhood).
     */
    public int distance(int[] offset) {
        int max = 0;
        int sum = 0;
        int nonZero = 0;
        for (int v : offset) {
            int a = Math.abs(v);
            max = Math.max(max, a);
            sum += a;
            if (a != 0) {
                nonZero++;
            }
        }
        return switch (this) {
            case CHEBYSHEV -> max;
            case MANHATTAN -> sum;
            case AXIS -> nonZero <= 1 ? max : -1;
        };
    }
}
