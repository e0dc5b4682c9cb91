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
 * before and after can be reported. The command line is {@code
 * dev.layout.normalize.cli.NormalizeCommand}. Not here: the datatype model and the dataloop engine.
 *
 * <p>Users. The dataloop compiler ({@code dev.layout.dataloop.DataloopCompiler}) compiles every
 * type through its normalized form under the processing model of {@code
 * conf/normalizer.properties}, limited with {@link dev.layout.normalize.CostModel#withIdxLimit} to
 * index nodes no longer than the description's longest list, for descriptions of at most 2^16 list
 * entries; its own leaf rewrites then run on the normalized form, and it keeps the given
 * description's dataloop where that is a single fixed-width leaf and the normalized one is not
 * (rules and measurements on {@code dev.layout.dataloop.EngineNormalization}). Whatever ships a
 * description to another process ships {@link dev.layout.normalize.Normalizer#ship}: the notation
 * of the least-cost form under the default (storage) model, with its size and cost before and
 * after (spark-connector's halo plan and file view data source).
 */
package dev.layout.normalize;
