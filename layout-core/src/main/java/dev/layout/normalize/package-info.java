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
 * <p>Type normalization ({@link dev.layout.normalize.Normalizer#normalize}) applies the same
 * program to a {@link dev.layout.datatype.Datatype} read as a symbolic path, never expanding its
 * type map (Theorem 2), with the indexed heuristic of section 6 and struct-to-indexed for
 * homogeneous structs; {@link dev.layout.normalize.DatatypeCost} prices datatypes so that the cost
 * before and after can be reported. The command line is {@link
 * dev.layout.normalize.NormalizeCommand}, to be wired by the CLI. Not here: the datatype model and
 * the dataloop engine.
 */
package dev.layout.normalize;
