/**
 * The normalizer (Träff 2014, "Optimal MPI Datatype Normalization for Vector and Index-block
 * Types"): least-cost type reconstruction of a displacement sequence into a {@link
 * dev.layout.normalize.TypePath} of {@code con}, {@code vec} and {@code idx} nodes, under a {@link
 * dev.layout.normalize.CostModel} (storage or processing, constants configurable).
 *
 * <p>Entry type: {@link dev.layout.normalize.Normalizer}. Results are optimal over all paths, not
 * only over those the paper's dynamic program reaches: the paper's {@code TypePath} is used to find
 * the repeated divisors of n, and the dynamic program is generalized to a shortest path over them
 * with the start offset as state (see {@code Reconstruction} for why this is needed).
 *
 * <p>Not here: the datatype model ({@code dev.layout.datatype}) and the dataloop engine; the
 * command line lives in {@link dev.layout.normalize.NormalizeCommand}, wired by the CLI.
 */
package dev.layout.normalize;
