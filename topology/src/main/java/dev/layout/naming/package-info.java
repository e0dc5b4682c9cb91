/**
 * Cartesian process naming: a pure mapping between ranks and coordinates of a d-dimensional grid
 * ({@link dev.layout.naming.CartesianNaming}), balanced grid shapes ({@link dev.layout.naming.Dims})
 * and stencil neighbourhood generation ({@link dev.layout.naming.Neighborhoods} with a {@link
 * dev.layout.naming.Metric}). As the orthogonality paper asks, a naming implies no neighbourhood,
 * creates no topology and never reorders ranks; it communicates nothing and depends on nothing but
 * the JDK. Neighbourhoods become a communication structure only when their rank lists are handed
 * to graph creation in {@code dev.layout.topology}.
 */
package dev.layout.naming;
