package dev.layout.spark.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A Spark standalone cluster without a Spark distribution: a Master and two Workers (2 cores, 2 GB each)
 * as separate JVMs started from the test classpath, executors in their own JVMs (launched by the
 * Workers), and a SparkSession connected to it. Laid out as separate hosts would be: the Master and
 * the driver on 127.0.0.1, Worker w (and its executors) on {@link #workerHost workerHost(w)} =
 * 127.0.0.2 and 127.0.0.3, each with its own {@code SPARK_LOCAL_IP}, so every address a process
 * binds to or advertises is its own host's. One per JVM, in the root store;
 * every process is killed when the run ends (also from a shutdown hook), and the logs under
 * {@code target/cluster-logs/<time>} are deleted only when every test passed.
 *
 * <p>How, without a distribution: {@code SPARK_HOME} is a directory under {@code target/} with an
 * empty {@code jars/}, {@code SPARK_SCALA_VERSION=2.13}, and {@code spark.executor.extraClassPath}
 * is this JVM's class path. Ports are chosen free. Do not combine with {@link LocalSparkExtension}
 * in one JVM (one SparkContext per JVM): run cluster tests in their own failsafe execution.
 *
 * <p>{@link #withoutSession()} starts only the Master and the Workers, for tests that submit their
 * own applications from other JVMs (spark-submit): they get all four cores and {@link
 * Cluster#submitOptions()} tells them how to reach the cluster (and starts their executors as
 * short-lived JVMs).
 *
 * <pre>{@code
 * @RegisterExtension static final StandaloneClusterExtension CLUSTER = StandaloneClusterExtension.withoutSession();
 * @Test void submits(StandaloneClusterExtension.Cluster c) { ... spark-submit c.submitOptions() ... }
 * }</pre>
 */
public final class StandaloneClusterExtension
        implements BeforeAllCallback, ParameterResolver, AfterTestExecutionCallback {

    private static final ExtensionContext.Namespace NS =
            ExtensionContext.Namespace.create(StandaloneClusterExtension.class);
    // Generous: on a loaded 2-core machine the first executors have taken over 3 minutes to register.
    private static final Duration STARTUP = Duration.ofSeconds(Long.getLong("layout.cluster.startupSeconds", 420));

    /** Whether the extension also connects an application (a SparkSession in the test JVM). */
    private enum Application {
        SESSION,
        NONE
    }

    private final Application application;

    /** The cluster and a SparkSession connected to it (inject {@link SparkSession}, {@link JavaSparkContext} or {@link Cluster}). */
    public StandaloneClusterExtension() {
        this(Application.SESSION);
    }

    private StandaloneClusterExtension(Application application) {
        this.application = application;
    }

    /** The Master and two Workers only, no application in the test JVM (inject {@link Cluster}). */
    public static StandaloneClusterExtension withoutSession() {
        return new StandaloneClusterExtension(Application.NONE);
    }

    /** The loopback address standing for the host of Worker {@code w} (1 or 2) and of its executors. */
    public static String workerHost(int w) {
        return "127.0.0." + (w + 1);
    }

    /** The cluster with a session of this JVM, started on first use. */
    public static Cluster cluster(ExtensionContext context) {
        return cluster(context, Application.SESSION);
    }

    private static Cluster cluster(ExtensionContext context, Application application) {
        return context.getRoot()
                .getStore(NS)
                .getOrComputeIfAbsent("cluster-" + application, k -> Cluster.start(application), Cluster.class);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster(context, application);
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            cluster(context, application).failed = true;
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        Class<?> t = p.getParameter().getType();
        return t == Cluster.class
                || application == Application.SESSION && (t == SparkSession.class || t == JavaSparkContext.class);
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        Cluster c = cluster(e, application);
        Class<?> t = p.getParameter().getType();
        if (t == Cluster.class) {
            return c;
        }
        return t == SparkSession.class ? c.spark : JavaSparkContext.fromSparkContext(c.spark.sparkContext());
    }

    /** The running cluster: its master URL, processes and log directory. */
    public static final class Cluster implements AutoCloseable {
        private final List<Process> processes = new ArrayList<>();
        private final Path logs;
        private String masterUrl;
        private SparkSession spark;
        volatile boolean failed;

        private Cluster(Path logs) {
            this.logs = logs;
        }

        public String masterUrl() {
            return masterUrl;
        }

        public Path logs() {
            return logs;
        }

        /**
         * spark-submit options for an application of another JVM on this cluster: the master, and
         * executors started with this JVM's class path and module flags (there is no Spark
         * distribution to take them from).
         */
        public List<String> submitOptions() {
            return submitOptions(System.getProperty("java.class.path"), SHORT_LIVED_JVM);
        }

        /**
         * {@link #submitOptions()} with the executors' class path {@code classPath} (this JVM's classes in
         * another order, say) and JVM options {@code executorJavaOptions} besides the module flags.
         */
        public List<String> submitOptions(String classPath, String executorJavaOptions) {
            return List.of(
                    "--master",
                    masterUrl,
                    "--conf",
                    "spark.executor.extraClassPath=" + classPath,
                    "--conf",
                    "spark.executor.extraJavaOptions=" + String.join(" ", jvmFlags()) + " " + executorJavaOptions);
        }

        /**
         * Flags for JVMs that do little work compared with their start-up (the daemons, and the executors
         * of an application submitted for one small job): C1 alone and the serial collector spare the C2
         * compiler and GC threads, which on a few cores compete with every other process of the cluster.
         */
        static final String SHORT_LIVED_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

        /** The worker JVMs' processes (the executors are their children). */
        public List<ProcessHandle> workers() {
            return processes.subList(1, processes.size()).stream()
                    .map(Process::toHandle)
                    .toList();
        }

        /** The executor JVMs now running: a Worker's only child processes are the executors it launched. */
        public List<ProcessHandle> executors() {
            return workers().stream()
                    .flatMap(ProcessHandle::children)
                    .filter(ProcessHandle::isAlive)
                    .toList();
        }

        static Cluster start(Application application) {
            Path target = Path.of("target").toAbsolutePath();
            Path logs = target.resolve("cluster-logs").resolve(String.valueOf(System.currentTimeMillis()));
            Cluster c = new Cluster(logs);
            Thread hook = new Thread(c::killAll, "layout-cluster-kill");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                Path home = target.resolve("spark-home");
                Files.createDirectories(home.resolve("jars"));
                Files.createDirectories(home.resolve("conf"));
                Files.createDirectories(logs);
                // INFO for the daemons: startup is detected from their log lines (the tests' own config is WARN)
                Files.writeString(
                        home.resolve("conf").resolve("log4j2.properties"),
                        String.join(
                                "\n",
                                "rootLogger.level = info",
                                "rootLogger.appenderRef.stdout.ref = console",
                                "appender.console.type = Console",
                                "appender.console.name = console",
                                "appender.console.layout.type = PatternLayout",
                                "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n%ex",
                                ""));
                int masterPort = freePort();
                c.masterUrl = "spark://127.0.0.1:" + masterPort;
                long deadline = System.nanoTime() + STARTUP.toNanos();
                Path masterLog = logs.resolve("master.log");
                c.launch(
                        home,
                        masterLog,
                        "127.0.0.1",
                        "org.apache.spark.deploy.master.Master",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        String.valueOf(masterPort),
                        "--webui-port",
                        String.valueOf(freePort()));
                awaitLog(masterLog, "I have been elected leader", deadline);
                // both Workers start at once: each JVM's start-up is mostly one core's work
                for (int w = 1; w <= 2; w++) {
                    Path work = logs.resolve("work-" + w);
                    c.launch(
                            home,
                            logs.resolve("worker-" + w + ".log"),
                            workerHost(w),
                            "org.apache.spark.deploy.worker.Worker",
                            "--host",
                            workerHost(w),
                            "--port",
                            String.valueOf(freePort()),
                            "--webui-port",
                            String.valueOf(freePort()),
                            "--cores",
                            "2",
                            "--memory",
                            "2g",
                            "--work-dir",
                            work.toString(),
                            c.masterUrl);
                }
                for (int w = 1; w <= 2; w++) {
                    awaitLog(logs.resolve("worker-" + w + ".log"), "Successfully registered with master", deadline);
                }
                if (application == Application.NONE) {
                    return c;
                }
                c.spark = SparkSession.builder()
                        .master(c.masterUrl)
                        .appName("layout-cluster-tests")
                        .config("spark.driver.host", "127.0.0.1")
                        .config("spark.driver.bindAddress", "127.0.0.1")
                        .config("spark.ui.enabled", "false")
                        .config("spark.ui.showConsoleProgress", "false")
                        .config("spark.executor.memory", "512m")
                        .config("spark.executor.cores", "2")
                        .config("spark.cores.max", "4")
                        .config("spark.executor.extraClassPath", System.getProperty("java.class.path"))
                        .config("spark.executor.extraJavaOptions", String.join(" ", jvmFlags()))
                        .config("spark.task.maxFailures", "4")
                        .getOrCreate();
                c.spark
                        .sparkContext()
                        .setCheckpointDir(target.resolve("spark-checkpoints-cluster")
                                .toUri()
                                .toString());
                while (c.spark.sparkContext().statusTracker().getExecutorInfos().length < 3) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("standaloneCluster: executors not registered within " + STARTUP
                                + " (logs in " + logs + ")");
                    }
                    pause();
                }
                return c;
            } catch (IOException | RuntimeException e) {
                c.failed = true;
                c.close();
                throw new IllegalStateException(
                        "standaloneCluster: start failed, logs in " + logs + ": " + e.getMessage(), e);
            }
        }

        private void launch(Path home, Path log, String host, String main, String... args) throws IOException {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx512m");
            cmd.addAll(List.of(SHORT_LIVED_JVM.split(" ")));
            cmd.add("-Dlog4j2.configurationFile="
                    + home.resolve("conf").resolve("log4j2.properties").toUri());
            cmd.addAll(jvmFlags());
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(main);
            cmd.addAll(List.of(args));
            ProcessBuilder pb =
                    new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("SPARK_HOME", home.toString());
            pb.environment().put("SPARK_SCALA_VERSION", "2.13");
            pb.environment().put("SPARK_LOCAL_IP", host);
            pb.environment().put("SPARK_LOCAL_HOSTNAME", host);
            pb.environment().put("SPARK_LOG_DIR", log.getParent().toString());
            processes.add(pb.start());
        }

        /** The module-opening flags of this JVM (Spark's JavaModuleOptions, from the argLine). */
        static List<String> jvmFlags() {
            return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                    .filter(a -> a.startsWith("--add-opens")
                            || a.startsWith("--add-modules")
                            || a.startsWith("-XX:+IgnoreUnrecognized")
                            || a.startsWith("-Djdk.reflect")
                            || a.startsWith("-Dio.netty"))
                    .toList();
        }

        private static void awaitLog(Path log, String line, long deadline) throws IOException {
            while (true) {
                if (Files.exists(log)
                        && Files.readString(log, StandardCharsets.UTF_8).contains(line)) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "standaloneCluster: no '" + line + "' in " + log + " within " + STARTUP);
                }
                pause();
            }
        }

        private static void pause() {
            try {
                Thread.sleep(200); // bounded polling of an external process, not test synchronization
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("standaloneCluster: interrupted while starting");
            }
        }

        private static int freePort() throws IOException {
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            }
        }

        private synchronized void killAll() {
            for (int i = processes.size() - 1; i >= 0; i--) {
                Process p = processes.get(i);
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroy();
                try {
                    if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                        p.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    p.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
            processes.clear();
        }

        @Override
        public void close() {
            try {
                if (spark != null) {
                    spark.stop();
                }
            } finally {
                killAll();
                if (!failed) {
                    try (Stream<Path> s = Files.walk(logs)) {
                        s.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
                    } catch (IOException e) {
                        throw new UncheckedIOException("standaloneCluster: could not delete " + logs, e);
                    }
                }
            }
        }
    }
}
