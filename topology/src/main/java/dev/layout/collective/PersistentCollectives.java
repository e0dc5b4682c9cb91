package dev.layout.collective;

import static dev.layout.collective.CollectiveAlgorithm.typedOp;
import static dev.layout.collective.CollectiveAlgorithm.whole;

/**
 * The persistent forms of the {@link Collectives} of one communicator ({@code MPI_Xxx_init}): each
 * method takes the arguments of the blocking method of the same name, checks them and computes the
 * schedule once, and returns a {@link PersistentCollective} that runs a round at each start.
 */
public final class PersistentCollectives {

    private final Collectives c;

    PersistentCollectives(Collectives c) {
        this.c = c;
    }

    // ---------------------------------------------------------------------------------------------
    // barrier

    public PersistentCollective barrier() {
        return c.barrier.prepareBarrier().persistent(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // bcast

    public PersistentCollective bcast(byte[] buffer, int root) {
        return c.bcast.prepareBcast(whole("bcast", "buffer", buffer), root).persistent(c.ch);
    }

    public PersistentCollective bcast(Block buffer, int root) {
        return c.bcast.prepareBcast(buffer, root).persistent(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // gather(v)

    public PersistentCollective gather(byte[] send, byte[] recv, int root) {
        return c.gather.prepareGather(send, recv, root).persistent(c.ch);
    }

    public PersistentCollective gather(Block send, BlockSpec recv, int root) {
        return c.gather.prepareGatherTyped(send, recv, root).persistent(c.ch);
    }

    public PersistentCollective gatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
        return c.gather
                .prepareGathervBytes("gatherv", send, recv, recvCounts, displs, root)
                .persistent(c.ch);
    }

    public PersistentCollective gatherv(Block send, Block[] recv, int root) {
        return c.gather.prepareGatherv("gatherv", "recv", send, recv, root).persistent(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // scatter(v)

    public PersistentCollective scatter(byte[] send, byte[] recv, int root) {
        return c.scatter.prepareScatter(send, recv, root).persistent(c.ch);
    }

    public PersistentCollective scatter(BlockSpec send, Block recv, int root) {
        return c.scatter.prepareScatterTyped(send, recv, root).persistent(c.ch);
    }

    public PersistentCollective scatterv(byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
        return c.scatter
                .prepareScattervBytes("scatterv", send, sendCounts, displs, recv, root)
                .persistent(c.ch);
    }

    public PersistentCollective scatterv(Block[] send, Block recv, int root) {
        return c.scatter.prepareScatterv("scatterv", send, recv, root).persistent(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // reduce, allreduce

    public PersistentCollective reduce(byte[] send, byte[] recv, ReduceOp op, int root) {
        return c.reduce.prepareReduceBytes(send, recv, op, root).persistent(c.ch);
    }

    public PersistentCollective reduce(Block send, Block recv, ReduceOp op, int root) {
        return c.reduce.prepareReduce(send, recv, op, root).persistent(c.ch);
    }

    public PersistentCollective reduce(BlockSpec send, BlockSpec recv, Reduction op, int root) {
        return c.reduce
                .prepareReduce(send, recv, typedOp("reduce", send, recv, op), root)
                .persistent(c.ch);
    }

    public PersistentCollective allreduce(byte[] send, byte[] recv, ReduceOp op) {
        return c.allreduce.prepareAllreduceBytes(send, recv, op).persistent(c.ch);
    }

    public PersistentCollective allreduce(Block send, Block recv, ReduceOp op) {
        return c.allreduce.prepareAllreduce(send, recv, op).persistent(c.ch);
    }

    public PersistentCollective allreduce(BlockSpec send, BlockSpec recv, Reduction op) {
        return c.allreduce
                .prepareAllreduce(send, recv, typedOp("allreduce", send, recv, op))
                .persistent(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // allgather(v)

    public PersistentCollective allgather(byte[] send, byte[] recv) {
        return c.allgather.prepareAllgather(send, recv).persistent(c.ch);
    }

    public PersistentCollective allgather(Block send, BlockSpec recv) {
        return c.allgather.prepareAllgatherTyped(send, recv).persistent(c.ch);
    }

    public PersistentCollective allgatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs) {
        return c.allgather
                .prepareAllgathervBytes("allgatherv", send, recv, recvCounts, displs, 0)
                .persistent(c.ch);
    }

    public PersistentCollective allgatherv(Block send, Block[] recv) {
        return c.allgather.prepareAllgatherv("allgatherv", send, recv, 0).persistent(c.ch);
    }

    /** Each start sends {@code send}'s contents at that time and refills {@code recv}'s slots. */
    public PersistentCollective allgatherAny(byte[] send, byte[][] recv) {
        return c.allgather.prepareAllgatherAny(send, recv).persistent(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // alltoall(v,w)

    public PersistentCollective alltoall(byte[] send, byte[] recv, int blockBytes) {
        return c.alltoall.prepareAlltoall(send, recv, blockBytes).persistent(c.ch);
    }

    public PersistentCollective alltoall(BlockSpec send, BlockSpec recv) {
        return c.alltoall.prepareAlltoallTyped(send, recv).persistent(c.ch);
    }

    public PersistentCollective alltoallv(
            byte[] send, int[] sendCounts, int[] sdispls, byte[] recv, int[] recvCounts, int[] rdispls) {
        return c.alltoall
                .prepareAlltoallv("alltoallv", send, sendCounts, sdispls, recv, recvCounts, rdispls, 0)
                .persistent(c.ch);
    }

    public PersistentCollective alltoallw(Block[] send, Block[] recv) {
        return c.alltoall.prepareAlltoallw("alltoallw", send, recv, 0).persistent(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // reduce_scatter_block, scan, exscan (undefined on graphs)

    public PersistentCollective reduceScatterBlock(byte[] send, byte[] recv, ReduceOp op) {
        return c.reduceScatterBlock
                .prepareReduceScatterBlockBytes(send, recv, op)
                .persistent(c.ch);
    }

    public PersistentCollective reduceScatterBlock(BlockSpec send, BlockSpec recv, Reduction op) {
        return c.reduceScatterBlock
                .prepareReduceScatterBlock(send, recv, typedOp("reduceScatterBlock", send, recv, op))
                .persistent(c.ch);
    }

    public PersistentCollective scan(byte[] send, byte[] recv, ReduceOp op) {
        return c.scan.prepareScanBytes("scan", send, recv, op, false).persistent(c.ch);
    }

    public PersistentCollective scan(BlockSpec send, BlockSpec recv, Reduction op) {
        return c.scan.prepareScan("scan", send, recv, typedOp("scan", send, recv, op), false)
                .persistent(c.ch);
    }

    public PersistentCollective exscan(byte[] send, byte[] recv, ReduceOp op) {
        return c.scan.prepareScanBytes("exscan", send, recv, op, true).persistent(c.ch);
    }

    public PersistentCollective exscan(BlockSpec send, BlockSpec recv, Reduction op) {
        return c.scan.prepareScan("exscan", send, recv, typedOp("exscan", send, recv, op), true)
                .persistent(c.ch);
    }
}
