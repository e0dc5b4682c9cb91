package dev.layout.spark.grid;

import dev.layout.comm.Communicator;
import dev.layout.spark.comm.ProgressReceiver;
import dev.layout.spark.comm.ProgressSender;
import dev.layout.spark.comm.SparkCommunicator;
import dev.layout.spark.comm.TransportFactory;
import dev.layout.spark.shim.SparkShim;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.function.LongConsumer;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * One barrier stage over the blocks of a distributed grid: every task connects the world
 * communicator of the ranks (authenticated with the job's secret, which the closure never
 * carries), runs one rank's part on its one block, and rank 0 reports progress to the driver. The
 * stage ends in a shuffle that keeps block r in partition r, because Spark retries a failed barrier
 * ShuffleMapStage but never a barrier ResultStage.
 */
public final class BarrierStage {
    private BarrierStage() {}

    /** One rank's part: its block and the connected world communicator in, its new block out. */
    @FunctionalInterface
    public interface RankBody extends Serializable {
        /** {@code report} takes the steps done so far (rank 0 only; it must not block). */
        GridBlock run(Communicator world, GridBlock block, LongConsumer report) throws Exception;
    }

    private static final LongConsumer NO_PROGRESS = n -> {};

    /**
     * Runs {@code body} on every rank of {@code blocks} (one block per partition, {@code ranks}
     * partitions) and returns the new blocks, persisted and computed, partition r holding block r.
     * Until it returns, {@code progress} (null: none) receives on the driver what rank 0 reports.
     *
     * @param op the operation named in the error for a partition without exactly one block
     */
    public static JavaRDD<GridBlock> run(
            SparkContext sc,
            int ranks,
            JavaRDD<GridBlock> blocks,
            String op,
            TransportFactory factory,
            Duration timeout,
            LongConsumer progress,
            RankBody body) {
        SparkShim.JobKey key = SparkShim.jobKey(sc); // the closure carries a salt, never the secret
        ProgressReceiver receiver = progress == null ? null : ProgressReceiver.forDriver(sc, key.secret(), progress);
        ProgressReceiver.Address reportTo = receiver == null ? null : receiver.address();
        try {
            JavaRDD<GridBlock> out = SparkShim.barrierMapPartitions(
                    blocks,
                    it -> {
                        GridBlock block = GridBlock.onlyBlock(it, op);
                        byte[] secret = key.secret();
                        try (SparkCommunicator comm = SparkCommunicator.connect(factory, secret, timeout);
                                ProgressSender sender = comm.world().rank() == 0 && reportTo != null
                                        ? ProgressSender.start(reportTo, secret)
                                        : null) {
                            LongConsumer report = sender == null ? NO_PROGRESS : sender::report;
                            return List.of(body.run(comm.world(), block, report))
                                    .iterator();
                        }
                    },
                    GridBlock.class);
            JavaRDD<GridBlock> result = out.mapToPair(b -> new Tuple2<>(b.rank(), b))
                    .partitionBy(new RankPartitioner(ranks))
                    .values();
            result.persist(StorageLevel.MEMORY_AND_DISK());
            SparkShim.interruptingOnCancel(sc, result::count);
            return result;
        } finally {
            if (receiver != null) {
                receiver.close(); // before the caller reports its total, so that no late report follows it
            }
        }
    }
}
