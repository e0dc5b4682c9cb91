package dev.layout.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A benchmark run in a JVM of its own: the command line, and running it with its output passed through. */
public final class ChildJvm {
    private ChildJvm() {}

    /** This JVM's flags, for a child that should run as this one does (a debugger agent left out: its port is taken). */
    public static List<String> inheritedFlags() {
        List<String> flags = new ArrayList<>();
        for (String x :
                java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!x.startsWith("-agentlib:jdwp") && !x.startsWith("-Xrunjdwp")) {
                flags.add(x);
            }
        }
        return flags;
    }

    /** {@code java flags... -cp classPath mainClass args...}, with the java of this JVM. */
    public static List<String> command(List<String> flags, String classPath, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(flags);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Runs {@code cmd}, printing each line of its standard output to {@code out} after {@code prefix}
     * (its standard error goes to this JVM's); fails if it cannot start, exits non-zero, or is still
     * running after {@code limit} (it is then killed). {@code what} names the JVM in messages.
     */
    public static void run(List<String> cmd, PrintStream out, String prefix, Duration limit, String what) {
        Process p;
        try {
            p = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(what + ": cannot start the JVM: " + e.getMessage(), e);
        }
        // If this JVM is stopped (Ctrl-C), the child goes too instead of running on for minutes unseen.
        Thread killer = new Thread(p::destroyForcibly, "child-jvm-stop");
        Runtime.getRuntime().addShutdownHook(killer);
        try {
            await(p, out, prefix, limit, what);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(killer);
            } catch (IllegalStateException e) {
                // This JVM is shutting down already; the hook runs.
            }
        }
    }

    private static void await(Process p, PrintStream out, String prefix, Duration limit, String what) {
        Thread pump = new Thread(
                () -> {
                    try (BufferedReader r =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            out.println(prefix + line);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // The child was killed (time limit) or closed its output: its exit code says which.
                    }
                },
                "child-jvm-output");
        pump.setDaemon(true);
        pump.start();
        try {
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                boolean gone = p.waitFor(30, TimeUnit.SECONDS);
                throw new IllegalStateException(what + ": the JVM was still running after " + limit.toSeconds() + " s ("
                        + (gone ? "killed" : "killed, but still exiting 30 s later") + ")");
            }
            pump.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + ": interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(what + ": the JVM exited with " + p.exitValue());
        }
    }
}
