package dev.layout.transport;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command lines that start a class's {@code main} in a fresh JVM like this one: multi-process tests and the ping-pong's partner. */
public final class JavaCommand {
    private JavaCommand() {}

    /**
     * The command line starting {@code main} in a fresh JVM with this JVM's class path (surefire's
     * test class path when under test) and module flags ({@code --add-opens}, {@code --add-modules}).
     */
    public static List<String> of(Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("-XX:+IgnoreUnrecognized") || a.startsWith("-Djdk.reflect")) {
                cmd.add(a);
            }
        }
        cmd.add("-Xmx512m");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        cmd.add("-cp");
        cmd.add(cp);
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }
}
