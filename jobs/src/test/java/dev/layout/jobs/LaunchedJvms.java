package dev.layout.jobs;

import dev.layout.transport.JavaCommand;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The JVMs the jobs' tests launch: drivers through {@code bin/layout-submit}, the executors of
 * their cluster applications, {@code bin/layout}'s commands and the probes started with {@link
 * JavaCommand}. Each lives for one small job, so most of its CPU goes to start-up,
 * which two things spare: C1 alone and the serial collector (no C2 compiler or GC threads competing
 * with the other launches on a few cores), and a class-data archive of the classes a driver loads
 * (Spark's, Hadoop's, the jobs'), dumped once per test JVM by one small heat run, which later JVMs
 * map instead of loading and verifying those classes from the jars again. The archive changes how
 * classes are loaded, not which: every launch runs the same code.
 *
 * <p>A dynamic archive needs the launched class path to start with the entries it was dumped with
 * and no non-empty directory among those it used: {@link #classPath()} is this JVM's class path with
 * the jars first and the directories (test classes) after them. If the dump fails the launches run
 * without the archive, only slower; a JVM whose class path does not match skips it silently.
 */
final class LaunchedJvms {
    private static final String SHORT_LIVED = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    private static final long LAUNCH_MINUTES = 5;

    private LaunchedJvms() {}

    /** This JVM's class path, jars first, directories after (a dynamic archive refuses directories). */
    static String classPath() {
        List<String> entries =
                Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        return Stream.concat(
                        entries.stream().filter(e -> e.endsWith(".jar")),
                        entries.stream().filter(e -> !e.endsWith(".jar")))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** JVM options of a launched driver or executor (heap aside): short-lived, and the archive if it was made. */
    static String javaOptions() {
        return SHORT_LIVED + Archive.OPTIONS;
    }

    /** {@link JavaCommand#of} with the launched JVMs' options and class path. */
    static List<String> javaCommand(Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>(JavaCommand.of(main, args));
        cmd.set(cmd.indexOf("-cp") + 1, classPath());
        cmd.addAll(1, List.of(javaOptions().split(" ")));
        return cmd;
    }

    /**
     * {@code bin/layout-submit args} with the driver JVM's options {@code javaOptions}, the output (stdout
     * and stderr) in {@code log}.
     */
    static JobsIT.Run layoutSubmit(String javaOptions, Path log, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(
                List.of("bash", JobsIT.ROOT.resolve("bin/layout-submit").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("LAYOUT_CLASSPATH", classPath());
        pb.environment().put("LAYOUT_JAVA_OPTS", javaOptions);
        pb.environment().remove("SPARK_HOME");
        Process p = pb.start();
        try {
            if (!p.waitFor(LAUNCH_MINUTES, TimeUnit.MINUTES)) {
                throw new AssertionError("layout-submit did not finish in " + LAUNCH_MINUTES + " minutes: "
                        + String.join(" ", args) + "\n" + Files.readString(log));
            }
            return new JobsIT.Run(p.exitValue(), Files.readString(log));
        } finally {
            p.destroyForcibly();
        }
    }

    /** The archive's options, made on first use (a class initializer: concurrent first callers wait for it). */
    private static final class Archive {
        static final String OPTIONS = dump();

        private static String dump() {
            long pid = ProcessHandle.current().pid();
            try {
                Path dir =
                        Files.createDirectories(Path.of("target", "launch-cds").toAbsolutePath());
                Path archive = dir.resolve("drivers-" + pid + ".jsa");
                archive.toFile().deleteOnExit(); // some 100 MB, of use to this JVM's launches only
                Path log = dir.resolve("dump-" + pid + ".log");
                Path out = Files.createTempDirectory(dir, "dump-run-");
                JobsIT.Run r = layoutSubmit(
                        "-Xmx1g " + SHORT_LIVED + " -XX:ArchiveClassesAtExit=" + archive,
                        log,
                        "heat",
                        "--master",
                        "local[2]",
                        "--grid",
                        "16x12",
                        "--steps",
                        "2",
                        "--procs",
                        "2x1",
                        "--out",
                        out.resolve("out").toString());
                if (r.code() != 0 || !Files.isRegularFile(archive)) {
                    System.err.println("launched JVMs run without a class-data archive: the dump run exited " + r.code()
                            + " (output in " + log + ")");
                    return "";
                }
                return " -XX:SharedArchiveFile=" + archive + " -Xlog:cds=off,cds+dynamic=off";
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                System.err.println("launched JVMs run without a class-data archive: " + e);
                return "";
            }
        }
    }
}
