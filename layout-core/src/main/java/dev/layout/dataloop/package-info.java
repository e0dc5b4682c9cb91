/**
 * The dataloop engine (Ross, Miller, Gropp 2003): {@link dev.layout.dataloop.DataloopCompiler} turns
 * a datatype into an optimized {@link dev.layout.dataloop.Dataloop} tree, and a {@link
 * dev.layout.dataloop.Segment} walks it with an explicit stack to pack, unpack (native or
 * external32), flatten or visit any byte range of the packed stream. {@link
 * dev.layout.dataloop.Packing} has the one-call forms. Types are described in {@code
 * dev.layout.datatype}; memory targets in {@code dev.layout.memory}. The compiler compiles the
 * normalized (least-cost) description of a type, within bounds, and keeps its own leaf rewrites on
 * it (see {@code EngineNormalization} for the model, the bounds and the one case where it keeps the
 * description as given). Strided nests whose outer loop has the finest user stride run in a
 * cache-blocked order ({@code BlockedOrder}) that moves every byte to the same packed offset.
 *
 * <p>Layers: the {@code Dataloop} is an immutable description; a segment's {@code Plan}, made once
 * per memory kinds, holds each nest's blocked order and the generated kernels (word, plane, row or
 * strip loops) that the one cost model, {@code KernelCost}, prefers over the generic loops for a
 * leaf's shape and count; the walk ({@code Segment}, {@code BlockedWalk}) hands whole leaves to the
 * action's {@code LeafKernel} (pack, unpack, external32, flatten, visit); the moves themselves live
 * in {@code dev.layout.dataloop.kernel}.
 */
package dev.layout.dataloop;
