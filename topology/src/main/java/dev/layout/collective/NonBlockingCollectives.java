package dev.layout.collective;

import static dev.layout.collective.CollectiveAlgorithm.typedOp;
import static dev.layout.collective.CollectiveAlgorithm.whole;

import java.util.concurrent.CompletableFuture;

/**
 * The non-blocking forms of the {@link Collectives} of one communicator ({@code MPI_Ixxx}): each
 * method takes the arguments of the blocking method of the same name, checks them and takes the
 * round's place in the call order on the calling thread, and returns a future that completes when
 * this rank's part is done. Do not touch the buffers until then.
 *
 * <pre>{@code
 * CompletableFuture<Void> halo = coll.nonBlocking().alltoallw(send, recv);
 * interior.run();                                          // overlap
 * PersistentCollective.await(halo, timeout);
 * }</pre>
 */
public final class NonBlockingCollectives {

    private final Collectives c;

    NonBlockingCollectives(Collectives c) {
        this.c = c;
    }

    // ---------------------------------------------------------------------------------------------
    // barrier

    public CompletableFuture<Void> barrier() {
        return c.barrier.prepareBarrier().start(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // bcast

    public CompletableFuture<Void> bcast(byte[] buffer, int root) {
        return c.bcast.prepareBcast(whole("bcast", "buffer", buffer), root).start(c.ch);
    }

    public CompletableFuture<Void> bcast(Block buffer, int root) {
        return c.bcast.prepareBcast(buffer, root).start(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // gather(v)

    public CompletableFuture<Void> gather(byte[] send, byte[] recv, int root) {
        return c.gather.prepareGather(send, recv, root).start(c.ch);
    }

    public CompletableFuture<Void> gather(Block send, BlockSpec recv, int root) {
        return c.gather.prepareGatherTyped(send, recv, root).start(c.ch);
    }

    public CompletableFuture<Void> gatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs, int root) {
        return c.gather
                .prepareGathervBytes("gatherv", send, recv, recvCounts, displs, root)
                .start(c.ch);
    }

    public CompletableFuture<Void> gatherv(Block send, Block[] recv, int root) {
        return c.gather.prepareGatherv("gatherv", "recv", send, recv, root).start(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // scatter(v)

    public CompletableFuture<Void> scatter(byte[] send, byte[] recv, int root) {
        return c.scatter.prepareScatter(send, recv, root).start(c.ch);
    }

    public CompletableFuture<Void> scatter(BlockSpec send, Block recv, int root) {
        return c.scatter.prepareScatterTyped(send, recv, root).start(c.ch);
    }

    public CompletableFuture<Void> scatterv(byte[] send, int[] sendCounts, int[] displs, byte[] recv, int root) {
        return c.scatter
                .prepareScattervBytes("scatterv", send, sendCounts, displs, recv, root)
                .start(c.ch);
    }

    public CompletableFuture<Void> scatterv(Block[] send, Block recv, int root) {
        return c.scatter.prepareScatterv("scatterv", send, recv, root).start(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // reduce, allreduce

    public CompletableFuture<Void> reduce(byte[] send, byte[] recv, ReduceOp op, int root) {
        return c.reduce.prepareReduceBytes(send, recv, op, root).start(c.ch);
    }

    public CompletableFuture<Void> reduce(Block send, Block recv, ReduceOp op, int root) {
        return c.reduce.prepareReduce(send, recv, op, root).start(c.ch);
    }

    public CompletableFuture<Void> reduce(BlockSpec send, BlockSpec recv, Reduction op, int root) {
        return c.reduce
                .prepareReduce(send, recv, typedOp("reduce", send, recv, op), root)
                .start(c.ch);
    }

    public CompletableFuture<Void> allreduce(byte[] send, byte[] recv, ReduceOp op) {
        return c.allreduce.prepareAllreduceBytes(send, recv, op).start(c.ch);
    }

    public CompletableFuture<Void> allreduce(Block send, Block recv, ReduceOp op) {
        return c.allreduce.prepareAllreduce(send, recv, op).start(c.ch);
    }

    public CompletableFuture<Void> allreduce(BlockSpec send, BlockSpec recv, Reduction op) {
        return c.allreduce
                .prepareAllreduce(send, recv, typedOp("allreduce", send, recv, op))
                .start(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // allgather(v)

    public CompletableFuture<Void> allgather(byte[] send, byte[] recv) {
        return c.allgather.prepareAllgather(send, recv).start(c.ch);
    }

    public CompletableFuture<Void> allgather(Block send, BlockSpec recv) {
        return c.allgather.prepareAllgatherTyped(send, recv).start(c.ch);
    }

    public CompletableFuture<Void> allgatherv(byte[] send, byte[] recv, int[] recvCounts, int[] displs) {
        return c.allgather
                .prepareAllgathervBytes("allgatherv", send, recv, recvCounts, displs, 0)
                .start(c.ch);
    }

    public CompletableFuture<Void> allgatherv(Block send, Block[] recv) {
        return c.allgather.prepareAllgatherv("allgatherv", send, recv, 0).start(c.ch);
    }

    public CompletableFuture<Void> allgatherAny(byte[] send, byte[][] recv) {
        return c.allgather.prepareAllgatherAny(send, recv).start(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // alltoall(v,w)

    public CompletableFuture<Void> alltoall(byte[] send, byte[] recv, int blockBytes) {
        return c.alltoall.prepareAlltoall(send, recv, blockBytes).start(c.ch);
    }

    public CompletableFuture<Void> alltoall(BlockSpec send, BlockSpec recv) {
        return c.alltoall.prepareAlltoallTyped(send, recv).start(c.ch);
    }

    public CompletableFuture<Void> alltoallv(
            byte[] send, int[] sendCounts, int[] sdispls, byte[] recv, int[] recvCounts, int[] rdispls) {
        return c.alltoall
                .prepareAlltoallv("alltoallv", send, sendCounts, sdispls, recv, recvCounts, rdispls, 0)
                .start(c.ch);
    }

    public CompletableFuture<Void> alltoallw(Block[] send, Block[] recv) {
        return c.alltoall.prepareAlltoallw("alltoallw", send, recv, 0).start(c.ch);
    }

    // ---------------------------------------------------------------------------------------------
    // reduce_scatter_block, scan, exscan (undefined on graphs)

    public CompletableFuture<Void> reduceScatterBlock(byte[] send, byte[] recv, ReduceOp op) {
        return c.reduceScatterBlock
                .prepareReduceScatterBlockBytes(send, recv, op)
                .start(c.ch);
    }

    public CompletableFuture<Void> reduceScatterBlock(BlockSpec send, BlockSpec recv, Reduction op) {
        return c.reduceScatterBlock
                .prepareReduceScatterBlock(send, recv, typedOp("reduceScatterBlock", send, recv, op))
                .start(c.ch);
    }

    public CompletableFuture<Void> scan(byte[] send, byte[] recv, ReduceOp op) {
        return c.scan.prepareScanBytes("scan", send, recv, op, false).start(c.ch);
    }

    public CompletableFuture<Void> scan(BlockSpec send, BlockSpec recv, Reduction op) {
        return c.scan.prepareScan("scan", send, recv, typedOp("scan", send, recv, op), false)
                .start(c.ch);
    }

    public CompletableFuture<Void> exscan(byte[] send, byte[] recv, ReduceOp op) {
        return c.scan.prepareScanBytes("exscan", send, recv, op, true).start(c.ch);
    }

    public CompletableFuture<Void> exscan(BlockSpec send, BlockSpec recv, Reduction op) {
        return c.scan.prepareScan("exscan", send, recv, typedOp("exscan", send, recv, op), true)
                .start(c.ch);
    }
}
