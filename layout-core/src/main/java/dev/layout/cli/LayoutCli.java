package dev.layout.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The {@code layout} command: dispatches to the {@link Subcommand}s found on the classpath.
 * Errors follow one convention: bad input prints {@code layout: error: <message>} and exits 2; I/O
 * failures print one line and exit 1; anything else prints {@code layout: internal error ...}
 * (the stack trace only with {@code --debug}) and exits 3.
 */
public final class LayoutCli {
    private LayoutCli() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs {@code layout args...}; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        boolean debug = Arrays.asList(args).contains("--debug");
        String[] rest = Arrays.stream(args).filter(a -> !a.equals("--debug")).toArray(String[]::new);
        Map<String, Subcommand> commands = new TreeMap<>();
        for (Subcommand c : ServiceLoader.load(Subcommand.class)) {
            commands.put(c.name(), c);
        }
        if (rest.length == 0 || rest[0].equals("--help") || rest[0].equals("-h") || rest[0].equals("help")) {
            out.println("usage: layout <command> [options]   (layout <command> --help for its options)");
            out.println();
            for (Subcommand c : commands.values()) {
                out.printf("  %-14s %s%n", c.name(), c.summary());
            }
            return rest.length == 0 ? 2 : 0;
        }
        Subcommand c = commands.get(rest[0]);
        if (c == null) {
            err.println("layout: error: unknown command '" + rest[0] + "' (expected one of: "
                    + String.join(", ", commands.keySet()) + ")");
            return 2;
        }
        try {
            return c.run(Arrays.copyOfRange(rest, 1, rest.length), out, err);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return fail(err, "layout: error: " + e.getMessage(), e, debug, 2);
        } catch (IOException e) {
            return fail(err, "layout: I/O error: " + e.getMessage(), e, debug, 1);
        } catch (Exception | Error e) {
            return fail(
                    err,
                    "layout: internal error " + e + (debug ? "" : " (run with --debug for the stack trace)"),
                    e,
                    debug,
                    3);
        }
    }

    /** Prints a failure's one line, and its stack trace only with {@code --debug}; returns {@code status}. */
    public static int fail(PrintStream err, String line, Throwable e, boolean debug, int status) {
        err.println(line);
        if (debug) {
            e.printStackTrace(err);
        }
        return status;
    }
}
