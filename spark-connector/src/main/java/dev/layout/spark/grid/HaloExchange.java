package dev.layout.spark.grid;

import dev.layout.collective.Block;
import dev.layout.collective.Collectives;
import dev.layout.collective.PersistentCollective;
import dev.layout.comm.Communicator;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.normalize.Normalizer;
import dev.layout.spark.comm.BarrierLauncher;
import dev.layout.spark.comm.ProgressReceiver;
import dev.layout.spark.comm.ProgressSender;
import dev.layout.spark.comm.TransportFactory;
import dev.layout.spark.io.HadoopConf;
import dev.layout.topology.GraphBuilder;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Iterates a {@link StencilKernel} over a {@link DistributedGrid}, exchanging halos before every
 * iteration, in either {@link ExchangeMode}. Both modes give results identical to a sequential
 * run of the same kernel.
 *
 * <pre>{@code
 * DistributedGrid grid = DistributedGrid.create(new int[] {1024, 1024}, 4, 1, new boolean[] {false, false});
 * HaloExchange.Result r = HaloExchange.of(grid, Stencil.NINE_POINT)
 *     .mode(ExchangeMode.BARRIER)
 *     .checkpoint(CheckpointPolicy.every(50, "hdfs:///tmp/heat-ckpt"))
 *     .run(grid.parallelize(jsc, init), Kernels.heat(Stencil.NINE_POINT, 0.5), 1000);
 * double[] field = grid.assemble(r.blocks().collect());
 * r.metrics();    // messages, bytes, pack / wire / compute time
 * }</pre>
 *
 * <p>Immutable; the {@code mode}, {@code checkpoint}, {@code transport}, {@code timeout} and
 * {@code progress} methods return modified copies.
 */
public final class HaloExchange implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(HaloExchange.class);

    private final DistributedGrid grid;
    private final Stencil stencil;
    private final ExchangeMode mode;
    private final CheckpointPolicy checkpoint;
    private final TransportFactory transport;
    private final Duration timeout;
    // driver-side only: never shipped with a task
    private final transient LongConsumer progress;

    private HaloExchange(
            DistributedGrid grid,
            Stencil stencil,
            ExchangeMode mode,
            CheckpointPolicy checkpoint,
            TransportFactory transport,
            Duration timeout,
            LongConsumer progress) {
        this.grid = grid;
        this.stencil = stencil;
        this.mode = mode;
        this.checkpoint = checkpoint;
        this.transport = transport;
        this.timeout = timeout;
        this.progress = progress;
    }

    /** Barrier mode, no checkpoints, the socket transport, 2 minute waits. */
    public static HaloExchange of(DistributedGrid grid, Stencil stencil) {
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(stencil, "stencil");
        grid.checkStencil(stencil);
        return new HaloExchange(
                grid,
                stencil,
                ExchangeMode.BARRIER,
                CheckpointPolicy.NONE,
                TransportFactory.tcp(),
                Duration.ofMinutes(2),
                null);
    }

    public HaloExchange mode(ExchangeMode m) {
        return new HaloExchange(
                grid, stencil, Objects.requireNonNull(m, "mode"), checkpoint, transport, timeout, progress);
    }

    public HaloExchange checkpoint(CheckpointPolicy p) {
        return new HaloExchange(
                grid, stencil, mode, Objects.requireNonNull(p, "checkpoint"), transport, timeout, progress);
    }

    public HaloExchange transport(TransportFactory f) {
        return new HaloExchange(
                grid, stencil, mode, checkpoint, Objects.requireNonNull(f, "transport"), timeout, progress);
    }

    /** Bound of every wait in barrier mode (mesh set-up, each exchange). */
    public HaloExchange timeout(Duration t) {
        if (t == null || t.isNegative() || t.isZero()) {
            throw new IllegalArgumentException("haloExchange: timeout " + t + " (expected: > 0)");
        }
        return new HaloExchange(grid, stencil, mode, checkpoint, transport, t, progress);
    }

    /**
     * Tells {@code iterationsDone} on the driver how many iterations are complete while the run goes
     * on, ending with the total. Shuffle mode calls it after each iteration's stage. Barrier mode
     * runs the whole loop in one stage, so rank 0 reports over a {@link ProgressReceiver} on the
     * driver (authenticated with the job secret, at most every {@link ProgressSender#MIN_INTERVAL});
     * if that channel cannot be set up, the run goes on and only the total is reported. Called from
     * a driver thread that is not the caller's: keep it short and thread-safe. Counts never exceed
     * the run's iterations; after a resume from a checkpoint they start at the resumed iteration.
     */
    public HaloExchange progress(LongConsumer iterationsDone) {
        return new HaloExchange(
                grid,
                stencil,
                mode,
                checkpoint,
                transport,
                timeout,
                Objects.requireNonNull(iterationsDone, "progress"));
    }

    public ExchangeMode mode() {
        return mode;
    }

    /** The blocks after the run, and what it cost. */
    public record Result(JavaRDD<GridBlock> blocks, HaloMetrics metrics) {}

    /** The region descriptors normalized, as shipped to the executors. */
    public HaloPlan plan() {
        return HaloPlan.of(grid, stencil, Normalizer.defaults());
    }

    /**
     * Runs {@code iterations} iterations of {@code kernel} on {@code blocks} (one block per rank,
     * block r in partition r, as {@link DistributedGrid#parallelize} makes them). Barrier mode runs
     * one job; shuffle mode one job per iteration. The returned RDD is materialized (barrier: cached).
     *
     * @throws IllegalArgumentException before launching when barrier mode cannot get its slots
     */
    public Result run(JavaRDD<GridBlock> blocks, StencilKernel kernel, int iterations) {
        Objects.requireNonNull(blocks, "blocks");
        Objects.requireNonNull(kernel, "kernel");
        if (iterations < 0) {
            throw new IllegalArgumentException("haloExchange: iterations " + iterations + " (expected: >= 0)");
        }
        if (blocks.getNumPartitions() != grid.ranks()) {
            throw new IllegalArgumentException("haloExchange: " + blocks.getNumPartitions() + " partitions (expected: "
                    + grid.ranks() + ", one per rank of " + grid + ")");
        }
        HaloPlan plan = plan();
        long[] db = plan.descriptorBytes();
        long[] dc = plan.descriptorCost();
        LOG.info(
                "halo descriptors for {} ranks x {} slots: {} -> {} bytes, cost {} -> {} after normalization",
                grid.ranks(),
                plan.slots(),
                db[0],
                db[1],
                dc[0],
                dc[1]);
        SparkContext sc = blocks.context();
        claimCheckpoints(sc, kernel);
        Counters c = new Counters(sc);
        long t0 = System.nanoTime();
        LongConsumer done = progress == null ? n -> {} : n -> progress.accept(Math.min(Math.max(n, 0), iterations));
        JavaRDD<GridBlock> out = mode == ExchangeMode.BARRIER
                ? runBarrier(sc, blocks, plan, kernel, iterations, c, done)
                : runShuffle(sc, blocks, plan, kernel, iterations, c, done);
        long wall = System.nanoTime() - t0;
        HaloMetrics m = new HaloMetrics(
                c.iterations.value(),
                c.messages.value(),
                c.bytes.value(),
                c.pack.value(),
                c.wire.value(),
                c.compute.value(),
                wall,
                db[0],
                db[1]);
        LOG.info("halo exchange {} {}: {}", mode, grid, m);
        return new Result(out, m);
    }

    /**
     * Claims the checkpoint directory, if any, for a run of {@code kernel} ({@code _RUN}; see {@link
     * CheckpointPolicy}), as {@link #run} does first: call it before earlier stages of a job (such as
     * reading the initial field) so that another run's directory is refused before any work.
     *
     * @throws IllegalArgumentException naming the first difference if the directory belongs to another run
     */
    public void claimCheckpoints(SparkContext sc, StencilKernel kernel) {
        // both modes: a shuffle-mode run must not reuse another run's directory either
        if (checkpoint.interval() > 0 && checkpoint.directory() != null) {
            try {
                BlockCheckpoints.claim(sc.hadoopConfiguration(), checkpoint.directory(), identity(kernel));
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "haloExchange: checkpoint directory " + checkpoint.directory() + ": " + e.getMessage(), e);
            }
        }
    }

    /** What a checkpoint directory records of the run that writes it (see {@link BlockCheckpoints#claim}). */
    java.util.Map<String, String> identity(StencilKernel kernel) {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        String job = kernel.getClass().getName();
        int lambda = job.indexOf("$$Lambda"); // a lambda's class name changes from JVM to JVM: keep its enclosing class
        m.put("job", lambda < 0 ? job : job.substring(0, lambda) + " lambda");
        m.put("grid", join(grid.globalSize()));
        m.put(
                "stencil",
                stencil.d() + "D " + stencil.metric().name().toLowerCase(java.util.Locale.ROOT) + " depth "
                        + stencil.depth());
        m.put("processes", join(grid.processGrid()));
        m.put("boundary", "periodic " + java.util.Arrays.toString(grid.periodic()));
        m.put("ghost", Integer.toString(grid.ghost()));
        return m;
    }

    private static String join(int[] a) {
        return String.join(
                "x", java.util.Arrays.stream(a).mapToObj(Integer::toString).toList());
    }

    /** Accumulators of one run (iterations counted on rank 0 only). */
    public static final class Counters implements Serializable {
        private static final long serialVersionUID = 1L;
        final LongAccumulator iterations;
        final LongAccumulator messages;
        final LongAccumulator bytes;
        final LongAccumulator pack;
        final LongAccumulator wire;
        final LongAccumulator compute;

        Counters(SparkContext sc) {
            iterations = sc.longAccumulator("layout.halo.iterations");
            messages = sc.longAccumulator("layout.halo.messages");
            bytes = sc.longAccumulator("layout.halo.bytes");
            pack = sc.longAccumulator("layout.halo.packNanos");
            wire = sc.longAccumulator("layout.halo.wireNanos");
            compute = sc.longAccumulator("layout.halo.computeNanos");
        }
    }

    // ---------------------------------------------------------------------------------------------
    // barrier

    private JavaRDD<GridBlock> runBarrier(
            SparkContext sc,
            JavaRDD<GridBlock> blocks,
            HaloPlan plan,
            StencilKernel kernel,
            int iterations,
            Counters c,
            LongConsumer done) {
        BarrierLauncher.check(sc, grid.ranks());
        CheckpointPolicy policy = checkpoint.on(HadoopConf.of(sc.hadoopConfiguration()));
        JavaRDD<GridBlock> result = BarrierStage.run(
                sc,
                grid.ranks(),
                blocks,
                "haloExchange",
                transport,
                timeout,
                progress == null ? null : done,
                (world, block, report) -> iterate(world, plan, block, kernel, iterations, policy, c, report));
        done.accept(iterations);
        return result;
    }

    private static final LongConsumer NO_PROGRESS = n -> {};

    /**
     * The barrier-mode loop of one rank over an already connected world communicator: builds the
     * stencil's graph communicator, then per iteration one persistent alltoallw with the region
     * datatypes (double-buffered: two blocks, two persistent exchanges) and one kernel call.
     * Resumes from and writes checkpoints as {@code policy} says. Public for the benchmarks and for
     * runs outside Spark (any Transport).
     */
    public static GridBlock iterate(
            Communicator world,
            HaloPlan plan,
            GridBlock block,
            StencilKernel kernel,
            int iterations,
            CheckpointPolicy policy,
            Counters c) {
        return iterate(world, plan, block, kernel, iterations, policy, c, NO_PROGRESS);
    }

    /**
     * {@link #iterate(Communicator, HaloPlan, GridBlock, StencilKernel, int, CheckpointPolicy, Counters)}
     * that also tells {@code iterationsDone} the number of complete iterations after each one (and
     * the resumed iteration first, after a restart from a checkpoint). It runs on the loop's thread:
     * it must not block (a {@link ProgressSender#report} does not).
     */
    public static GridBlock iterate(
            Communicator world,
            HaloPlan plan,
            GridBlock block,
            StencilKernel kernel,
            int iterations,
            CheckpointPolicy policy,
            Counters c,
            LongConsumer iterationsDone) {
        Objects.requireNonNull(iterationsDone, "iterationsDone");
        int rank = world.rank();
        if (block.rank() != rank) {
            throw new IllegalStateException(
                    "haloExchange: " + block + " in the task of rank " + rank + " (expected: block r in partition r)");
        }
        HaloPlan.Local local = plan.local(rank);
        Communicator g = world.cartName(plan.grid().naming())
                .createGraph(GraphBuilder.adjacent(local.sources(), local.destinations()));
        try {
            BlockCheckpoints ckpt = null;
            int first = 0;
            GridBlock start = block;
            if (policy.interval() > 0 && policy.directory() != null) {
                ckpt = new BlockCheckpoints(policy.conf(), policy.directory(), policy.aggregators());
                byte[] resume = ByteBuffer.allocate(4)
                        .putInt(rank == 0 ? ckpt.latestComplete(iterations) : 0)
                        .array();
                Collectives.on(world).bcast(resume, 0);
                first = ByteBuffer.wrap(resume).getInt();
                if (first > 0) {
                    start = block.copy(); // the input block may be cached: never written into
                    ckpt.load(world, plan.grid(), first, start);
                }
            }
            if (first > 0) {
                iterationsDone.accept(first);
            }
            GridBlock a = start.copy();
            GridBlock b = start.copy();
            Collectives coll = Collectives.on(g);
            long[] pack = {0}; // the blocks add their pack and unpack time; the rest of the exchange is wire
            PersistentCollective xa = coll.persistent()
                    .alltoallw(TimedBlock.wrap(local.sendBlocks(a), pack), TimedBlock.wrap(local.recvBlocks(a), pack));
            PersistentCollective xb = coll.persistent()
                    .alltoallw(TimedBlock.wrap(local.sendBlocks(b), pack), TimedBlock.wrap(local.recvBlocks(b), pack));
            long m0 = world.transport().sentMessages();
            long b0 = world.transport().sentBytes();
            long exchange = 0;
            long compute = 0;
            GridBlock cur = a;
            GridBlock next = b;
            for (int i = first; i < iterations; i++) {
                long t0 = System.nanoTime();
                (cur == a ? xa : xb).run();
                long t1 = System.nanoTime();
                kernel.apply(i, cur, next);
                long t2 = System.nanoTime();
                exchange += t1 - t0;
                compute += t2 - t1;
                GridBlock s = cur;
                cur = next;
                next = s;
                if (ckpt != null && policy.isDue(i + 1)) {
                    ckpt.save(world, plan.grid(), i + 1, cur);
                }
                iterationsDone.accept(i + 1);
            }
            long messages = world.transport().sentMessages() - m0;
            long bytes = world.transport().sentBytes() - b0;
            Collectives.on(world).barrier(); // nobody closes while a peer still waits for its halo
            if (c != null) {
                if (rank == 0) {
                    c.iterations.add(iterations - first);
                }
                c.messages.add(messages);
                c.bytes.add(bytes);
                c.pack.add(pack[0]);
                c.wire.add(exchange - pack[0]);
                c.compute.add(compute);
            }
            return cur;
        } catch (IOException e) {
            throw new UncheckedIOException("haloExchange: checkpoint of rank " + rank + ": " + e.getMessage(), e);
        } finally {
            g.close();
        }
    }

    /**
     * A halo block that adds the time of its pack and unpack to a counter of its rank, so the barrier
     * loop can split the alltoallw's time into pack and wire. One thread per rank runs the
     * exchange, hence a plain array.
     */
    private record TimedBlock(Block block, long[] nanos) implements Block {
        static Block[] wrap(Block[] blocks, long[] nanos) {
            Block[] out = new Block[blocks.length];
            for (int i = 0; i < blocks.length; i++) {
                out[i] = new TimedBlock(blocks[i], nanos);
            }
            return out;
        }

        @Override
        public int byteSize() {
            return block.byteSize();
        }

        @Override
        public byte[] pack() {
            long t0 = System.nanoTime();
            byte[] data = block.pack();
            nanos[0] += System.nanoTime() - t0;
            return data;
        }

        @Override
        public void unpack(byte[] data) {
            long t0 = System.nanoTime();
            block.unpack(data);
            nanos[0] += System.nanoTime() - t0;
        }
    }

    /** Counters for {@link #iterate} outside Spark: null means not counted. */
    public static Counters noCounters() {
        return null;
    }

    // ---------------------------------------------------------------------------------------------
    // shuffle

    /** One packed halo on its way to the rank whose slot it fills. */
    record Halo(int slot, byte[] data) implements Serializable {}

    private JavaRDD<GridBlock> runShuffle(
            SparkContext sc,
            JavaRDD<GridBlock> blocks,
            HaloPlan plan,
            StencilKernel kernel,
            int iterations,
            Counters c,
            LongConsumer done) {
        if (checkpoint.interval() > 0 && sc.getCheckpointDir().isEmpty() && checkpoint.directory() != null) {
            sc.setCheckpointDir(checkpoint.directory());
        }
        boolean reliable = sc.getCheckpointDir().isDefined();
        RankPartitioner partitioner = new RankPartitioner(grid.ranks());
        JavaRDD<GridBlock> cur = blocks;
        for (int i = 0; i < iterations; i++) {
            final int iteration = i;
            JavaPairRDD<Integer, Halo> halos = cur.flatMapToPair(block -> {
                        long t0 = System.nanoTime();
                        HaloPlan.Local local = plan.local(block.rank());
                        List<Tuple2<Integer, Halo>> out = new ArrayList<>(local.slots());
                        long bytes = 0;
                        for (int j = 0; j < local.slots(); j++) {
                            Datatype t = local.sendType(j);
                            if (t != null) {
                                byte[] packed = new byte[Math.toIntExact(t.byteSize())];
                                Segment.of(t, 1, block.memory(), 0).pack(Memory.ofArray(packed), 0, packed.length);
                                out.add(new Tuple2<>(plan.destination(block.rank(), j), new Halo(j, packed)));
                                bytes += packed.length;
                            }
                        }
                        c.messages.add(out.size());
                        c.bytes.add(bytes);
                        c.pack.add(System.nanoTime() - t0);
                        return out.iterator();
                    })
                    .partitionBy(partitioner);
            boolean count = true;
            JavaRDD<GridBlock> next = cur.zipPartitions(halos, (bs, hs) -> {
                GridBlock src = GridBlock.onlyBlock(bs, "haloExchange");
                GridBlock work = src.copy();
                HaloPlan.Local local = plan.local(src.rank());
                int received = 0;
                long read = 0; // pulling halos out of the shuffle: fetch and deserialization
                long unpack = 0;
                while (true) {
                    long t0 = System.nanoTime();
                    Tuple2<Integer, Halo> h = hs.hasNext() ? hs.next() : null;
                    long t1 = System.nanoTime();
                    read += t1 - t0;
                    if (h == null) {
                        break;
                    }
                    if (h._1() != src.rank()) {
                        throw new IllegalStateException("haloExchange: halo for rank " + h._1()
                                + " in the partition of " + src + " (expected: partition r holds rank r)");
                    }
                    Datatype t = local.recvType(h._2().slot());
                    Segment.of(t, 1, work.memory(), 0).unpack(Memory.ofArray(h._2().data()), 0, h._2().data().length);
                    received++;
                    unpack += System.nanoTime() - t1;
                }
                long t1 = System.nanoTime();
                GridBlock dst = work.copy();
                kernel.apply(iteration, work, dst);
                long t2 = System.nanoTime();
                c.pack.add(unpack);
                c.wire.add(read);
                c.compute.add(t2 - t1);
                if (count && src.rank() == 0) {
                    c.iterations.add(1);
                }
                if (received != local.sources().length) {
                    throw new IllegalStateException("haloExchange: rank " + src.rank() + " received " + received
                            + " halos (expected: " + local.sources().length + ")");
                }
                return List.of(dst).iterator();
            });
            next.persist(StorageLevel.MEMORY_AND_DISK());
            if (checkpoint.isDue(i + 1)) {
                if (reliable) {
                    next.checkpoint();
                } else {
                    next.rdd().localCheckpoint();
                }
            }
            next.count();
            if (cur != blocks) {
                cur.unpersist(false);
            }
            cur = next;
            done.accept(i + 1);
        }
        return cur;
    }
}
