package dev.layout.collective;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.transport.JavaCommand;
import dev.layout.transport.JobSecret;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Four JVMs on loopback over {@code TcpTransport}: the 9-point halo exchange and collectives with
 * one rank per JVM, and the whole collective semantics suite with the ranks of every run spread
 * over the four JVMs.
 *
 * <p><b>The suite</b> ({@link ClusterSuiteChild#SUITE}): FullCollectivesTest, GraphCollectivesTest,
 * InterCollectivesTest, StencilCollectivesTest, TypedCollectivesTest, PersistentFormsTest and
 * PrefixTreeAllgatherTest, every test of them, unchanged: each child runs them with the JUnit
 * Platform launcher and {@link Harness#run} in process mode ({@link ProcessRanks}), so rank r of a
 * run of n ranks is a thread of JVM {@code r % 4} with its own TCP endpoint, and results and
 * failures reach every JVM through the {@link SuiteCoordinator} in this JVM. Tests that run no
 * ranks (reflection over {@code Collectives}, reduction kernels) simply run in each JVM. Left out,
 * because they are single-JVM by construction: {@code CombiningSchedulePropertyTest} (jqwik draws a
 * random seed per JVM and has no global seed setting, so the JVMs would build different grids),
 * the {@code *TcpTest} subclasses (the same tests over {@code Harness.fabric}, which process mode
 * replaces), {@code ConcurrentCollectivesTcpTest} and {@code TcpSoakIT} (their own fabrics and
 * options). Rank counts are the suite's own (up to 36 ranks, 9 per JVM): nothing is trimmed.
 */
@Tag("cluster")
class ClusterIT {
    static final int N = 4;
    /** Longest a JVM may take for one step of the suite (a run that fails by timeout takes 4 x Harness.TIMEOUT). */
    static final Duration STEP_TIMEOUT = Duration.ofSeconds(150);

    static final Duration SUITE_TIMEOUT = Duration.ofMinutes(10);

    @Test
    void fourJvmsRunTheCollectiveSemanticsSuite() throws Exception {
        long t0 = System.nanoTime();
        // what each child must run: the same request, run here in one JVM (threads, in-process transport)
        ClusterSuiteChild.PassedTests reference = new ClusterSuiteChild.PassedTests();
        SummaryGeneratingListener referenceSummary = new SummaryGeneratingListener();
        LauncherFactory.create().execute(ClusterSuiteChild.request(), reference, referenceSummary);
        assertThat(referenceSummary.getSummary().getTotalFailureCount())
                .as(
                        "failures of the suite run in this JVM:%n%s",
                        ClusterSuiteChild.report(referenceSummary.getSummary()))
                .isZero();
        List<String> expected = reference.ids();
        for (Class<?> c : ClusterSuiteChild.SUITE) {
            assertThat(expected)
                    .as("tests of %s", c.getSimpleName())
                    .anyMatch(id -> id.contains("[class:" + c.getName() + "]"));
        }
        long started = System.nanoTime();
        String token = java.util.UUID.randomUUID().toString();
        JobSecret secret = JobSecret.random();
        Path logs = Files.createDirectories(Path.of("target", "cluster-it"));
        List<Process> children = new ArrayList<>();
        try (SuiteCoordinator coordinator = SuiteCoordinator.bind(N, token, STEP_TIMEOUT)) {
            for (int j = 0; j < N; j++) {
                ProcessBuilder pb = new ProcessBuilder(JavaCommand.of(
                                ClusterSuiteChild.class,
                                Integer.toString(coordinator.port()),
                                Integer.toString(j),
                                Integer.toString(N)))
                        .redirectErrorStream(true)
                        .redirectOutput(logs.resolve("suite-jvm-" + j + ".log").toFile());
                pb.environment().put(JobSecret.ENV, secret.toBase64());
                pb.environment().put(ClusterSuiteChild.TOKEN_ENV, token);
                children.add(pb.start());
            }
            List<SuiteLink.ChildSummary> summaries;
            try {
                summaries = coordinator.serve(Duration.ofSeconds(60), SUITE_TIMEOUT);
            } catch (AssertionError e) {
                for (Process c : children) {
                    c.waitFor(5, TimeUnit.SECONDS); // the children halt on ABORT: let them write their last words
                }
                throw new AssertionError(e.getMessage() + logTails(logs), e);
            }
            for (SuiteLink.ChildSummary s : summaries) {
                String what = "JVM " + s.jvm() + ": found " + s.found() + ", started " + s.started() + ", succeeded "
                        + s.succeeded() + ", failed " + s.failed() + ", aborted " + s.aborted() + ", skipped "
                        + s.skipped() + "\n"
                        + s.report();
                assertThat(s.failed()).as(what).isZero();
                assertThat(s.aborted()).as(what).isZero();
                assertThat(s.skipped()).as(what).isZero();
                assertThat(s.started()).as(what).isEqualTo(expected.size());
                assertThat(s.passed()).as(what).containsExactlyInAnyOrderElementsOf(expected);
                assertThat(s.runs()).as(what).isEqualTo(coordinator.runs());
            }
            assertThat(coordinator.runs()).as("runs spread over the JVMs").isPositive();
            for (int j = 0; j < N; j++) {
                assertThat(children.get(j).waitFor(60, TimeUnit.SECONDS))
                        .as("JVM %d ended in time", j)
                        .isTrue();
                assertThat(children.get(j).exitValue())
                        .as("exit code of JVM %d%s", j, logTails(logs))
                        .isZero();
            }
            System.out.printf(
                    "cluster suite: %d tests in each of %d JVMs, %d runs, %.1f s (reference run in this JVM %.1f s)%n",
                    expected.size(), N, coordinator.runs(), (System.nanoTime() - started) / 1e9, (started - t0) / 1e9);
        } finally {
            children.forEach(Process::destroyForcibly);
        }
    }

    /** The last lines of each child's output, for failure messages. */
    private static String logTails(Path logs) {
        StringBuilder b = new StringBuilder();
        for (int j = 0; j < N; j++) {
            Path p = logs.resolve("suite-jvm-" + j + ".log");
            try {
                List<String> lines = Files.readAllLines(p);
                b.append("\n--- ").append(p).append(" (last 30 lines) ---\n");
                lines.subList(Math.max(0, lines.size() - 30), lines.size())
                        .forEach(l -> b.append(l).append('\n'));
            } catch (java.io.IOException e) {
                b.append("\n--- ").append(p).append(": ").append(e).append('\n');
            }
        }
        return b.toString();
    }

    @Test
    void fourJvmsRunTheHaloExchangeAndCollectives() throws Exception {
        JobSecret secret = JobSecret.random();
        List<Process> children = new ArrayList<>();
        try {
            List<BufferedReader> outs = new ArrayList<>();
            List<CompletableFuture<String>> endpoints = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                ProcessBuilder pb = new ProcessBuilder(JavaCommand.of(ClusterChild.class))
                        .redirectError(ProcessBuilder.Redirect.INHERIT);
                pb.environment().put(JobSecret.ENV, secret.toBase64());
                Process c = pb.start();
                children.add(c);
                BufferedReader r =
                        new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
                outs.add(r);
                endpoints.add(CompletableFuture.supplyAsync(() -> firstLineStartingWith(r, "ENDPOINT ")));
            }
            List<String> eps = new ArrayList<>();
            for (CompletableFuture<String> f : endpoints) {
                eps.add(f.get(60, TimeUnit.SECONDS)
                        .substring("ENDPOINT ".length())
                        .trim());
            }
            List<CompletableFuture<String>> results = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                OutputStream in = children.get(i).getOutputStream();
                in.write(("RANK " + i + " ENDPOINTS " + String.join(",", eps) + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                BufferedReader r = outs.get(i);
                results.add(CompletableFuture.supplyAsync(() -> firstLineStartingWith(r, "OK ")));
            }
            for (int i = 0; i < N; i++) {
                assertThat(children.get(i).waitFor(90, TimeUnit.SECONDS))
                        .as("process %d ended in time", i)
                        .isTrue();
                assertThat(children.get(i).exitValue())
                        .as("exit code of process %d", i)
                        .isZero();
                assertThat(results.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("OK " + i);
            }
        } finally {
            children.forEach(Process::destroyForcibly);
        }
    }

    private static String firstLineStartingWith(BufferedReader r, String prefix) {
        try {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
            return "<end of output>";
        } catch (java.io.IOException e) {
            return "<" + e + ">";
        }
    }
}
