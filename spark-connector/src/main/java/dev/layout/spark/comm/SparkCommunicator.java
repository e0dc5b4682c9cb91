package dev.layout.spark.comm;

import dev.layout.comm.Communicator;
import dev.layout.spark.shim.SparkShim;
import dev.layout.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import org.apache.spark.BarrierTaskContext;

/**
 * The ranks of a barrier stage as a communicator: every task is a rank (its partition id), the
 * tasks exchange endpoints once with {@link BarrierTaskContext#allGather} (about a second in Spark
 * 4.1.3, so never per iteration) and connect with the network transport. The topology module's
 * communicators, naming, graphs and collectives then run unchanged over {@link #world()}.
 *
 * <pre>{@code
 * SparkShim.barrierMapPartitions(rdd, it -> {
 *   try (SparkCommunicator sc = SparkCommunicator.connect(TransportFactory.tcp(), secret, timeout)) {
 *     Communicator world = sc.world();
 *     ...
 *   }
 * }, Result.class);
 * }</pre>
 */
public final class SparkCommunicator implements AutoCloseable {

    private final Transport transport;
    private final Communicator world;

    private SparkCommunicator(Transport transport, Duration timeout) {
        this.transport = transport;
        this.world = Communicator.world(transport, timeout);
    }

    /**
     * Connects the tasks of the current barrier stage. Must be called by every task of the stage.
     *
     * @param secret the job secret the driver shipped (see {@code SparkShim.JobKey#secret})
     * @param timeout bound of the mesh set-up and of every later wait on the communicator
     * @throws IllegalStateException outside a barrier task
     */
    public static SparkCommunicator connect(TransportFactory factory, byte[] secret, Duration timeout) {
        BarrierTaskContext ctx;
        try {
            ctx = BarrierTaskContext.get();
        } catch (RuntimeException e) {
            ctx = null;
        }
        if (ctx == null) {
            throw new IllegalStateException(
                    "sparkCommunicator: not in a barrier task (expected: rdd.barrier().mapPartitions, see BarrierLauncher)");
        }
        int rank = ctx.partitionId();
        int size = ctx.getTaskInfos().length;
        try (TransportFactory.Binding binding = factory.bind(rank, size, SparkShim.executorHost(), secret)) {
            String[] endpoints = ctx.allGather(binding.endpoint());
            Transport t = binding.connect(Arrays.asList(endpoints), timeout);
            return new SparkCommunicator(t, timeout);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "sparkCommunicator: rank " + rank + " of " + size + " could not connect: " + e.getMessage(), e);
        }
    }

    /** Wraps an already connected transport (tests, plain JVM processes). */
    public static SparkCommunicator of(Transport transport, Duration timeout) {
        return new SparkCommunicator(transport, timeout);
    }

    /** The fully connected communicator over all tasks of the stage, rank = partition id. */
    public Communicator world() {
        return world;
    }

    public Transport transport() {
        return transport;
    }

    /** Closes the communicator and the transport. */
    @Override
    public void close() {
        try {
            world.close();
        } finally {
            transport.close();
        }
    }
}
