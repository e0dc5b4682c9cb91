package dev.layout.spark.io;

import dev.layout.fileview.ViewIntersection;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * An aggregator's reads of its file domain in a two-phase read, one cycle ahead of the exchange:
 * while the ranks exchange cycle {@code c} from one buffer, a thread of its own reads cycle {@code
 * c + 1} into the other (ROMIO overlaps I/O and communication the same way, with two collective
 * buffers). A domain of one cycle is read in the caller's thread with one buffer.
 *
 * <p>Each cycle is one sequential read of the bytes any rank needs in it (holes between them
 * included). After a failure no more bytes are read, but every cycle still has its runs, so the
 * exchange keeps every rank in step until the failure is agreed on.
 */
final class DomainReader implements AutoCloseable {
    /** Cycle {@code lo..}: each rank's runs (null: none), the buffer holding them, the first failure so far. */
    record Cycle(long lo, ViewIntersection.Runs[] runs, byte[] buffer, Exception failure) {}

    private final FSDataInputStream in;
    private final Path path;
    private final IoPlan plan;
    private final int domain;
    private final ViewIntersection[] theirs;
    private final Duration timeout;
    private final byte[][] buffers;
    private final ExecutorService ahead;
    private Future<Cycle> next;
    private Exception failure;

    /**
     * @param in the open file, or null if opening failed ({@code failure} says why)
     * @param theirs every rank's intersection with the file (null for a rank without data)
     */
    DomainReader(
            FSDataInputStream in,
            Path path,
            IoPlan plan,
            int domain,
            ViewIntersection[] theirs,
            Duration timeout,
            Exception failure) {
        this.in = in;
        this.path = path;
        this.plan = plan;
        this.domain = domain;
        this.theirs = theirs;
        this.timeout = timeout;
        this.failure = failure;
        long length = plan.domains().end(domain) - plan.domains().start(domain);
        int cycles = (int) ((length + plan.cycleBytes() - 1) / plan.cycleBytes());
        int size = (int) Math.min(plan.cycleBytes(), length);
        this.buffers = cycles > 1 ? new byte[][] {new byte[size], new byte[size]} : new byte[][] {new byte[size]};
        this.ahead = cycles > 1
                ? Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "layout-readAll-" + path.getName() + "-domain-" + domain);
                    t.setDaemon(true);
                    return t;
                })
                : null;
    }

    /** Cycle {@code c} (called for c = 0, 1, ... in turn), read; starts reading cycle {@code c + 1}. */
    Cycle take(int c) {
        Cycle cycle = next != null ? await(next, c) : read(c);
        next = null;
        failure = cycle.failure();
        if (ahead != null && c + 1 < plan.cycles() && cycle.failure() == null) {
            next = ahead.submit(() -> read(c + 1));
        }
        return cycle;
    }

    private Cycle read(int c) {
        long[] range = plan.cycleRange(domain, c);
        long lo = range[0];
        long hi = range[1];
        byte[] buf = buffers[c % buffers.length];
        ViewIntersection.Runs[] runs = new ViewIntersection.Runs[theirs.length];
        long spanLo = Long.MAX_VALUE;
        long spanHi = 0;
        for (int r = 0; r < theirs.length && lo < hi; r++) {
            runs[r] = theirs[r] == null ? null : theirs[r].runs(lo, hi);
            if (runs[r] != null) {
                int k = runs[r].offsets().length - 1;
                spanLo = Math.min(spanLo, runs[r].offsets()[0]);
                spanHi = Math.max(spanHi, runs[r].offsets()[k] + runs[r].lengths()[k]);
            }
        }
        Exception before = failure;
        if (spanHi > spanLo && before == null) {
            try {
                in.seek(lo + spanLo);
                in.readFully(buf, (int) spanLo, (int) (spanHi - spanLo));
            } catch (IOException | RuntimeException e) {
                before = new IOException(
                        "readAll: reading bytes [" + (lo + spanLo) + ", " + (lo + spanHi) + ") of " + path + ": "
                                + e.getMessage(),
                        e);
            }
        }
        return new Cycle(lo, runs, buf, before);
    }

    /** The read started for cycle {@code c}; waits at most the communicator's timeout. */
    private Cycle await(Future<Cycle> pending, int c) {
        try {
            return pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            failure = new IOException("readAll: reading cycle " + c + " of domain " + domain + " of " + path
                    + " took longer than " + timeout + " (expected: within the communicator's timeout)");
        } catch (ExecutionException e) {
            failure = e.getCause() instanceof Exception x ? x : new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new IOException("readAll: interrupted while reading " + path, e);
        }
        // the runs are still needed, to exchange in step with the other ranks; no bytes are read after a failure
        return read(c);
    }

    @Override
    public void close() {
        if (ahead != null) {
            ahead.shutdownNow();
        }
    }
}
