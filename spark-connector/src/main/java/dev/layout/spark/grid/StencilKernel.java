package dev.layout.spark.grid;

import java.io.Serializable;

/**
 * One iteration of a stencil computation on a block: reads {@code src} (ghosts filled by the halo
 * exchange) and writes the interior of {@code dst} (same shape; its ghost cells are a copy of
 * src's and must not be relied on). Must be deterministic: both exchange modes and the sequential
 * reference give identical results only for a kernel that is a function of its inputs.
 */
@FunctionalInterface
public interface StencilKernel extends Serializable {
    void apply(GridBlock src, GridBlock dst);

    /**
     * Iteration {@code iteration} (0-based) of the run; both exchange modes call this form. Override
     * it to observe iterations (e.g. to count live cells per generation into an accumulator); the
     * computation itself must still depend only on {@code src}.
     */
    default void apply(int iteration, GridBlock src, GridBlock dst) {
        apply(src, dst);
    }
}
