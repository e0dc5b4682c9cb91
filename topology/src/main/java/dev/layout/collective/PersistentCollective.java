package dev.layout.collective;

import dev.layout.comm.CollectiveChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A persistent collective: arguments checked and the schedule computed once at init, then started
 * any number of times ({@code MPI_Start}). Every rank starts its handles in the same order. The
 * buffers given at init are read and written at each start; do not touch them until the start's
 * future completes.
 *
 * <pre>{@code
 * PersistentCollective halo = coll.persistent().alltoall(send, recv, 8);
 * for (int step = 0; step < steps; step++) {
 *   halo.start().join();     // or halo.run()
 * }
 * }</pre>
 */
public final class PersistentCollective {

    private final Prepared call;
    private final CollectiveChannel channel;

    PersistentCollective(Prepared call, CollectiveChannel channel) {
        this.call = call;
        this.channel = channel;
    }

    /** Starts one round; the future completes when this rank's part is done. */
    public CompletableFuture<Void> start() {
        return call.start(channel);
    }

    /**
     * Runs one round on the calling thread (start and wait).
     *
     * @throws java.io.UncheckedIOException on a timeout or a closed transport
     */
    public void run() {
        call.run(channel);
    }

    /** Waits for a started round at most the communicator timeout, rethrowing its failure. */
    public static void await(CompletableFuture<Void> round, java.time.Duration timeout) {
        try {
            round.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("collective failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("collective: not complete within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("collective: interrupted", e);
        }
    }

    /** The schedule chosen at init for graph neighbourhood exchanges, or null for other operations. */
    public Schedule schedule() {
        return call.schedule();
    }

    @Override
    public String toString() {
        return "persistent(" + call.name() + (call.schedule() == null ? "" : ", " + call.schedule()) + ")";
    }
}
