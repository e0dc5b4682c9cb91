package dev.layout.fileview;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/** {@link ViewReader}'s positioned reads of a batch's ranges into one buffer, several in flight. */
final class ParallelReads {
    private ParallelReads() {}

    /**
     * Reads ranges {@code [from, to)} of {@code b} by position into {@code chunk}, one after the
     * other: up to {@code parallelReads} ({@link ReadOptions#parallelReads()}) in flight (the calling thread and helpers of a
     * shared daemon pool take the next range until none is left). Returns when every read has ended,
     * so no helper touches the buffer afterwards; the first failure is rethrown.
     */
    static void read(
            FSDataInputStream in,
            Path path,
            RangePlanner.Batch b,
            int from,
            int to,
            byte[] chunk,
            int parallelReads,
            long offset)
            throws IOException {
        int count = to - from;
        long[] at = new long[count];
        for (int k = 1; k < count; k++) {
            at[k] = at[k - 1] + b.rangeLength(from + k - 1);
        }
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Failure> failure = new AtomicReference<>();
        Runnable work = () -> {
            for (int k = next.getAndIncrement(); k < count && failure.get() == null; k = next.getAndIncrement()) {
                long off = b.rangeOffset(from + k);
                int len = (int) b.rangeLength(from + k);
                try {
                    in.readFully(off, chunk, (int) at[k], len);
                } catch (Throwable t) {
                    failure.compareAndSet(null, new Failure(off, len, t));
                }
            }
        };
        int helpers = Math.min(parallelReads, count) - 1;
        List<Future<?>> running = new ArrayList<>(helpers);
        try {
            for (int h = 0; h < helpers; h++) {
                running.add(PREADS.submit(work));
            }
        } catch (RejectedExecutionException full) {
            // the calling thread reads whatever the helpers that did start leave
        }
        work.run();
        boolean interrupted = false;
        for (Future<?> f : running) {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException x) {
                    interrupted = true; // the helpers write into the buffer: wait for them all the same
                } catch (ExecutionException x) {
                    failure.compareAndSet(null, new Failure(-1, 0, x.getCause()));
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Failure f = failure.get();
        if (f != null) {
            if (f.cause instanceof EOFException) {
                throw (EOFException) new EOFException("fileview: range [" + f.offset + ", " + (f.offset + f.length)
                                + ") of " + path + " is past its end (read at offset " + offset + "; file changed?)")
                        .initCause(f.cause);
            }
            if (f.cause instanceof IOException io) {
                throw io;
            }
            if (f.cause instanceof RuntimeException rt) {
                throw rt;
            }
            if (f.cause instanceof Error err) {
                throw err;
            }
            throw new IOException(
                    "fileview: reading " + path + " (read at offset " + offset + "): " + f.cause, f.cause);
        }
        if (interrupted) {
            throw new InterruptedIOException(
                    "fileview: interrupted reading " + path + " (read at offset " + offset + ")");
        }
    }

    private record Failure(long offset, int length, Throwable cause) {}

    /** Helpers of parallel positioned reads, shared by all readers: daemon threads, gone after 30 s idle. */
    private static final ExecutorService PREADS =
            new ThreadPoolExecutor(0, 1024, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "fileview-pread");
                t.setDaemon(true);
                return t;
            });
}
