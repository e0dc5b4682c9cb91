package dev.layout.spark.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@code local[4]} SparkSession per JVM, shared by every test class that uses this extension:
 * held in the root {@link ExtensionContext} store as an {@link AutoCloseable}, so JUnit stops it
 * once, after the last test of the run. Driver on 127.0.0.1, UI off, a checkpoint directory under
 * {@code target/}. Inject {@link SparkSession} or {@link JavaSparkContext} as test or lifecycle
 * method parameters.
 *
 * <pre>{@code
 * @ExtendWith(LocalSparkExtension.class)
 * class MyIT {
 *   @Test void runs(JavaSparkContext jsc) { ... }
 * }
 * }</pre>
 *
 * <p>Only one SparkContext may live in a JVM: do not combine with {@link StandaloneClusterExtension}
 * in the same test JVM (put cluster tests in their own failsafe execution).
 */
public final class LocalSparkExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(LocalSparkExtension.class);

    /** The session of this JVM, created on first use. */
    public static SparkSession session(ExtensionContext context) {
        return context.getRoot().getStore(NS).getOrComputeIfAbsent("session", k -> new Session(), Session.class).spark;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        session(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        Class<?> t = p.getParameter().getType();
        return t == SparkSession.class || t == JavaSparkContext.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        SparkSession s = session(e);
        return p.getParameter().getType() == SparkSession.class
                ? s
                : JavaSparkContext.fromSparkContext(s.sparkContext());
    }

    static final class Session implements AutoCloseable {
        final SparkSession spark;

        Session() {
            Path ckpt;
            try {
                ckpt = Files.createDirectories(Path.of("target", "spark-checkpoints"))
                        .toAbsolutePath();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("localSpark: cannot create target/spark-checkpoints", e);
            }
            spark = SparkSession.builder()
                    .master("local[4]")
                    .appName("layout-tests")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.ui.enabled", "false")
                    .config("spark.ui.showConsoleProgress", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.default.parallelism", "4")
                    .config("spark.checkpoint.dir", ckpt.toUri().toString())
                    .getOrCreate();
            spark.sparkContext().setCheckpointDir(ckpt.toUri().toString());
            spark.sparkContext().setLogLevel("WARN");
        }

        @Override
        public void close() {
            spark.stop();
        }
    }
}
