/**
 * One set of collective operations whose meaning comes from the communicator's structure: the MPI
 * meanings on fully connected and bipartite communicators, the neighbourhood meanings of the
 * orthogonality paper on graphs (rooted and reduction forms included; reduce_scatter, scan and
 * exscan refused there). {@link dev.layout.collective.Collectives} is the entry type, with
 * blocking, non-blocking ({@code CompletableFuture}) and persistent ({@link
 * dev.layout.collective.PersistentCollective}) forms. On graphs whose Cartesianity check succeeded
 * the alltoall family may run the d-phase message-combining {@link dev.layout.collective.Schedule},
 * chosen by {@link dev.layout.collective.ScheduleSelector}; allgather and allreduce combine along
 * the prefix tree of the offsets, sending shared prefixes once. Buffers are byte arrays with byte
 * counts and displacements, or {@link dev.layout.collective.Block}s: a {@link
 * dev.layout.collective.BlockSpec} (buffer, displacement, count, layout-core datatype) describes any
 * send or receive block of any operation, and {@link dev.layout.collective.Reduction} reduces typed
 * buffers element-wise per primitive.
 *
 * <p>Inside, {@code Collectives} is a facade: each family of operations has its algorithm class
 * ({@code Barrier}, {@code Bcast}, {@code Gather}, {@code Scatter}, {@code Reduce}, {@code
 * Allreduce}, {@code Allgather}, {@code Alltoall}, {@code ReduceScatterBlock}, {@code Scan}, on the
 * shared checks of {@code CollectiveAlgorithm}) that checks a call's arguments once and returns a
 * {@code Prepared} operation, from which the three forms derive (run now, start as a future, or
 * keep as a persistent collective); {@code GraphSchedules} picks and keeps a graph communicator's
 * schedules.
 *
 * <p>On fully connected and bipartite communicators alltoallw posts every receive before it sends
 * ({@link dev.layout.collective.TypedBlock}s: {@code BlockSpec}, {@code ByteBlock}, {@link
 * dev.layout.collective.RegionBlock}), so that ranks of one JVM exchange each block with one copy
 * from the sender's memory into the receiver's; a block of zero bytes is no message.
 * {@code allgatherAny} gathers arrays of any length in one round (their lengths travel with them).
 *
 * <p>Only bytes travel, as MPI prescribes: a send block is packed (or gathered) with the sender's
 * datatype and a receive block unpacked with the receiver's own; type signatures must match, but no
 * type description is ever sent, so there is nothing to normalize here. Descriptions that do travel
 * (spark-connector's halo plan and file view data source) travel normalized.
 */
package dev.layout.collective;
