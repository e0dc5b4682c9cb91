package dev.layout.spark.io;

import dev.layout.fileview.FileDomains;
import java.io.Serializable;

/**
 * What one rank's {@link CollectiveFile#readAll} or {@link CollectiveFile#writeAll} did. Every
 * rank of a call gets the same strategy, file bytes, domains, cycles and reason.
 *
 * @param strategy {@link Strategy#TWO_PHASE} or {@link Strategy#INDEPENDENT}, as chosen (or forced)
 * @param rankBytes bytes of this rank's data
 * @param fileBytes bytes of the file written, or of the part of it every rank's view spans on a read
 * @param domains the file domains (one part each on a write; null for an empty write and for
 *     independent reads)
 * @param aggregatedDomain the domain this rank accessed as aggregator (or wrote as its own part),
 *     -1 if none
 * @param cycles exchange rounds of the two-phase path (0 on the independent path)
 * @param nanos this rank's wall time in the call
 * @param committed whether the file is complete under its name on return (false for a {@link
 *     CollectiveFile#deferCommit deferred} write until the driver's {@link CollectiveFile#commit})
 * @param reason the cost model's one-line reason for the strategy
 */
public record IoResult(
        Strategy strategy,
        long rankBytes,
        long fileBytes,
        FileDomains domains,
        int aggregatedDomain,
        int cycles,
        long nanos,
        boolean committed,
        String reason)
        implements Serializable {

    /** This rank's data rate in MB/s (10^6 bytes per second). */
    public double rankMegabytesPerSecond() {
        return nanos == 0 ? 0 : rankBytes * 1e3 / nanos;
    }

    /** One line for a job's summary, e.g. {@code two-phase, 4 domains, 3 cycles, 256.0 MB: ...}. */
    public String summary() {
        String how = strategy == Strategy.TWO_PHASE ? "two-phase" : "independent";
        return how + ", " + counted(domains == null ? 0 : domains.count(), "domain") + ", " + counted(cycles, "cycle")
                + ", " + String.format(java.util.Locale.ROOT, "%.1f MB", fileBytes / 1e6) + ": " + reason;
    }

    private static String counted(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
