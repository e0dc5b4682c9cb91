package dev.layout.spark.grid;

import dev.layout.comm.Communicator;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import dev.layout.spark.comm.BarrierLauncher;
import dev.layout.spark.comm.SparkCommunicator;
import dev.layout.spark.comm.TransportFactory;
import dev.layout.spark.io.CollectiveFile;
import dev.layout.spark.io.IoResult;
import dev.layout.spark.shim.SparkShim;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * A distributed grid's field as one raw file (C order, no header), read and written collectively
 * on the executors: every rank reads or writes exactly its block's interior through a subarray
 * file view ({@link #view}), with {@link CollectiveFile}'s readAll / writeAll over the barrier
 * stage's communicator. The driver only describes the file and, after a write, commits it
 * (metadata: concat and rename); no block passes through it.
 *
 * <pre>{@code
 * JavaRDD<GridBlock> blocks = GridFiles.read(jsc, grid, boundary, CollectiveFile.of(conf, "hdfs:///in/field.f64"), timeout);
 * ... HaloExchange ...
 * GridFiles.Closing c = GridFiles.close(result, grid, CollectiveFile.of(conf, "hdfs:///out/field.f64").deferCommit(),
 *     GridFiles.Cells.FLOAT64, 1024, timeout);
 * c.stats().max(); c.thumbnail().means(); c.write().summary();
 * }</pre>
 */
public final class GridFiles {
    private GridFiles() {}

    /** How a cell is stored in the file. */
    public enum Cells {
        /** The value as little-endian float64 (the heat field). */
        FLOAT64,
        /** One byte, 1 for a non-zero value, 0 otherwise (a Life board). */
        BYTE
    }

    /** Rank's block of the global array in the file: a subarray filetype of {@code cells}. */
    public static FileView view(DistributedGrid grid, int rank, Cells cells) {
        Primitive etype = cells == Cells.FLOAT64 ? Primitive.FLOAT64 : Primitive.UINT8;
        int[] n = grid.globalSize();
        int[] b = grid.blockSize(rank);
        int[] s = grid.blockStart(rank);
        long[] sizes = new long[n.length];
        long[] sub = new long[n.length];
        long[] starts = new long[n.length];
        for (int a = 0; a < n.length; a++) {
            sizes[a] = n[a];
            sub[a] = b[a];
            starts[a] = s[a];
        }
        return new FileView(0, etype, Datatype.subarray(sizes, sub, starts, Order.C, etype));
    }

    /** The interior of rank's local array (ghosts excluded), as a datatype over the block's memory. */
    public static Datatype interior(DistributedGrid grid, int rank) {
        return grid.haloSendType(rank, new int[grid.d()]);
    }

    /**
     * One block per rank (block r in partition r, materialized and cached), each made by {@code
     * init} (which gives the ghosts outside the domain) with its interior read from {@code file}
     * (C-order float64 of exactly the grid's size) by the rank's executor.
     *
     * @throws IllegalArgumentException before launching when the cluster cannot run every rank at once
     */
    public static JavaRDD<GridBlock> read(
            JavaSparkContext jsc, DistributedGrid grid, GridFunction init, CollectiveFile file, Duration timeout) {
        return read(
                jsc,
                grid,
                init,
                file,
                (world, f, block) -> f.readAll(
                        world,
                        view(grid, block.rank(), Cells.FLOAT64),
                        0,
                        block.memory(),
                        0,
                        interior(grid, block.rank()),
                        1),
                timeout);
    }

    /** What one rank reads of a file into its block, collectively with the other ranks (every rank calls it once). */
    @FunctionalInterface
    public interface RankRead extends Serializable {
        void read(Communicator world, CollectiveFile file, GridBlock block) throws IOException;
    }

    /**
     * As {@link #read(JavaSparkContext, DistributedGrid, GridFunction, CollectiveFile, Duration)},
     * with each rank's block filled by {@code read} (for files in other layouts, such as a bitmap's
     * rows).
     */
    public static JavaRDD<GridBlock> read(
            JavaSparkContext jsc,
            DistributedGrid grid,
            GridFunction init,
            CollectiveFile file,
            RankRead read,
            Duration timeout) {
        BarrierLauncher.check(jsc.sc(), grid.ranks());
        SparkShim.JobKey key = SparkShim.jobKey(jsc.sc());
        TransportFactory factory = TransportFactory.tcp();
        List<Integer> ranks = IntStream.range(0, grid.ranks()).boxed().collect(Collectors.toList());
        JavaRDD<GridBlock> loaded = SparkShim.barrierMapPartitions(
                jsc.parallelize(ranks, grid.ranks()),
                it -> {
                    int rank = it.next();
                    GridBlock block = grid.newBlock(rank, init);
                    try (SparkCommunicator comm = SparkCommunicator.connect(factory, key.secret(), timeout)) {
                        read.read(comm.world(), file, block);
                    }
                    return List.of(block).iterator();
                },
                GridBlock.class);
        // as HaloExchange does: end the barrier stage with a shuffle, so that Spark may retry it
        JavaRDD<GridBlock> out = loaded.mapToPair(b -> new Tuple2<>(b.rank(), b))
                .partitionBy(new RankPartitioner(grid.ranks()))
                .values();
        out.persist(StorageLevel.MEMORY_AND_DISK());
        SparkShim.interruptingOnCancel(jsc.sc(), out::count);
        return out;
    }

    /** What the closing stage brings back to the driver: a few numbers, a picture and the write. */
    public record Closing(GridStats stats, Thumbnail thumbnail, IoResult write) implements Serializable {}

    /** One rank's part of a {@link Closing}. */
    record RankClosing(int rank, GridStats stats, Thumbnail thumbnail, IoResult write) implements Serializable {}

    /**
     * The closing barrier stage of a run: every rank writes its block's interior into {@code file}
     * (null: no file), the statistics are reduced over the communicator, and each rank computes its
     * part of a thumbnail of at most {@code thumbnailMax x thumbnailMax} tiles. The driver collects
     * one small record per rank, sums the thumbnail and commits a {@link CollectiveFile#deferCommit
     * deferred} file; if anything fails, the file's parts are removed and nothing appears.
     */
    public static Closing close(
            JavaRDD<GridBlock> blocks,
            DistributedGrid grid,
            CollectiveFile file,
            Cells cells,
            int thumbnailMax,
            Duration timeout)
            throws IOException {
        BarrierLauncher.check(blocks.context(), grid.ranks());
        SparkShim.JobKey key = SparkShim.jobKey(blocks.context());
        TransportFactory factory = TransportFactory.tcp();
        try {
            JavaRDD<RankClosing> stage = SparkShim.barrierMapPartitions(
                    blocks,
                    it -> {
                        GridBlock block = GridBlock.onlyBlock(it, "gridFiles");
                        try (SparkCommunicator comm = SparkCommunicator.connect(factory, key.secret(), timeout)) {
                            Communicator world = comm.world();
                            GridStats stats = GridStats.of(block).allreduce(world);
                            IoResult io = file == null ? null : write(world, grid, block, file, cells);
                            return List.of(new RankClosing(
                                            block.rank(), stats, Thumbnail.partial(grid, block, thumbnailMax), io))
                                    .iterator();
                        }
                    },
                    RankClosing.class);
            List<RankClosing> parts = SparkShim.interruptingOnCancel(blocks.context(), stage::collect);
            Thumbnail picture = Thumbnail.empty(grid, thumbnailMax);
            RankClosing first = null;
            for (RankClosing p : parts) {
                picture.add(p.thumbnail());
                if (p.rank() == 0) {
                    first = p;
                }
            }
            if (first == null) {
                throw new IllegalStateException(
                        "gridFiles: no result from rank 0 among " + parts.size() + " (expected: one per rank)");
            }
            if (file != null && file.isCommitDeferred()) {
                file.commit(first.write());
            }
            return new Closing(first.stats(), picture, first.write());
        } catch (IOException | RuntimeException e) {
            if (file != null) {
                try {
                    file.abort();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private static IoResult write(
            Communicator world, DistributedGrid grid, GridBlock block, CollectiveFile file, Cells cells) {
        int rank = block.rank();
        try {
            if (cells == Cells.FLOAT64) {
                return file.writeAll(world, view(grid, rank, cells), 0, block.memory(), 0, interior(grid, rank), 1);
            }
            byte[] bytes = bytesOf(block);
            return file.writeAll(
                    world,
                    view(grid, rank, cells),
                    0,
                    Memory.ofArray(bytes),
                    0,
                    Datatype.contiguous(bytes.length, Primitive.UINT8),
                    1);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "gridFiles: rank " + rank + " writing " + file.path() + ": " + e.getMessage(), e);
        }
    }

    /** The interior of {@code block} as bytes, 1 for a non-zero cell (C order). */
    static byte[] bytesOf(GridBlock block) {
        int[] n = block.interior();
        int d = n.length;
        int g = block.ghost();
        long total = 1;
        for (int x : n) {
            total *= x;
        }
        byte[] out = new byte[Math.toIntExact(total)];
        int[] c = new int[d];
        int[] local = new int[d];
        for (int k = 0; k < out.length; k++) {
            for (int a = 0; a < d; a++) {
                local[a] = c[a] + g;
            }
            out[k] = block.get(block.index(local)) != 0 ? (byte) 1 : 0;
            for (int a = d - 1; a >= 0 && ++c[a] == n[a]; a--) {
                c[a] = 0;
            }
        }
        return out;
    }
}
