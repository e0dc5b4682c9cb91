/**
 * Distributed grids and halo exchange over Spark.
 *
 * <p>A {@link dev.layout.spark.grid.DistributedGrid} holds one block per rank (partition r =
 * rank r, C rank order over a Cartesian process grid, uneven blocks when not divisible). A
 * {@link dev.layout.spark.grid.Stencil} gives the process neighbours; {@link
 * dev.layout.spark.grid.HaloPlan} derives the region datatypes (subarrays of the local array:
 * faces, edges, corners), normalizes them and ships them as layout notation. {@link
 * dev.layout.spark.grid.HaloExchange} iterates a {@link dev.layout.spark.grid.StencilKernel} in
 * one of two {@link dev.layout.spark.grid.ExchangeMode}s:
 *
 * <ul>
 *   <li>BARRIER: one barrier stage, tasks connected once through {@link
 *       dev.layout.spark.comm.SparkCommunicator}, a persistent alltoallw per iteration on the
 *       stencil's graph communicator (double-buffered blocks), checkpoints to any Hadoop file
 *       system with resume. The stage itself is a {@link dev.layout.spark.grid.BarrierStage}
 *       (connect, run each rank's part, report progress, end in a shuffle because Spark retries
 *       failed barrier ShuffleMapStages but never barrier ResultStages), which jobs reuse.
 *   <li>SHUFFLE: per iteration, halos packed and keyed by destination rank, shuffled with {@link
 *       dev.layout.spark.grid.RankPartitioner} and zipped with the (unshuffled, cached) blocks;
 *       lineage cut every k iterations by {@link dev.layout.spark.grid.CheckpointPolicy}.
 * </ul>
 */
package dev.layout.spark.grid;
