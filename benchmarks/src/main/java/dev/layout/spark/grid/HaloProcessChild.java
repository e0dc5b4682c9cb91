package dev.layout.spark.grid;

import dev.layout.collective.Collectives;
import dev.layout.comm.Communicator;
import dev.layout.normalize.Normalizer;
import dev.layout.spark.comm.SparkCommunicator;
import dev.layout.spark.comm.TransportFactory;
import dev.layout.transport.JobSecret;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * One rank of {@link HaloBenchmark}'s process baseline: a plain JVM (no Spark context) running
 * exactly the barrier-mode loop a barrier task runs ({@link HaloExchange#iterate}: the same
 * normalized halo datatypes, one persistent alltoallw per iteration over the stencil's graph
 * communicator) over the same transport ({@link TransportFactory#tcp()}, {@code TcpTransport}).
 *
 * <p>Protocol on stdin/stdout: args {@code RANK RANKS BLOCK WARMUP ITERATIONS}, the job secret in
 * {@code $LAYOUT_JOB_SECRET}; prints {@code ENDPOINT host:port}, reads {@code ENDPOINTS e0,e1,...},
 * runs WARMUP then ITERATIONS timed iterations (from a barrier to the end of the loop's closing
 * barrier) and prints {@code NANOS t}. Exit 0 on success, 1 on failure.
 */
public final class HaloProcessChild {
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private HaloProcessChild() {}

    public static void main(String[] args) {
        try {
            int rank = Integer.parseInt(args[0]);
            int ranks = Integer.parseInt(args[1]);
            int n = Integer.parseInt(args[2]);
            int warmup = Integer.parseInt(args[3]);
            int iterations = Integer.parseInt(args[4]);
            // base64 of a JobSecret: the same bytes the driver would ship to barrier tasks
            byte[] secret = java.util.Base64.getDecoder().decode(System.getenv(JobSecret.ENV));
            try (TransportFactory.Binding binding = TransportFactory.tcp().bind(rank, ranks, "127.0.0.1", secret)) {
                System.out.println("ENDPOINT " + binding.endpoint());
                System.out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String line = in.readLine();
                if (line == null || !line.startsWith("ENDPOINTS ")) {
                    throw new IllegalStateException("haloProcessChild: expected ENDPOINTS on stdin, got " + line);
                }
                List<String> endpoints = Arrays.asList(
                        line.substring("ENDPOINTS ".length()).trim().split(","));
                try (SparkCommunicator comm = SparkCommunicator.of(binding.connect(endpoints, TIMEOUT), TIMEOUT)) {
                    Communicator world = comm.world();
                    HaloPlan plan = HaloPlan.of(HaloBenchmark.grid(n), Stencil.NINE_POINT, Normalizer.defaults());
                    GridBlock block = HaloBenchmark.grid(n).newBlock(rank, HaloBenchmark.INIT);
                    HaloExchange.iterate(world, plan, block, HaloBenchmark.HEAT, warmup, CheckpointPolicy.NONE, null);
                    Collectives.on(world).barrier();
                    long t0 = System.nanoTime();
                    HaloExchange.iterate(
                            world, plan, block, HaloBenchmark.HEAT, iterations, CheckpointPolicy.NONE, null);
                    long t = System.nanoTime() - t0;
                    System.out.println("NANOS " + t);
                    System.out.flush();
                }
            }
            System.exit(0);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
    }
}
