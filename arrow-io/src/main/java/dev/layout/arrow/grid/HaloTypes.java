package dev.layout.arrow.grid;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The halo datatypes of a block with {@code ghost} ghost cells on every side, stored row-major with
 * its ghosts ({@code interior + 2 * ghost} per dimension): for every direction {@code d} in {@code
 * {-1, 0, 1}^n} except zero, the cells sent to the neighbour in direction {@code d} and the ghost
 * cells received from it. In 3D the 26 directions are 6 faces, 12 edges and 8 corners; in 2D, rows,
 * columns and 4 corners.
 *
 * <pre>{@code
 * HaloTypes h = new HaloTypes(new long[] {128, 128, 128}, 1, Primitive.FLOAT64);
 * Halo east = h.halo(new int[] {0, 0, 1});   // a face: send x = 128, receive x = 129
 * }</pre>
 *
 * <p>Block A's {@code receive(d)} matches neighbour B's {@code send(-d)} element for element, so a
 * halo exchange is: pack B's send(-d), unpack into A's receive(d).
 */
public final class HaloTypes {
    private final long[] interior;
    private final long ghost;
    private final Datatype element;
    private final long[] sizes;

    /** What a halo is, by the number of non-zero direction components. */
    public enum Kind {
        FACE,
        EDGE,
        CORNER
    }

    /** The send and receive datatypes of one direction; both are subarrays of the ghosted block. */
    public record Halo(int[] direction, Kind kind, Datatype send, Datatype receive) {
        public Halo {
            direction = direction.clone();
        }

        @Override
        public int[] direction() {
            return direction.clone();
        }
    }

    /** @throws IllegalArgumentException if ghost is negative or wider than an interior dimension */
    public HaloTypes(long[] interior, long ghost, Datatype element) {
        Objects.requireNonNull(interior, "HaloTypes: interior is null");
        Objects.requireNonNull(element, "HaloTypes: element is null");
        if (interior.length < 1 || interior.length > 3) {
            throw new IllegalArgumentException("HaloTypes: " + interior.length + " dimensions (expected: 1 to 3)");
        }
        if (ghost < 1) {
            throw new IllegalArgumentException("HaloTypes: ghost " + ghost + " (expected: >= 1)");
        }
        this.sizes = new long[interior.length];
        for (int d = 0; d < interior.length; d++) {
            if (interior[d] < ghost) {
                throw new IllegalArgumentException(
                        "HaloTypes: interior[" + d + "] " + interior[d] + " (expected: >= ghost " + ghost + ")");
            }
            sizes[d] = Math.addExact(interior[d], 2 * ghost);
        }
        this.interior = interior.clone();
        this.ghost = ghost;
        this.element = element;
    }

    /** Sizes of the ghosted block. */
    public long[] ghostedSizes() {
        return sizes.clone();
    }

    public long ghost() {
        return ghost;
    }

    /** The interior (owned cells) of the ghosted block. */
    public Datatype interior() {
        long[] starts = new long[sizes.length];
        java.util.Arrays.fill(starts, ghost);
        return Datatype.subarray(sizes, interior, starts, Order.C, element);
    }

    /** The halo of one direction. */
    public Halo halo(int[] direction) {
        Objects.requireNonNull(direction, "HaloTypes: direction is null");
        if (direction.length != sizes.length) {
            throw new IllegalArgumentException(
                    "HaloTypes: direction of length " + direction.length + " (expected: " + sizes.length + ")");
        }
        int nonZero = 0;
        long[] sub = new long[sizes.length];
        long[] sendStart = new long[sizes.length];
        long[] recvStart = new long[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            switch (direction[d]) {
                case -1 -> {
                    sub[d] = ghost;
                    sendStart[d] = ghost;
                    recvStart[d] = 0;
                    nonZero++;
                }
                case 0 -> {
                    sub[d] = interior[d];
                    sendStart[d] = ghost;
                    recvStart[d] = ghost;
                }
                case 1 -> {
                    sub[d] = ghost;
                    sendStart[d] = sizes[d] - 2 * ghost;
                    recvStart[d] = sizes[d] - ghost;
                    nonZero++;
                }
                default ->
                    throw new IllegalArgumentException(
                            "HaloTypes: direction[" + d + "] " + direction[d] + " (expected: -1, 0 or 1)");
            }
        }
        if (nonZero == 0) {
            throw new IllegalArgumentException("HaloTypes: direction all zeros (expected: at least one of -1 or 1)");
        }
        Kind kind = nonZero == sizes.length ? Kind.CORNER : nonZero == 1 ? Kind.FACE : Kind.EDGE;
        if (sizes.length == 2 && nonZero == 1) {
            kind = Kind.FACE;
        }
        return new Halo(
                direction,
                kind,
                Datatype.subarray(sizes, sub, sendStart, Order.C, element),
                Datatype.subarray(sizes, sub, recvStart, Order.C, element));
    }

    /** All {@code 3^n - 1} halos, directions in lexicographic order. */
    public List<Halo> all() {
        List<Halo> out = new ArrayList<>();
        int n = sizes.length;
        int total = (int) Math.pow(3, n);
        for (int code = 0; code < total; code++) {
            int[] dir = new int[n];
            int c = code;
            boolean zero = true;
            for (int d = n - 1; d >= 0; d--) {
                dir[d] = c % 3 - 1;
                c /= 3;
                zero &= dir[d] == 0;
            }
            if (!zero) {
                out.add(halo(dir));
            }
        }
        return out;
    }
}
