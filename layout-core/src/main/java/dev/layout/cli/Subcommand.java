package dev.layout.cli;

import java.io.PrintStream;

/**
 * One {@code layout <name> ...} command. Modules contribute commands through {@link
 * java.util.ServiceLoader} ({@code META-INF/services/dev.layout.cli.Subcommand}), so the command line
 * grows with the classpath and core knows nothing of the other modules.
 */
public interface Subcommand {
    /** The word after {@code layout}. */
    String name();

    /** One line for {@code layout --help}. */
    String summary();

    /**
     * Runs the command. Throw {@link IllegalArgumentException} for bad arguments (exit 2) and {@link
     * java.io.IOException} for I/O failures (exit 1); return the exit code otherwise.
     */
    int run(String[] args, PrintStream out, PrintStream err) throws Exception;
}
