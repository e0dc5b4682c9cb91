package dev.layout.spark.grid;

import java.io.Serializable;

/**
 * Initial values of a grid by global coordinates. It is also evaluated at coordinates just outside
 * the domain on non-periodic borders: those ghost cells are never exchanged and keep the value
 * (a fixed, Dirichlet boundary).
 */
@FunctionalInterface
public interface GridFunction extends Serializable {
    double at(int[] global);
}
