package dev.layout.jobs;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on the driver console: {@code [#####.....] 50/100  12.3 it/s  ETA 4s}.
 * Redraws in place on a terminal and prints at most every 5% otherwise (logs stay readable).
 */
public final class Progress {
  private final PrintStream out;
  private final String label;
  private final long total;
  private final long startNanos;
  private final boolean terminal;
  private long lastPrintedPercent = -1;

  public Progress(PrintStream out, String label, long total) {
    this.out = out;
    this.label = label;
    this.total = Math.max(1, total);
    this.startNanos = System.nanoTime();
    this.terminal = System.console() != null;
  }

  /** Reports that {@code done} of the total iterations are complete. */
  public synchronized void update(long done) {
    long percent = done * 100 / total;
    if (!terminal && percent / 5 == lastPrintedPercent / 5 && done != total) {
      return;
    }
    lastPrintedPercent = percent;
    out.print((terminal ? "\r" : "") + line(done, System.nanoTime() - startNanos) + (terminal && done != total ? "" : "\n"));
    out.flush();
  }

  /** The text of the bar after {@code done} iterations in {@code elapsedNanos}. */
  public String line(long done, long elapsedNanos) {
    int width = 30;
    int filled = (int) (done * width / total);
    double seconds = elapsedNanos / 1e9;
    double rate = seconds > 0 ? done / seconds : 0;
    String eta = rate > 0 ? formatSeconds((total - done) / rate) : "?";
    return String.format(Locale.ROOT, "%s [%s%s] %d/%d  %.1f it/s  ETA %s", label, "#".repeat(filled), ".".repeat(width - filled), done, total,
        rate, eta);
  }

  static String formatSeconds(double s) {
    if (s < 60) {
      return String.format(Locale.ROOT, "%.0fs", s);
    }
    return String.format(Locale.ROOT, "%dm%02ds", (long) s / 60, (long) s % 60);
  }
}
