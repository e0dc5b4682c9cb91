package dev.layout.spark.grid;

import dev.layout.cli.Options;
import dev.layout.comm.Communicator;
import dev.layout.normalize.Normalizer;
import dev.layout.spark.comm.TransportFactory;
import dev.layout.transport.JavaCommand;
import dev.layout.transport.JobSecret;
import dev.layout.transport.Transport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Per-iteration time of the 2D 9-point heat stencil, 4 ranks of 512x512 float64 (global
 * 1024x1024, process grid 2x2): barrier vs shuffle mode on local[4], against the same exchange
 * between four plain JVM processes over the network transport ({@link HaloProcessChild}: the
 * barrier loop, halo datatypes and {@code TcpTransport} of a barrier task, without Spark), and
 * four threads of one JVM over the TCP transport. Prints figures, the two
 * ratios (shuffle/barrier, target >= 20; barrier/4 JVMs, target <= 3) and the load average.
 *
 * <pre>
 *   bin/layout bench halo [--quick] [--iterations N] [--shuffle-iterations N] [--block N]
 * </pre>
 *
 * Defaults: 200 barrier iterations, 20 shuffle iterations, blocks of 512x512; {@code --quick}: 50,
 * 5 and 256x256. Spark runs in this JVM (bin/layout's class path holds it).
 */
public final class HaloBenchmark {
    static final StencilKernel HEAT = Kernels.heat(Stencil.NINE_POINT, 0.5);
    static final GridFunction INIT = x -> (x[0] + x[1]) % 7;
    static final int WARMUP = 20;
    /** Largest block side: a 4096x4096 float64 block is 128 MiB in each of the four child JVMs (-Xmx512m). */
    static final int MAX_BLOCK = 4096;

    static final String USAGE = "layout bench halo [--quick] [--iterations N] [--shuffle-iterations N] [--block N]";

    private HaloBenchmark() {}

    /** The option's value in [1, max]. */
    private static int bounded(Options o, String name, int def, int max) {
        long v = o.getLong(name, def, 1);
        if (v > max) {
            throw new IllegalArgumentException("bench halo: --" + name + " " + v + " (expected: <= " + max + ")");
        }
        return (int) v;
    }

    /** 2x2 blocks of n x n, fixed borders. */
    static DistributedGrid grid(int n) {
        return DistributedGrid.of(new int[] {2 * n, 2 * n}, new int[] {2, 2}, 1, new boolean[] {false, false});
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out));
    }

    /** {@code layout bench halo}: see the class comment. */
    public static int run(String[] args, PrintStream out) throws Exception {
        Options o = Options.parse(
                "bench halo", args, Set.of("iterations", "shuffle-iterations", "block"), Set.of("quick", "help"));
        if (o.has("help")) {
            out.println("usage: " + USAGE);
            return 0;
        }
        if (!o.positional().isEmpty()) {
            throw new IllegalArgumentException(
                    "bench halo: argument '" + o.positional().get(0) + "' (expected: " + USAGE + ")");
        }
        boolean quick = o.has("quick");
        int bi = bounded(o, "iterations", quick ? 50 : 200, 1_000_000);
        int si = bounded(o, "shuffle-iterations", quick ? 5 : 20, 1_000_000);
        int n = bounded(o, "block", quick ? 256 : 512, MAX_BLOCK);
        DistributedGrid grid = grid(n);
        out.printf(
                Locale.ROOT,
                "machine: %d cores, %s %s, %s; load average at start %.2f%n",
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"),
                System.getProperty("java.version"),
                grid,
                loadAverage());

        // the baselines first, while no Spark threads share the cores
        double jvms = fourJvms(n, bi);
        double threads = plainThreads(grid, bi);
        SparkSession spark = SparkSession.builder()
                .master("local[4]")
                .appName("halo-bench")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        try {
            // warm-up of both paths
            exchange(jsc, grid, ExchangeMode.BARRIER, WARMUP);
            exchange(jsc, grid, ExchangeMode.SHUFFLE, 3);
            HaloMetrics b = exchange(jsc, grid, ExchangeMode.BARRIER, bi);
            HaloMetrics s = exchange(jsc, grid, ExchangeMode.SHUFFLE, si);
            double bLoop = (b.packNanos() + b.wireNanos() + b.computeNanos()) / 4.0 / 1e6 / b.iterations();
            double bWall = b.millisPerIteration();
            double sWall = s.millisPerIteration();
            out.printf("barrier: %s%n", b);
            out.printf("shuffle: %s%n", s);
            out.printf(
                    Locale.ROOT,
                    "per iteration: barrier %.3f ms (loop, mean over ranks; driver wall incl. the"
                            + " ~1 s rendezvous: %.3f ms), shuffle %.3f ms, 4 JVMs over TcpTransport %.3f ms (rank 0 wall),"
                            + " 4 threads of one JVM over the TCP transport %.3f ms%n",
                    bLoop,
                    bWall,
                    sWall,
                    jvms,
                    threads);
            out.printf(
                    Locale.ROOT,
                    "ratios: shuffle/barrier %.1fx (wall: %.1fx; target >= 20),"
                            + " barrier/4 JVMs %.2fx (wall: %.2fx; target <= 3), barrier/4 threads %.2fx%n",
                    sWall / bLoop,
                    sWall / bWall,
                    bLoop / jvms,
                    bWall / jvms,
                    bLoop / threads);
            out.printf(Locale.ROOT, "load average at end %.2f%n", loadAverage());
        } finally {
            spark.stop();
        }
        return 0;
    }

    static HaloMetrics exchange(JavaSparkContext jsc, DistributedGrid grid, ExchangeMode mode, int it) {
        JavaRDD<GridBlock> blocks = grid.parallelize(jsc, INIT);
        blocks.cache().count();
        HaloExchange.Result r = HaloExchange.of(grid, Stencil.NINE_POINT)
                .mode(mode)
                .checkpoint(mode == ExchangeMode.SHUFFLE ? CheckpointPolicy.every(10) : CheckpointPolicy.NONE)
                .run(blocks, HEAT, it);
        r.blocks().unpersist(false);
        blocks.unpersist(false);
        return r.metrics();
    }

    /**
     * The barrier loop in four JVMs started from this class path ({@link HaloProcessChild}),
     * connected over {@code TcpTransport} with a fresh job secret: ms per iteration on rank 0, from a
     * barrier after the warm-up to the end of the loop's closing barrier.
     */
    static double fourJvms(int n, int iterations) throws Exception {
        int p = 4;
        JobSecret secret = JobSecret.random();
        List<Process> children = new ArrayList<>();
        try {
            List<BufferedReader> outs = new ArrayList<>();
            List<CompletableFuture<String>> endpoints = new ArrayList<>();
            for (int r = 0; r < p; r++) {
                ProcessBuilder pb = new ProcessBuilder(JavaCommand.of(
                                HaloProcessChild.class,
                                String.valueOf(r),
                                String.valueOf(p),
                                String.valueOf(n),
                                String.valueOf(WARMUP),
                                String.valueOf(iterations)))
                        .redirectError(ProcessBuilder.Redirect.INHERIT);
                pb.environment().put(JobSecret.ENV, secret.toBase64());
                Process c = pb.start();
                children.add(c);
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
                outs.add(out);
                endpoints.add(CompletableFuture.supplyAsync(() -> valueAfter(out, "ENDPOINT ")));
            }
            List<String> eps = new ArrayList<>();
            for (CompletableFuture<String> f : endpoints) {
                eps.add(f.get(2, TimeUnit.MINUTES));
            }
            for (Process c : children) {
                OutputStream in = c.getOutputStream();
                in.write(("ENDPOINTS " + String.join(",", eps) + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            }
            BufferedReader rank0 = outs.get(0);
            long nanos = Long.parseLong(CompletableFuture.supplyAsync(() -> valueAfter(rank0, "NANOS "))
                    .get(10, TimeUnit.MINUTES));
            for (int r = 0; r < p; r++) {
                Process c = children.get(r);
                if (!c.waitFor(1, TimeUnit.MINUTES) || c.exitValue() != 0) {
                    throw new IllegalStateException(
                            "haloBenchmark: rank " + r + " (pid " + c.pid() + ") did not end cleanly");
                }
            }
            return nanos / 1e6 / iterations;
        } finally {
            children.forEach(Process::destroyForcibly);
        }
    }

    /** The rest of the first line starting with {@code prefix}. */
    private static String valueAfter(BufferedReader r, String prefix) {
        try {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith(prefix)) {
                    return line.substring(prefix.length()).trim();
                }
            }
            throw new IllegalStateException("haloBenchmark: child exited before printing " + prefix.trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The barrier loop on 4 threads connected by the TCP transport over loopback: ms per iteration (max over ranks). */
    static double plainThreads(DistributedGrid grid, int iterations) throws Exception {
        int p = grid.ranks();
        byte[] secret = new byte[32];
        List<TransportFactory.Binding> bindings = new ArrayList<>();
        for (int r = 0; r < p; r++) {
            bindings.add(TransportFactory.tcp().bind(r, p, "127.0.0.1", secret));
        }
        List<String> endpoints =
                bindings.stream().map(TransportFactory.Binding::endpoint).toList();
        HaloPlan plan = HaloPlan.of(grid, Stencil.NINE_POINT, Normalizer.defaults());
        ExecutorService pool = Executors.newFixedThreadPool(p);
        try {
            List<Future<Long>> fs = new ArrayList<>();
            for (int r = 0; r < p; r++) {
                int rank = r;
                fs.add(pool.submit(() -> {
                    try (Transport t = bindings.get(rank).connect(endpoints, Duration.ofSeconds(60));
                            Communicator world = Communicator.world(t)) {
                        GridBlock b = grid.newBlock(rank, INIT);
                        HaloExchange.iterate(world, plan, b, HEAT, WARMUP, CheckpointPolicy.NONE, null);
                        long t0 = System.nanoTime();
                        HaloExchange.iterate(world, plan, b, HEAT, iterations, CheckpointPolicy.NONE, null);
                        return System.nanoTime() - t0;
                    }
                }));
            }
            long max = 0;
            for (Future<Long> f : fs) {
                max = Math.max(max, f.get());
            }
            return max / 1e6 / iterations;
        } finally {
            pool.shutdownNow();
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
