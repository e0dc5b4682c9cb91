package dev.layout.jobs;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The driver's progress bar: {@code heat [###############...............] 50/100  10.0 it/s  ETA 5s},
 * fed with the number of complete iterations (from any thread; see {@code HaloExchange.progress}).
 * On a terminal it redraws one line in place (at most ten times a second); otherwise it prints a
 * plain line for the first count and each further tenth of the run (a line per tenth even when a
 * report jumps over several), so CI logs stay short. {@link
 * #finish} prints the final line, {@code heat [####...#] 100/100  12.5 it/s  done in 8.1s}.
 *
 * <p>The rate is measured from the first count received, so the set-up before the first iteration
 * (launching the stage, connecting the ranks) does not make the early rate look slow; "done in"
 * is the time since the bar was made.
 */
public final class Progress {
    /** The environment variable that picks the {@link Style}; bin/layout-submit sets it from {@code [ -t 2 ]}. */
    public static final String ENV = "LAYOUT_PROGRESS";

    static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    /** How the bar is drawn. */
    public enum Style {
        /** Redrawn in place with carriage returns. */
        TERMINAL,
        /** Plain lines: the first count, each further tenth, the final line. */
        LINES,
        /** Nothing. */
        OFF;

        /**
         * {@code LAYOUT_PROGRESS=terminal|lines|off}; unset: TERMINAL if the JVM has a console, else LINES.
         *
         * @throws IllegalArgumentException for any other value
         */
        public static Style fromEnvironment() {
            return of(System.getenv(ENV), System.console() != null);
        }

        static Style of(String value, boolean console) {
            if (value == null || value.isBlank()) {
                return console ? TERMINAL : LINES;
            }
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "terminal" -> TERMINAL;
                case "lines" -> LINES;
                case "off" -> OFF;
                default ->
                    throw new IllegalArgumentException(ENV + "=" + value + " (expected: terminal, lines or off)");
            };
        }
    }

    private final PrintStream out;
    private final String label;
    private final long total;
    private final Style style;
    private final LongSupplier clock;
    private final long startNanos;
    private long firstDone = -1;
    private long firstNanos;
    private long lastShown = -1;
    private long lastTenth = -1;
    private long lastPrinted = -1;
    private long lastDrawNanos;
    private int drawnWidth;
    private boolean finished;

    /** A bar on stderr in the style {@code LAYOUT_PROGRESS} asks for. */
    public static Progress console(String label, long total, Style style) {
        return new Progress(System.err, label, total, style, System::nanoTime);
    }

    Progress(PrintStream out, String label, long total, Style style, LongSupplier nanoClock) {
        if (total < 0) {
            throw new IllegalArgumentException("progress: total " + total + " (expected: >= 0)");
        }
        this.out = out;
        this.label = label;
        this.total = total;
        this.style = style;
        this.clock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    /** Reports that {@code done} iterations are complete (counts may repeat or, after a retry, go back). */
    public synchronized void update(long done) {
        if (finished || style == Style.OFF) {
            return;
        }
        long now = clock.getAsLong();
        if (firstDone < 0) {
            firstDone = done;
            firstNanos = now;
        }
        if (done == lastShown) {
            return;
        }
        if (style == Style.TERMINAL) {
            if (now - lastDrawNanos < REDRAW_NANOS && lastShown >= 0) {
                return;
            }
            draw("\r" + line(done, now));
        } else {
            long tenth = total == 0 ? 10 : done * 10 / total;
            if (done >= total || tenth <= lastTenth) {
                return; // the final line is finish()'s; within a tenth, stay quiet
            }
            if (lastTenth < 0) {
                out.println(line(done, now)); // the first count, whatever it is
                lastPrinted = done;
            } else {
                // one line per tenth passed: a jump over several tenths (reports come in at most every 100 ms) prints
                // each
                for (long t = lastTenth + 1; t <= tenth; t++) {
                    long at = t == tenth ? done : (t * total + 9) / 10; // the first count in tenth t
                    if (at > lastPrinted) {
                        out.println(line(at, now));
                        lastPrinted = at;
                    }
                }
            }
            lastTenth = tenth;
            out.flush();
        }
        lastShown = done;
        lastDrawNanos = now;
    }

    /**
     * Prints the final line: the full bar, the rate over the whole run and the time since the bar
     * was made; returns that time in nanoseconds (the run's wall time, for the summary, so the two
     * agree). The rate is the total over the same time, so it agrees with the wall time too (after
     * a resume from a checkpoint it counts the resumed iterations).
     */
    public synchronized long finish() {
        long now = clock.getAsLong();
        long elapsed = now - startNanos;
        if (finished || style == Style.OFF) {
            finished = true;
            return elapsed;
        }
        finished = true;
        String text = bar(total)
                + String.format(
                        Locale.ROOT, "  %s it/s  done in %s", overallRate(elapsed), formatSeconds(elapsed / 1e9));
        if (style == Style.TERMINAL) {
            draw("\r" + text);
            out.println();
        } else {
            out.println(text);
        }
        out.flush();
        return elapsed;
    }

    private String overallRate(long elapsedNanos) {
        if (total <= 0 || elapsedNanos <= 0) {
            return "--";
        }
        return String.format(Locale.ROOT, "%.1f", total / (elapsedNanos / 1e9));
    }

    /** The text of the bar after {@code done} iterations at clock time {@code nowNanos}. */
    String line(long done, long nowNanos) {
        String r = rate(done, nowNanos);
        String eta = "?";
        if (!r.equals("--")) {
            double perSecond = (double) (done - firstDone) / ((nowNanos - firstNanos) / 1e9);
            eta = formatSeconds(Math.max(0, total - done) / perSecond);
        }
        return bar(done) + "  " + r + " it/s  ETA " + eta;
    }

    private String bar(long done) {
        long clamped = Math.max(0, Math.min(done, total));
        int filled = total == 0 ? WIDTH : (int) (clamped * WIDTH / total);
        return label + " [" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + done + "/" + total;
    }

    /** Iterations per second since the first count, or "--" before a second, larger count. */
    private String rate(long done, long nowNanos) {
        if (firstDone < 0 || done <= firstDone || nowNanos <= firstNanos) {
            return "--";
        }
        return String.format(Locale.ROOT, "%.1f", (done - firstDone) / ((nowNanos - firstNanos) / 1e9));
    }

    private void draw(String text) {
        int visible = text.length() - 1;
        String pad = visible < drawnWidth ? " ".repeat(drawnWidth - visible) : "";
        out.print(text + pad);
        out.flush();
        drawnWidth = visible;
    }

    static String formatSeconds(double s) {
        if (s < 60) {
            return String.format(Locale.ROOT, "%.1fs", s);
        }
        long whole = (long) s;
        if (whole < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", whole / 60, whole % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", whole / 3600, whole % 3600 / 60);
    }
}
