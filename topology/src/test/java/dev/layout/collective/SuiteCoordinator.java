package dev.layout.collective;

import dev.layout.collective.SuiteLink.ChildSummary;
import dev.layout.collective.SuiteLink.Kind;
import dev.layout.collective.SuiteLink.Message;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The IT's side of process mode ({@link ProcessRanks}): a loopback server the {@link
 * ClusterSuiteChild} JVMs connect to. It serves the suite in lockstep steps: each step takes one
 * message from every JVM, checks that they are the same kind for the same run (test id, run index,
 * rank count), and answers all of them: for RUN the endpoints of all ranks in rank order, for DONE
 * all rank outcomes in rank order; SUMMARY ends the suite. A mismatch, a JVM closing its link, or a
 * JVM silent for longer than the step timeout aborts every child and fails with a message naming
 * the JVMs and the runs they were at.
 */
final class SuiteCoordinator implements AutoCloseable {
    private final ServerSocket server;
    private final int jvms;
    private final String token;
    private final Duration stepTimeout;
    /** By JVM index; null until that JVM has connected. */
    private final Peer[] peers;

    private long runs;

    /** A connected child: its output and the messages its reader thread has received. */
    private record Peer(int jvm, Socket socket, DataOutputStream out, BlockingQueue<Message> inbox) {}

    private SuiteCoordinator(ServerSocket server, int jvms, String token, Duration stepTimeout) {
        this.server = server;
        this.jvms = jvms;
        this.token = token;
        this.stepTimeout = stepTimeout;
        this.peers = new Peer[jvms];
    }

    static SuiteCoordinator bind(int jvms, String token, Duration stepTimeout) throws IOException {
        ServerSocket s = new ServerSocket();
        s.bind(new InetSocketAddress("127.0.0.1", 0), jvms);
        return new SuiteCoordinator(s, jvms, token, stepTimeout);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Runs served (one RUN and one DONE step each). */
    long runs() {
        return runs;
    }

    /**
     * Accepts the JVMs (each within {@code acceptTimeout}), then serves steps until every JVM has sent
     * its summary; returns the summaries by JVM index.
     *
     * @throws AssertionError naming the JVMs and runs when the JVMs fall out of step, one closes its
     *     link, one is silent for the step timeout, or the suite takes longer than {@code total}
     */
    List<ChildSummary> serve(Duration acceptTimeout, Duration total) throws IOException {
        accept(acceptTimeout);
        long end = System.nanoTime() + total.toNanos();
        while (true) {
            Message[] step = new Message[jvms];
            for (int j = 0; j < jvms; j++) {
                step[j] = next(j, step, end);
            }
            Message first = step[0];
            for (int j = 1; j < jvms; j++) {
                Message m = step[j];
                if (m.kind() != first.kind()
                        || !m.testId().equals(first.testId())
                        || m.run() != first.run()
                        || m.n() != first.n()) {
                    throw abort("JVMs out of step: JVM 0 sent " + first.kind() + " for " + first.runName() + " but JVM "
                            + j + " sent " + m.kind() + " for " + m.runName());
                }
            }
            switch (first.kind()) {
                case RUN -> answer(first, Kind.ENDPOINTS, interleave(step, "endpoints"));
                case DONE -> {
                    answer(first, Kind.OUTCOMES, interleave(step, "outcomes"));
                    runs++;
                }
                case SUMMARY -> {
                    List<ChildSummary> summaries = new ArrayList<>();
                    for (Message m : step) {
                        summaries.add(
                                (ChildSummary) SuiteLink.deserialize(m.items().get(0)));
                    }
                    return summaries;
                }
                default -> throw abort("JVM 0 sent " + first.kind() + " (expected: RUN, DONE or SUMMARY)");
            }
        }
    }

    private void accept(Duration acceptTimeout) throws IOException {
        List<String> refused = new ArrayList<>();
        long end = System.nanoTime() + acceptTimeout.toNanos();
        for (int connected = 0; connected < jvms; ) {
            long left = (end - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw abort(connected + " of " + jvms + " JVMs connected within " + acceptTimeout + " (refused: "
                        + refused + ")");
            }
            server.setSoTimeout((int) Math.max(1, left));
            Socket s;
            try {
                s = server.accept();
            } catch (SocketTimeoutException e) {
                continue;
            }
            s.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            Message hello;
            try {
                hello = SuiteLink.read(in);
            } catch (IOException e) {
                refused.add(s.getRemoteSocketAddress() + ": " + e);
                s.close();
                continue;
            }
            int jvm = hello.run();
            boolean tokenOk = MessageDigest.isEqual(
                    hello.text().getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
            if (hello.kind() != Kind.HELLO
                    || !tokenOk
                    || hello.n() != jvms
                    || jvm < 0
                    || jvm >= jvms
                    || peers[jvm] != null) {
                refused.add(s.getRemoteSocketAddress() + ": " + hello.kind() + " jvm " + jvm + " of " + hello.n()
                        + (tokenOk ? "" : ", wrong token"));
                s.close();
                continue;
            }
            s.setSoTimeout(0); // the reader blocks; steps wait on the inbox with the step timeout
            Peer p = new Peer(
                    jvm,
                    s,
                    new DataOutputStream(new BufferedOutputStream(s.getOutputStream())),
                    new LinkedBlockingQueue<>());
            peers[jvm] = p;
            Thread reader = new Thread(() -> readLoop(in, p), "suite-coordinator-reader-" + jvm);
            reader.setDaemon(true);
            reader.start();
            connected++;
        }
    }

    /** Children never send ABORT: here it marks the end of the link. */
    private static void readLoop(DataInputStream in, Peer p) {
        try {
            while (true) {
                p.inbox().add(SuiteLink.read(in));
            }
        } catch (IOException e) {
            p.inbox().add(Message.of(Kind.ABORT, "link closed: " + e));
        }
    }

    private Message next(int j, Message[] step, long end) throws IOException {
        long wait = Math.min(stepTimeout.toNanos(), end - System.nanoTime());
        Message m;
        try {
            m = peers[j].inbox().poll(Math.max(0, wait), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw abort("interrupted while waiting for JVM " + j);
        }
        if (m == null) {
            throw abort("JVM " + j + " sent nothing for " + Duration.ofNanos(wait) + " (step timeout " + stepTimeout
                    + "; the others: " + describe(step) + ")");
        }
        if (m.kind() == Kind.ABORT) {
            throw abort("JVM " + j + " " + m.text() + " (the others: " + describe(step) + ")");
        }
        return m;
    }

    private static String describe(Message[] step) {
        List<String> out = new ArrayList<>();
        for (int j = 0; j < step.length; j++) {
            if (step[j] != null) {
                out.add("JVM " + j + " sent " + step[j].kind() + " for " + step[j].runName());
            }
        }
        return out.isEmpty() ? "none had sent anything for this step yet" : String.join(", ", out);
    }

    /** Rank r was hosted by JVM r % jvms, as its (r / jvms)-th local rank. */
    private List<byte[]> interleave(Message[] step, String what) throws IOException {
        int n = step[0].n();
        for (int j = 0; j < jvms; j++) {
            int local = j < n ? (n - j + jvms - 1) / jvms : 0;
            if (step[j].items().size() != local) {
                throw abort("JVM " + j + " sent " + step[j].items().size() + " " + what + " for " + step[j].runName()
                        + " (expected: " + local + ", the ranks r < " + n + " with r % " + jvms + " == " + j + ")");
            }
        }
        List<byte[]> all = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            all.add(step[r % jvms].items().get(r / jvms));
        }
        return all;
    }

    private void answer(Message step, Kind kind, List<byte[]> items) throws IOException {
        Message reply = new Message(kind, step.testId(), step.run(), step.n(), items, "");
        for (Peer p : peers) {
            SuiteLink.write(p.out(), reply);
        }
    }

    /** Tells every child to stop (they halt) and returns the failure to throw. */
    private AssertionError abort(String reason) {
        for (Peer p : peers) {
            if (p == null) {
                continue;
            }
            try {
                SuiteLink.write(p.out(), Message.of(Kind.ABORT, reason));
            } catch (IOException ignored) {
                // that child is gone already; the reason is reported here
            }
        }
        return new AssertionError("cluster suite: " + reason);
    }

    @Override
    public void close() throws IOException {
        for (Peer p : peers) {
            if (p != null) {
                p.socket().close();
            }
        }
        server.close();
    }
}
