package dev.layout.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Child JVMs of the benchmarks: output passed through, exit codes, the time limit, a command that cannot start. */
@Tag("integration")
class ChildJvmTest {
    /** A child that prints its arguments and exits with the first one. */
    public static final class Exit {
        public static void main(String[] args) {
            for (String a : args) {
                System.out.println("arg " + a);
            }
            System.exit(Integer.parseInt(args[0]));
        }
    }

    /** A child that does not finish by itself within the test (it gives up after two minutes). */
    public static final class Hang {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("hanging");
            System.out.flush();
            Thread.sleep(120_000);
        }
    }

    private static List<String> java(Class<?> main, String... args) {
        return ChildJvm.command(
                List.of("-Xmx64m"), System.getProperty("java.class.path"), main.getName(), List.of(args));
    }

    @Test
    void outputIsPassedThroughWithThePrefix() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ChildJvm.run(
                java(Exit.class, "0", "x y"),
                new PrintStream(buf, true, StandardCharsets.UTF_8),
                "[c] ",
                Duration.ofMinutes(2),
                "test");
        assertThat(buf.toString(StandardCharsets.UTF_8).lines()).containsExactly("[c] arg 0", "[c] arg x y");
    }

    @Test
    void aNonZeroExitIsAnError() {
        assertThatThrownBy(() -> ChildJvm.run(
                        java(Exit.class, "3"),
                        new PrintStream(new ByteArrayOutputStream()),
                        "",
                        Duration.ofMinutes(2),
                        "bench test"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("bench test: the JVM exited with 3");
    }

    @Test
    void aJvmStillRunningAtItsLimitIsKilled() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        assertThatThrownBy(() -> ChildJvm.run(
                        java(Hang.class),
                        new PrintStream(buf, true, StandardCharsets.UTF_8),
                        "",
                        Duration.ofSeconds(3),
                        "bench test"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("bench test: the JVM was still running after 3 s (killed)");
        assertThat(ProcessHandle.current()
                        .children()
                        .filter(ProcessHandle::isAlive)
                        .filter(h -> h.info().commandLine().orElse("").contains(Hang.class.getName())))
                .isEmpty();
    }

    @Test
    void aCommandThatCannotStartIsNamed() {
        assertThatThrownBy(() -> ChildJvm.run(
                        List.of("/nonexistent/bin/java", "-version"),
                        System.out,
                        "",
                        Duration.ofSeconds(10),
                        "bench test"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("bench test: cannot start the JVM: ");
    }
}
