package dev.layout.dataloop.kernel;

import java.io.IOException;
import java.io.InputStream;

/**
 * The loops behind {@link MemoryAccess#strided} and {@link MemoryAccess#strided3}: rows of strided blocks. Bases and addresses are
 * already resolved and the footprint checked; a wrong offset here is a wrong memory access.
 *
 * <p>Why instances: the JIT compiles a loop for the kinds of base it has seen. A loop that has
 * moved between {@code byte[]}s and then meets off-heap memory is recompiled for both, as a
 * "mixed" access C2 neither unrolls nor schedules freely. {@link #forKinds} therefore holds four copies of {@link StridedLoopCode},
 * defined as hidden classes from its class file, one per combination of heap or off-heap
 * source and destination; each copy is profiled and compiled on its own.
 */
abstract class StridedLoops {
    StridedLoops() {}

    /** The copy for these bases. */
    static StridedLoops forKinds(Object srcBase, Object dstBase) {
        return Copies.COPIES[(srcBase == null ? 1 : 0) | (dstBase == null ? 2 : 0)];
    }

    /** {@code n} blocks of {@code blockBytes}, block i from {@code sa + i * ss} to {@code da + i * ds}. */
    abstract void strided(Object sb, long sa, long ss, Object db, long da, long ds, long blockBytes, int n);

    /**
     * Rows of 16-byte blocks gathered from short columns of a transposed side ({@code
     * ni} small, {@code si} large), in a method of its own so that its compiled loop is not shared
     * with the long rows of the same width.
     */
    abstract void columnTiles16(
            Object sb, long sa, long so, long si, Object db, long da, long dO, long di, int no, int ni);

    /**
     * {@code n3} planes of {@code no} rows of {@code ni} blocks of up to 64 bytes, block (p, i, j) from
     * {@code sa + p * s3 + i * s2 + j * s1} to {@code da + p * d3 + i * d2 + j * d1}.
     */
    abstract void planes(
            Object sb,
            long sa,
            long s3,
            long s2,
            long s1,
            Object db,
            long da,
            long d3,
            long d2,
            long d1,
            long blockBytes,
            long n3,
            int no,
            int ni);

    /** The four copies of {@link StridedLoopCode}, defined on first use (a holder, so that merely loading this class defines nothing). */
    private static final class Copies {
        /** Indexed by {@code (src off-heap ? 1 : 0) | (dst off-heap ? 2 : 0)}. */
        static final StridedLoops[] COPIES = copies();

        private Copies() {}

        private static StridedLoops[] copies() {
            StridedLoops[] c = new StridedLoops[4];
            byte[] bytes = null;
            if (GeneratedKernels.ENABLED) {
                try (InputStream in = StridedLoops.class.getResourceAsStream("StridedLoopCode.class")) {
                    bytes = in == null ? null : in.readAllBytes();
                } catch (IOException e) {
                    bytes = null;
                }
            }
            StridedLoops shared = new StridedLoopCode();
            for (int k = 0; k < 4; k++) {
                // Without the class file (an unusual class loader) or with generation off: one shared copy.
                c[k] = bytes == null
                        ? shared
                        : (StridedLoops) GeneratedKernels.instantiate(bytes, k, "strided loops (kinds " + k + ")");
            }
            return c;
        }
    }
}
