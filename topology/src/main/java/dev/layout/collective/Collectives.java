package dev.layout.collective;

import static dev.layout.collective.CollectiveAlgorithm.typedOp;
import static dev.layout.collective.CollectiveAlgorithm.whole;

import dev.layout.comm.CollectiveChannel;
import dev.layout.comm.Communicator;

/**
 * The collective operations of one communicator, with the meaning its structure gives them:
 *
 * <ul>
 *   <li>FULL: the MPI meanings (rank order everywhere, reductions folded in rank order).
 *   <li>INTER: the MPI inter-communicator meanings; rooted operations take {@link
 *       Communicator#ROOT} at the root, {@link Communicator#PROC_NULL} at the rest of its group and
 *       the root's rank at the remote group. scan and exscan are undefined.
 *   <li>GRAPH (s = in-neighbours, t = out-neighbours in order, repeated edges counting repeatedly):
 *       barrier waits for the in-neighbours; bcast goes from the root to its out-neighbours;
 *       gather(v) collects block i from s[i] at the root, scatter(v) sends block i to t[i] (a rank
 *       listing the root k times receives k blocks, consecutively); reduce folds the blocks of
 *       s[0], s[1], ... at the root (its own data only through a self-loop; untouched without
 *       in-neighbours); allreduce does that at every rank; allgather(v) and alltoall(v,w) have the
 *       MPI_Neighbor_* meanings. reduce_scatter, scan and exscan are refused.
 * </ul>
 *
 * <p>Buffers are either byte arrays (counts and displacements in bytes) or {@link Block}s: every
 * send and receive block may be a {@link BlockSpec} (buffer, displacement, count, layout-core
 * datatype) that packs and unpacks through the datatype engine, so no operation needs user-side
 * packing. The byte-array forms are thin wrappers over the block forms. Non-v forms take one
 * {@code BlockSpec} whose block i lies {@code i * count} extents further (MPI's layout); v forms
 * take one block per peer (build MPI's counts/displs layout with {@link BlockSpec#displaced}).
 * Reductions over typed buffers take a {@link Reduction} applied element-wise to the packed
 * stream; the datatypes must have one primitive throughout.
 *
 * <p>Each operation comes in three forms with the same arguments: blocking ({@code
 * coll.allreduce}, here), non-blocking ({@code coll.nonBlocking().allreduce}, a future that
 * completes when this rank's part is done, see {@link NonBlockingCollectives}) and persistent
 * ({@code coll.persistent().allreduce}, checked and scheduled once, started many times, see {@link
 * PersistentCollectives}). Every rank calls the collectives of a communicator in the same order. On a
 * graph whose Cartesianity check succeeded, the neighbourhood exchanges (alltoall family,
 * allgather, allreduce) run the direct or the message-combining {@link Schedule} (for allgather
 * and allreduce: along the prefix tree of the offsets), as the {@link SchedulePolicy} and the
 * {@link ScheduleSelector} decide.
 *
 * <pre>{@code
 * Collectives coll = Collectives.on(stencilComm);
 * coll.alltoall(send, recv, 8);                            // 8 bytes to/from each neighbour
 * coll.allreduce(alive, liveNeighbours, StandardOp.INT_SUM);
 * Collectives.on(stencilComm.base()).allreduce(local, global, StandardOp.DOUBLE_MAX);
 * }</pre>
 */
public final class Collectives {

    private final Communicator comm;
    private final GraphSchedules schedules;
    private final NonBlockingCollectives nonBlocking;
    private final PersistentCollectives persistent;
    // the algorithms and the channel, shared with the non-blocking and persistent forms
    final CollectiveChannel ch;
    final Barrier barrier;
    final Bcast bcast;
    final Gather gather;
    final Scatter scatter;
    final Reduce reduce;
    final Allreduce allreduce;
    final Allgather allgather;
    final Alltoall alltoall;
    final ReduceScatterBlock reduceScatterBlock;
    final Scan scan;

    private Collectives(Communicator comm, SchedulePolicy policy, ScheduleSelector selector) {
        this.comm = comm;
        this.ch = comm.channel();
        this.schedules = new GraphSchedules(comm, policy, selector);
        this.barrier = new Barrier(this);
        this.bcast = new Bcast(this);
        this.gather = new Gather(this);
        this.scatter = new Scatter(this);
        this.reduce = new Reduce(this);
        this.allreduce = new Allreduce(this);
        this.allgather = new Allgather(this);
        this.alltoall = new Alltoall(this);
        this.reduceScatterBlock = new ReduceScatterBlock(this);
        this.scan = new Scan(this);
        this.nonBlocking = new NonBlockingCollectives(this);
        this.persistent = new PersistentCollectives(this);
    }

    /** The collectives of {@code comm}, schedule policy AUTO with the default cost model. */
    public static Collectives on(Communicator comm) {
        if (comm == null) {
            throw new IllegalArgumentException("collectives: communicator null (expected: a Communicator)");
        }
        return new Collectives(comm, SchedulePolicy.AUTO, ScheduleSelector.DEFAULT);
    }

    /** The same collectives with another schedule policy. */
    public Collectives withPolicy(SchedulePolicy p) {
        if (p == null) {
            throw new IllegalArgumentException("collectives: policy null (expected: AUTO, DIRECT or COMBINING)");
        }
        return new Collectives(comm, p, schedules.selector());
    }

    /** The same collectives with another cost model. */
    public Collectives withSelector(ScheduleSelector s) {
        if (s == null) {
            throw new IllegalArgumentException("collectives: selector null (expected: a ScheduleSelector)");
        }
        return new Collectives(comm, schedules.policy(), s);
    }

    public Communicator communicator() {
        return comm;
    }

    /** The non-blocking forms ({@code MPI_Ixxx}) of these collectives. */
    public NonBlockingCollectives nonBlocking() {
        return nonBlocking;
    }

    /** The persistent forms ({@code MPI_Xxx_init}) of these collectives. */
    public PersistentCollectives persistent() {
        return persistent;
    }

    /**
     * The schedule that neighbourhood exchanges of {@code blockBytes} per block (0 if unknown) use
     * on this graph communicator under the current policy.
     *
     * @throws IllegalArgumentException if the communicator is not a graph, or COMBINING is forced on
     *     a general graph
     */
    public Schedule schedule(long blockBytes) {
        return schedules.choose(blockBytes, false);
    }

    /**
     * The schedule that allgather(v) and allreduce with blocks of {@code blockBytes} (0 if unknown)
     * use on this graph communicator under the current policy (AUTO asks {@link
     * ScheduleSelector#chooseAllgather}).
     *
     * @throws IllegalArgumentException as {@link #schedule(long)}
     */
    public Schedule allgatherSchedule(long blockBytes) {
        return schedules.choose(blockBytes, true);
    }

    GraphSchedules schedules() {
        return schedules;
    }

    // ---------------------------------------------------------------------------------------------
    // barrier

    public void barrier() {
        barrier.prepareBarrier().run(ch);
    }

    // ---------------------------------------------------------------------------------------------
    // bcast

    /** Broadcasts root's {@code buffer} (every receiving rank passes a buffer of the same length). */
    public void bcast(byte[] buffer, int root) {
        bcast.prepareBcast(whole("bcast", "buffer", buffer), root).run(ch);
    }

    /**
     * Broadcasts the root's block: the root packs {@code buffer} (e.g. a {@link BlockSpec} of a
     * subarray type), every receiver unpacks the same number of bytes into its own {@code buffer},
     * whose datatype may differ as long as the packed sizes agree.
     */
    public void bcast(Block buffer, int root) {
        bcast.prepareBcast(buffer, root).run(ch);
    }

    // ---------------------------------------------------------------------------------------------
    // gather(v)

    /**
     * Gathers equal blocks at the root: block size is {@code send.length} (at an INTER root, {@code
     * recv.length / remoteSize}); block i lands at {@code i * blockSize}. {@code recv} matters only
     * at the root.
     */
    public void gather(byte[] send, byte[] recv, int root) {
        gather.prepareGather(send, recv, root).run(ch);
    }

    /**
     * MPI_Gather with datatypes: {@code recv} describes block 0 at the root (buffer, displacement,
     * count, datatype); block i (from rank i, in-neighbour i or remote rank i) lands {@code i *
     * count} extents further (see {@link BlockSpec#shifted}). {@code recv} matters only at the root
     * (others may pass null); at an INTER root {@code send} may be null.
     */
    public void gather(Block send, BlockSpec recv, int root) {
        gather.prepareGatherTyped(send, recv, root).run(ch);
    }

    /** Gathers block i with {@code recvCounts[i]} bytes at {@code displs[i]} of root's recv. */
    public void gatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
        gather.prepareGathervBytes("gatherv", send, recv, recvCounts, displs, root)
                .run(ch);
    }

    /**
     * MPI_Gatherv with datatypes (and per-block types, as a "gatherw"): block i from rank i,
     * in-neighbour i or remote rank i is unpacked into {@code recv[i]}; build MPI's (counts,
     * displs, datatype) layout with {@link BlockSpec#displaced}. {@code recv} matters only at the
     * root; zero-size blocks are allowed.
     */
    public void gatherv(Block send, Block[] recv, int root) {
        gather.prepareGatherv("gatherv", "recv", send, recv, root).run(ch);
    }

    // ---------------------------------------------------------------------------------------------
    // scatter(v)

    /**
     * Scatters equal blocks from the root: block size is {@code send.length / n} at the root (n = p,
     * outdegree or remote size); every receiver gets {@code recv.length} bytes.
     */
    public void scatter(byte[] send, byte[] recv, int root) {
        scatter.prepareScatter(send, recv, root).run(ch);
    }

    /**
     * MPI_Scatter with datatypes: {@code send} describes block 0 at the root; block i (to rank i,
     * out-neighbour i or remote rank i) starts {@code i * count} extents further. Receivers unpack
     * into {@code recv}; {@code send} matters only at the root.
     */
    public void scatter(BlockSpec send, Block recv, int root) {
        scatter.prepareScatterTyped(send, recv, root).run(ch);
    }

    /** Scatters block i ({@code sendCounts[i]} bytes at {@code displs[i]} of root's send). */
    public void scatterv(byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
        scatter.prepareScattervBytes("scatterv", send, sendCounts, displs, recv, root)
                .run(ch);
    }

    /**
     * MPI_Scatterv with datatypes (per-block types allowed): the root packs {@code send[i]} for
     * rank i, out-neighbour i or remote rank i; receivers unpack into {@code recv}. On a graph a
     * rank listing the root k times receives k blocks, unpacked one after the other into {@code
     * recv}'s packed stream.
     */
    public void scatterv(Block[] send, Block recv, int root) {
        scatter.prepareScatterv("scatterv", send, recv, root).run(ch);
    }

    // ---------------------------------------------------------------------------------------------
    // reduce, allreduce

    /** Reduces into root's {@code recv} (see the class comment for the order of operands). */
    public void reduce(byte[] send, byte[] recv, ReduceOp op, int root) {
        reduce.prepareReduceBytes(send, recv, op, root).run(ch);
    }

    /**
     * Reduces the packed streams of the {@code send} blocks into the root's {@code recv} block: the
     * operation applies element-wise to the packed bytes ({@code op.elementByteSize()} per element).
     */
    public void reduce(Block send, Block recv, ReduceOp op, int root) {
        reduce.prepareReduce(send, recv, op, root).run(ch);
    }

    /**
     * Reduces typed buffers: each block's datatype must have a homogeneous primitive signature, the
     * same primitive on both sides, and {@code op} is applied per element of that primitive (e.g.
     * {@link Reduction#SUM} over a strided float64 vector). {@code recv} matters only at the root.
     */
    public void reduce(BlockSpec send, BlockSpec recv, Reduction op, int root) {
        reduce.prepareReduce(send, recv, typedOp("reduce", send, recv, op), root)
                .run(ch);
    }

    /** Every rank gets the reduction (on a graph: of its in-neighbours' blocks, in order). */
    public void allreduce(byte[] send, byte[] recv, ReduceOp op) {
        allreduce.prepareAllreduceBytes(send, recv, op).run(ch);
    }

    /** allreduce over the packed streams of {@code send} and {@code recv} (see {@link #reduce(Block, Block, ReduceOp, int)}). */
    public void allreduce(Block send, Block recv, ReduceOp op) {
        allreduce.prepareAllreduce(send, recv, op).run(ch);
    }

    /** allreduce over typed buffers (see {@link #reduce(BlockSpec, BlockSpec, Reduction, int)}). */
    public void allreduce(BlockSpec send, BlockSpec recv, Reduction op) {
        allreduce
                .prepareAllreduce(send, recv, typedOp("allreduce", send, recv, op))
                .run(ch);
    }

    // ---------------------------------------------------------------------------------------------
    // allgather(v)

    /** Block i ({@code send.length} bytes) from rank i, in-neighbour i or remote rank i. */
    public void allgather(byte[] send, byte[] recv) {
        allgather.prepareAllgather(send, recv).run(ch);
    }

    /**
     * MPI_Allgather with datatypes: every rank packs {@code send}; the block from rank i,
     * in-neighbour i or remote rank i is unpacked into {@code recv} shifted by {@code i * count}
     * extents. On a Cartesian neighbourhood the message-combining schedule sends shared prefixes
     * of the offsets once (see {@link Schedule#allgather}).
     */
    public void allgather(Block send, BlockSpec recv) {
        allgather.prepareAllgatherTyped(send, recv).run(ch);
    }

    public void allgatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs) {
        allgather
                .prepareAllgathervBytes("allgatherv", send, recv, recvCounts, displs, 0)
                .run(ch);
    }

    /**
     * MPI_Allgatherv with datatypes (per-block types allowed): the block from rank i, in-neighbour i
     * or remote rank i is unpacked into {@code recv[i]}; see {@link BlockSpec#displaced}.
     */
    public void allgatherv(Block send, Block[] recv) {
        allgather.prepareAllgatherv("allgatherv", send, recv, 0).run(ch);
    }

    /**
     * Every rank's whole {@code send} array, of whatever length each rank chose, lands in {@code
     * recv[i]} (from rank i, in-neighbour i or remote rank i; {@code recv} has one slot per block
     * received). One round: the lengths travel with the data, where {@link #allgatherv} needs the
     * counts agreed in a round of their own first. For small descriptions of varying size
     * (e.g. what each rank will access); on a graph always the direct schedule.
     */
    public void allgatherAny(byte[] send, byte[][] recv) {
        allgather.prepareAllgatherAny(send, recv).run(ch);
    }

    // ---------------------------------------------------------------------------------------------
    // alltoall(v,w)

    /** Block i of {@code blockBytes} bytes to rank / out-neighbour / remote rank i, and back. */
    public void alltoall(byte[] send, byte[] recv, int blockBytes) {
        alltoall.prepareAlltoall(send, recv, blockBytes).run(ch);
    }

    /**
     * MPI_Alltoall with datatypes: {@code send} and {@code recv} describe block 0; block i (to and
     * from rank i, out-/in-neighbour i or remote rank i) lies {@code i * count} extents further.
     * For MPI_Alltoallv with datatypes use {@link #alltoallw} with {@link BlockSpec#displaced}.
     */
    public void alltoall(BlockSpec send, BlockSpec recv) {
        alltoall.prepareAlltoallTyped(send, recv).run(ch);
    }

    public void alltoallv(byte[] send, int[] sendCounts, int[] sdispls, byte[] recv, int[] recvCounts, int[] rdispls) {
        alltoall.prepareAlltoallv("alltoallv", send, sendCounts, sdispls, recv, recvCounts, rdispls, 0)
                .run(ch);
    }

    /**
     * Block i of {@code send} to rank / out-neighbour / remote rank i, block i of {@code recv} from
     * rank / in-neighbour / remote rank i; each block packs and unpacks itself (see {@link Block}).
     * All send blocks are packed before any receive block is unpacked, so send and receive blocks
     * may live in the same array (as halo exchanges do). On a full or bipartite communicator a block
     * of zero bytes is not sent (as MPICH does): the two sides of a pair must agree on its size, as
     * MPI requires; a rank that sends bytes to a rank expecting none, or the reverse, waits until
     * the communicator's timeout (callers that derive both sides from one shared plan, as two-phase
     * I/O does, cannot disagree). A pair that fails (a copy that throws) fails the call at both of its
     * ranks at once; every other pair still completes, so no rank waits for a block a failed peer
     * never sent.
     */
    public void alltoallw(Block[] send, Block[] recv) {
        alltoall.prepareAlltoallw("alltoallw", send, recv, 0).run(ch);
    }

    // ---------------------------------------------------------------------------------------------
    // reduce_scatter_block, scan, exscan (undefined on graphs)

    /**
     * Block i ({@code recv.length} bytes) of the reduction over all ranks (INTER: over the remote
     * group) lands at rank i.
     *
     * @throws UnsupportedOperationException on a graph communicator
     */
    public void reduceScatterBlock(byte[] send, byte[] recv, ReduceOp op) {
        reduceScatterBlock.prepareReduceScatterBlockBytes(send, recv, op).run(ch);
    }

    /**
     * reduce_scatter_block over typed buffers: {@code send}'s packed stream holds one block of
     * {@code recv}'s packed size per rank (INTER: per remote rank); block i of the element-wise
     * reduction is unpacked into rank i's {@code recv}.
     */
    public void reduceScatterBlock(BlockSpec send, BlockSpec recv, Reduction op) {
        reduceScatterBlock
                .prepareReduceScatterBlock(send, recv, typedOp("reduceScatterBlock", send, recv, op))
                .run(ch);
    }

    /** Inclusive prefix reduction in rank order (FULL only). */
    public void scan(byte[] send, byte[] recv, ReduceOp op) {
        scan.prepareScanBytes("scan", send, recv, op, false).run(ch);
    }

    /** Inclusive prefix reduction of typed buffers in rank order (FULL only). */
    public void scan(BlockSpec send, BlockSpec recv, Reduction op) {
        scan.prepareScan("scan", send, recv, typedOp("scan", send, recv, op), false)
                .run(ch);
    }

    /** Exclusive prefix reduction in rank order; rank 0's recv is untouched (FULL only). */
    public void exscan(byte[] send, byte[] recv, ReduceOp op) {
        scan.prepareScanBytes("exscan", send, recv, op, true).run(ch);
    }

    /** Exclusive prefix reduction of typed buffers; rank 0's recv is untouched (FULL only). */
    public void exscan(BlockSpec send, BlockSpec recv, Reduction op) {
        scan.prepareScan("exscan", send, recv, typedOp("exscan", send, recv, op), true)
                .run(ch);
    }
}
