package dev.layout.collective;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.layout.collective.SuiteLink.ChildSummary;
import dev.layout.collective.SuiteLink.Kind;
import dev.layout.collective.SuiteLink.Message;
import dev.layout.transport.JobSecret;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * One JVM of {@link ClusterIT#fourJvmsRunTheCollectiveSemanticsSuite}: connects to the {@link
 * SuiteCoordinator} at {@code 127.0.0.1:<port>} (args: port, jvm index, jvm count; the coordinator's
 * token and the transports' job secret come from the environment), switches {@link Harness#run}
 * to {@link ProcessRanks process mode} and runs {@link #SUITE} with the JUnit Platform launcher;
 * last it sends the launcher's summary (counts and a report of each failure) and exits 0, or 1 if
 * a test failed.
 */
public final class ClusterSuiteChild {
    /** The coordinator's token (the children prove they were started by the IT). */
    static final String TOKEN_ENV = "LAYOUT_SUITE_TOKEN";
    /** Longest wait for the coordinator: above the longest run of another JVM (4 x Harness.TIMEOUT). */
    static final int READ_TIMEOUT_MS = 180_000;

    /**
     * The collective semantics suite, every test of these classes. Not here: {@code
     * CombiningSchedulePropertyTest} (jqwik draws a fresh random seed in every JVM, so the JVMs would
     * build different grids: the coordinator would stop at the first run; jqwik has no global seed
     * setting), the {@code *TcpTest} subclasses (the same tests again with {@code Harness.fabric},
     * which process mode replaces), {@code ConcurrentCollectivesTcpTest} and {@code TcpSoakIT}
     * (their own loopback fabric and options, not {@code Harness.run}).
     */
    static final List<Class<?>> SUITE = List.of(
            FullCollectivesTest.class,
            GraphCollectivesTest.class,
            InterCollectivesTest.class,
            StencilCollectivesTest.class,
            TypedCollectivesTest.class,
            PersistentFormsTest.class,
            PrefixTreeAllgatherTest.class);

    private ClusterSuiteChild() {}

    static LauncherDiscoveryRequest request() {
        return LauncherDiscoveryRequestBuilder.request()
                .selectors(SUITE.stream().map(c -> selectClass(c)).toList())
                .filters(EngineFilter.includeEngines("junit-jupiter"))
                .build();
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int jvm = Integer.parseInt(args[1]);
        int jvms = Integer.parseInt(args[2]);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
            s.setSoTimeout(READ_TIMEOUT_MS);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            SuiteLink.write(out, new Message(Kind.HELLO, "", jvm, jvms, List.of(), System.getenv(TOKEN_ENV)));
            ProcessRanks ranks = new ProcessRanks(
                    jvm, jvms, JobSecret.fromBase64(System.getenv(JobSecret.ENV)), Harness.TCP_OPTIONS, in, out);
            ProcessRanks.current = ranks;
            SummaryGeneratingListener summary = new SummaryGeneratingListener();
            TestExecutionListener runs = new TestExecutionListener() {
                @Override
                public void executionStarted(TestIdentifier id) {
                    if (id.isTest()) {
                        ranks.startTest(id.getUniqueId());
                    }
                }
            };
            PassedTests passed = new PassedTests();
            LauncherFactory.create().execute(request(), summary, runs, passed);
            TestExecutionSummary t = summary.getSummary();
            ChildSummary mine = new ChildSummary(
                    jvm,
                    t.getTestsFoundCount(),
                    t.getTestsStartedCount(),
                    t.getTestsSucceededCount(),
                    t.getTestsFailedCount(),
                    t.getTestsAbortedCount(),
                    t.getTestsSkippedCount(),
                    passed.ids(),
                    ranks.runs(),
                    report(t));
            SuiteLink.write(out, new Message(Kind.SUMMARY, "", 0, 0, List.of(SuiteLink.serialize(mine)), ""));
            System.out.println(mine.report());
            System.out.flush();
            System.exit(t.getTotalFailureCount() == 0 ? 0 : 1);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(2);
        }
    }

    /** The unique ids of the tests that passed, in execution order (parameterized invocations included). */
    static final class PassedTests implements TestExecutionListener {
        private final List<String> ids = new java.util.ArrayList<>();

        @Override
        public void executionFinished(TestIdentifier id, org.junit.platform.engine.TestExecutionResult result) {
            if (id.isTest() && result.getStatus() == org.junit.platform.engine.TestExecutionResult.Status.SUCCESSFUL) {
                ids.add(id.getUniqueId());
            }
        }

        List<String> ids() {
            return List.copyOf(ids);
        }
    }

    /** Each failed test: class, method and parameters, then the exception with its suppressed notes (the rank) and stack. */
    static String report(TestExecutionSummary t) {
        StringBuilder b = new StringBuilder();
        for (TestExecutionSummary.Failure f : t.getFailures()) {
            TestIdentifier id = f.getTestIdentifier();
            TestSource source = id.getSource().orElse(null);
            String where = source instanceof MethodSource m
                    ? m.getClassName().substring(m.getClassName().lastIndexOf('.') + 1) + "." + m.getMethodName()
                    : id.getUniqueId();
            StringWriter trace = new StringWriter();
            f.getException().printStackTrace(new PrintWriter(trace));
            String[] lines = trace.toString().split("\n");
            b.append("FAILED ")
                    .append(where)
                    .append(' ')
                    .append(id.getDisplayName())
                    .append('\n');
            // the assertion, the process-mode note naming the rank, and enough stack to find the line
            for (int i = 0, shown = 0; i < lines.length && shown < 40; i++) {
                if (i < 12 || lines[i].contains("Suppressed") || lines[i].contains("dev.layout")) {
                    b.append("  ").append(lines[i].stripTrailing()).append('\n');
                    shown++;
                }
            }
        }
        return b.toString();
    }
}
