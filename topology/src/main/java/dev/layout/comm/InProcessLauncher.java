package dev.layout.comm;

import dev.layout.transport.InProcessTransport;
import dev.layout.transport.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs one body per rank, each on its own thread, over a fresh {@link InProcessTransport}: the
 * embedded mode and the test harness. The first failing rank closes the fabric, which releases
 * every peer still waiting, and its exception is rethrown to the caller (the others are attached
 * as suppressed).
 *
 * <pre>{@code
 * List<Integer> ranks = InProcessLauncher.run(4, Duration.ofSeconds(10), comm -> comm.rank());
 * }</pre>
 */
public final class InProcessLauncher {
    private InProcessLauncher() {}

    /**
     * Runs {@code body} on {@code size} ranks of a fresh world communicator and returns the results
     * in rank order. Every receive waits at most {@code timeout}; the whole run at most four times
     * that.
     *
     * @throws IllegalArgumentException if size < 1 or timeout is not positive
     * @throws IllegalStateException if the run does not end in time
     */
    public static <T> List<T> run(int size, Duration timeout, Function<Communicator, T> body) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("launch: timeout " + timeout + " (expected: > 0)");
        }
        return runOn(InProcessTransport.create(size), timeout, body);
    }

    /**
     * As {@link #run} over given connected endpoints (endpoint i is rank i of the world), for
     * instance a loopback {@code TcpTransport} fabric. A failing rank closes its own endpoint, which
     * releases the peers waiting on it; all endpoints are closed at the end.
     */
    public static <T> List<T> runOn(
            List<? extends Transport> endpoints, Duration timeout, Function<Communicator, T> body) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("launch: timeout " + timeout + " (expected: > 0)");
        }
        if (endpoints == null || endpoints.isEmpty()) {
            throw new IllegalArgumentException("launch: endpoints " + endpoints + " (expected: at least one)");
        }
        int size = endpoints.size();
        AtomicReferenceArray<T> results = new AtomicReferenceArray<>(size);
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread[] threads = new Thread[size];
        for (int i = 0; i < size; i++) {
            int rank = i;
            threads[i] = new Thread(
                    () -> {
                        Transport ep = endpoints.get(rank);
                        try (Communicator comm = Communicator.world(ep, timeout)) {
                            results.set(rank, body.apply(comm));
                        } catch (Throwable t) {
                            failures.add(t);
                            ep.close();
                        }
                    },
                    "layout-rank-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        long deadline = System.nanoTime() + timeout.multipliedBy(4).toNanos();
        try {
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    t.join(Math.max(1, left / 1_000_000));
                }
                if (t.isAlive()) {
                    endpoints.forEach(Transport::close);
                    for (Thread u : threads) {
                        u.interrupt();
                    }
                    throw new IllegalStateException(
                            "launch: ranks still running after " + timeout.multipliedBy(4) + " (expected: all done)");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            endpoints.forEach(Transport::close);
            throw new IllegalStateException("launch: interrupted while waiting for " + size + " ranks", e);
        } finally {
            endpoints.forEach(Transport::close);
        }
        if (!failures.isEmpty()) {
            Throwable first = failures.get(0);
            for (Throwable t : failures.subList(1, failures.size())) {
                if (t != first) {
                    first.addSuppressed(t);
                }
            }
            if (first instanceof RuntimeException r) {
                throw r;
            }
            if (first instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException("launch: rank failed: " + first, first);
        }
        List<T> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(results.get(i));
        }
        return out;
    }

    /** As {@link #run} for bodies without a result. */
    public static void runEach(int size, Duration timeout, Consumer<Communicator> body) {
        run(size, timeout, comm -> {
            body.accept(comm);
            return Boolean.TRUE;
        });
    }
}
