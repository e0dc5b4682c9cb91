package dev.layout.collective;

import dev.layout.collective.SuiteLink.Kind;
import dev.layout.collective.SuiteLink.Message;
import dev.layout.comm.Communicator;
import dev.layout.transport.Endpoint;
import dev.layout.transport.JobSecret;
import dev.layout.transport.TcpOptions;
import dev.layout.transport.TcpTransport;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * The process mode of {@link Harness#run} (used by {@link ClusterIT} through {@link
 * ClusterSuiteChild}): this JVM is process {@code jvm} of {@code jvms} JVMs that run the same test
 * classes in lockstep. For a run of n ranks it hosts the ranks r with {@code r % jvms == jvm} as
 * threads, each on its own {@link TcpTransport} bound to a loopback port; the endpoints of all n
 * ranks are exchanged through the {@link SuiteCoordinator}, which first checks that every JVM is at
 * the same run (test id, run index in the test, n). When the local ranks are done, their outcomes
 * (result or failure) are serialized and gathered through the coordinator, so every JVM returns the
 * same list in rank order, or rethrows the same failure, as {@code InProcessLauncher} does for
 * threads. Transports are closed only after that gather: a rank whose body returned may still be
 * the sender of a message that a rank in another JVM has not received yet.
 */
final class ProcessRanks {
    /** Set by {@link ClusterSuiteChild}; null in ordinary (single-JVM) test runs. */
    static volatile ProcessRanks current;

    private final int jvm;
    private final int jvms;
    private final JobSecret secret;
    private final TcpOptions options;
    private final DataInputStream in;
    private final DataOutputStream out;
    private String testId = "<before the first test>";
    private int run;
    private long runs;

    ProcessRanks(int jvm, int jvms, JobSecret secret, TcpOptions options, DataInputStream in, DataOutputStream out) {
        this.jvm = jvm;
        this.jvms = jvms;
        this.secret = secret;
        this.options = options;
        this.in = in;
        this.out = out;
    }

    /** One rank's outcome as it travels between the JVMs: a result, or the failure and when it happened. */
    record RankOutcome(int rank, int jvm, Object result, Throwable failure, long failedAtMicros)
            implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** Called by the launcher listener when a test starts: runs are numbered per test. */
    synchronized void startTest(String uniqueId) {
        testId = uniqueId;
        run = 0;
    }

    /** Runs completed so far (every JVM takes part in every run, with or without local ranks). */
    synchronized long runs() {
        return runs;
    }

    synchronized <T> List<T> run(int n, Duration timeout, Function<Communicator, T> body) {
        if (n < 1) {
            throw new IllegalArgumentException("launch: size " + n + " (expected: >= 1)");
        }
        int[] local = java.util.stream.IntStream.range(0, n)
                .filter(r -> r % jvms == jvm)
                .toArray();
        int thisRun = run++;
        List<TcpTransport.Listener> listeners = new ArrayList<>();
        List<TcpTransport> transports = new ArrayList<>();
        List<RankOutcome> all;
        try {
            List<byte[]> endpoints = new ArrayList<>();
            for (int r : local) {
                TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
                listeners.add(l);
                endpoints.add(l.endpoint().toString().getBytes(StandardCharsets.UTF_8));
            }
            Message go = exchange(new Message(Kind.RUN, testId, thisRun, n, endpoints, ""), Kind.ENDPOINTS);
            List<Endpoint> eps = go.items().stream()
                    .map(b -> Endpoint.parse(new String(b, StandardCharsets.UTF_8)))
                    .toList();
            for (int i = 0; i < local.length; i++) {
                transports.add(listeners.get(i).open(local[i], eps, secret, options));
            }
            List<byte[]> mine = new ArrayList<>();
            for (RankOutcome o : runLocal(local, transports, timeout, body)) {
                mine.add(serialize(o));
            }
            Message done = exchange(new Message(Kind.DONE, testId, thisRun, n, mine, ""), Kind.OUTCOMES);
            all = new ArrayList<>();
            for (byte[] b : done.items()) {
                all.add((RankOutcome) SuiteLink.deserialize(b));
            }
        } catch (IOException e) {
            // no listener, or the lockstep with the other JVMs is lost: nothing after this run could be trusted
            System.err.println(
                    "process mode: JVM " + jvm + " cannot go on at " + testId + " run " + thisRun + ": " + e);
            System.err.flush();
            Runtime.getRuntime().halt(3);
            throw new IllegalStateException("unreachable", e);
        } finally {
            listeners.forEach(TcpTransport.Listener::close);
            transports.forEach(TcpTransport::close);
        }
        runs++;
        return resultsOrFirstFailure(n, all);
    }

    private Message exchange(Message m, Kind expected) throws IOException {
        SuiteLink.write(out, m);
        Message reply = SuiteLink.read(in);
        if (reply.kind() == Kind.ABORT) {
            throw new IOException("coordinator aborted the suite: " + reply.text());
        }
        if (reply.kind() != expected || !reply.testId().equals(m.testId()) || reply.run() != m.run()) {
            throw new IOException("coordinator answered " + reply.kind() + " for " + reply.runName() + " (expected: "
                    + expected + " for " + m.runName() + ")");
        }
        return reply;
    }

    /** The local ranks as threads; a failing rank closes its transport at once, which releases the peers waiting on it. */
    private <T> List<RankOutcome> runLocal(
            int[] local, List<TcpTransport> transports, Duration timeout, Function<Communicator, T> body) {
        AtomicReferenceArray<RankOutcome> outcomes = new AtomicReferenceArray<>(local.length);
        Thread[] threads = new Thread[local.length];
        for (int i = 0; i < local.length; i++) {
            int index = i;
            threads[i] = new Thread(
                    () -> {
                        TcpTransport t = transports.get(index);
                        try (Communicator comm = Communicator.world(t, timeout)) {
                            outcomes.set(index, new RankOutcome(local[index], jvm, body.apply(comm), null, 0));
                        } catch (Throwable e) {
                            outcomes.set(index, failed(local[index], e));
                            t.close();
                        }
                    },
                    "layout-rank-" + local[i]);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        // as InProcessLauncher: the whole run at most four receive timeouts
        long deadline = System.nanoTime() + timeout.multipliedBy(4).toNanos();
        for (int i = 0; i < local.length; i++) {
            try {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    threads[i].join(Math.max(1, left / 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (threads[i].isAlive()) {
                transports.forEach(TcpTransport::close);
                for (Thread u : threads) {
                    u.interrupt();
                }
                outcomes.compareAndSet(
                        i,
                        null,
                        failed(
                                local[i],
                                new IllegalStateException("launch: rank " + local[i] + " still running after "
                                        + timeout.multipliedBy(4) + " (expected: all done)")));
            }
        }
        List<RankOutcome> list = new ArrayList<>();
        for (int i = 0; i < local.length; i++) {
            list.add(outcomes.get(i));
        }
        return list;
    }

    private RankOutcome failed(int rank, Throwable e) {
        Instant now = Instant.now();
        return new RankOutcome(rank, jvm, null, e, now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000);
    }

    /** Serialized for the other JVMs; an unserializable failure travels as its text, an unserializable result as a failure. */
    private static byte[] serialize(RankOutcome o) throws IOException {
        try {
            return SuiteLink.serialize(o);
        } catch (NotSerializableException e) {
            Throwable f = o.failure();
            if (f != null) {
                AssertionError text = new AssertionError(f.toString());
                text.setStackTrace(f.getStackTrace());
                return SuiteLink.serialize(new RankOutcome(o.rank(), o.jvm(), null, text, o.failedAtMicros()));
            }
            return SuiteLink.serialize(new RankOutcome(
                    o.rank(),
                    o.jvm(),
                    null,
                    new IllegalStateException("process mode: result of rank " + o.rank() + " is a "
                            + o.result().getClass().getName() + " (expected: Serializable, to reach the other JVMs)"),
                    0));
        }
    }

    /**
     * The results in rank order, or the earliest failure (wall clock, ties by rank: as the first
     * failing thread of InProcessLauncher), the others suppressed, with a note naming rank and JVM.
     */
    @SuppressWarnings("unchecked")
    private <T> List<T> resultsOrFirstFailure(int n, List<RankOutcome> all) {
        if (all.size() != n) {
            throw new IllegalStateException("process mode: " + all.size() + " outcomes (expected: " + n + ")");
        }
        List<RankOutcome> failures = all.stream()
                .filter(o -> o.failure() != null)
                .sorted(Comparator.comparingLong(RankOutcome::failedAtMicros).thenComparingInt(RankOutcome::rank))
                .toList();
        if (failures.isEmpty()) {
            List<T> results = new ArrayList<>(n);
            for (RankOutcome o : all) {
                results.add((T) o.result());
            }
            return results;
        }
        Throwable first = failures.get(0).failure();
        first.addSuppressed(new IllegalStateException(
                "process mode: rank " + failures.get(0).rank() + " of " + n + " (JVM "
                        + failures.get(0).jvm() + ") failed first in " + testId + "; failed ranks: "
                        + failures.stream()
                                .map(o -> o.rank() + " (JVM " + o.jvm() + ")")
                                .toList()));
        for (RankOutcome o : failures.subList(1, failures.size())) {
            first.addSuppressed(o.failure());
        }
        if (first instanceof RuntimeException r) {
            throw r;
        }
        if (first instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("launch: rank failed: " + first, first);
    }
}
