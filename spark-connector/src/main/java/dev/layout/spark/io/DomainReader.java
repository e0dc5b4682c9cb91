package dev.layout.spark.io;

import dev.layout.fileview.SharedFile;
import dev.layout.fileview.ViewIntersection;
import dev.layout.memory.Memory;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * An aggregator's reads of its file domain in a two-phase read, one cycle ahead of the exchange:
 * while the ranks exchange cycle {@code c}, a thread of its own reads cycle {@code c + 1} (ROMIO
 * overlaps I/O and communication the same way, with two collective buffers). A domain of one cycle
 * is read in the caller's thread.
 *
 * <p>Each cycle covers the bytes any rank needs in it (holes between them included). On the local
 * file system the cycle is a read-only mapping of the file: the exchange then copies straight from
 * the page cache into the ranks' memory, one pass per byte as a plain sequential read makes, and
 * the read-ahead only faults the next cycle's pages in. A cycle's mapping is unmapped as soon as
 * its exchange has returned ({@link #release}): mappings left to the garbage collector hold the
 * file's pages and slowed the next writes of the same process to a third. Elsewhere (HDFS) each
 * cycle is one sequential read into one of two buffers, direct ones where the stream reads into a
 * {@link ByteBuffer} (HDFS), freed when the reader closes: two heap arrays of a cycle each per
 * aggregator and call were large objects the garbage collector collected during the next calls
 * (benchmarks/collective-io.md, session 27).
 *
 * <p>After a failure no more bytes are read, but every cycle still has its runs, so the exchange
 * keeps every rank in step until the failure is agreed on ({@link TwoPhase} then sends zeros).
 */
final class DomainReader implements AutoCloseable {
    /**
     * Cycle {@code lo..}: each rank's runs (null: none), its bytes (byte 0 at file offset {@code
     * lo}), the mapping they are in (null if read into a buffer), the first failure so far.
     */
    record Cycle(long lo, ViewIntersection.Runs[] runs, Memory buffer, MappedByteBuffer mapping, Exception failure) {}

    private static final Memory NOTHING = Memory.ofArray(new byte[0]);

    private final FSDataInputStream in;
    private final FileChannel mapped;
    private final Path path;
    private final IoPlan plan;
    private final int domain;
    private final ViewIntersection[] theirs;
    private final Duration timeout;
    private final ByteBuffer[] buffers;
    private final ExecutorService ahead;
    private Future<Cycle> next;
    private Exception failure;
    /** A read or an exchange of a buffer did not end normally: it may still be in use, leave it to the GC. */
    private boolean abandoned;

    private DomainReader(
            FSDataInputStream in,
            FileChannel mapped,
            Path path,
            IoPlan plan,
            int domain,
            ViewIntersection[] theirs,
            Duration timeout,
            Exception failure) {
        this.in = in;
        this.mapped = mapped;
        this.path = path;
        this.plan = plan;
        this.domain = domain;
        this.theirs = theirs;
        this.timeout = timeout;
        this.failure = failure;
        long length = plan.domains().end(domain) - plan.domains().start(domain);
        int cycles = (int) ((length + plan.cycleBytes() - 1) / plan.cycleBytes());
        int size = (int) Math.min(plan.cycleBytes(), length);
        this.buffers = in == null ? null : new ByteBuffer[cycles > 1 ? 2 : 1];
        for (int i = 0; buffers != null && i < buffers.length; i++) {
            buffers[i] = in.hasCapability(StreamCapabilities.READBYTEBUFFER)
                    ? ByteBuffer.allocateDirect(size)
                    : ByteBuffer.allocate(size);
        }
        this.ahead = cycles > 1
                ? Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "layout-readAll-" + path.getName() + "-domain-" + domain);
                    t.setDaemon(true);
                    return t;
                })
                : null;
    }

    /**
     * The reader of domain {@code domain} of {@code path}; a failure to open the file is kept and
     * reported by every cycle.
     *
     * @param theirs every rank's intersection with the file (null for a rank without data)
     */
    static DomainReader open(
            FileSystem fs, Path path, IoPlan plan, int domain, ViewIntersection[] theirs, Duration timeout) {
        FSDataInputStream in = null;
        FileChannel mapped = null;
        Exception failure = null;
        try {
            File local = SharedFile.localFile(fs, path);
            if (local != null) {
                mapped = FileChannel.open(local.toPath(), StandardOpenOption.READ);
            } else {
                in = fs.open(path);
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        return new DomainReader(in, mapped, path, plan, domain, theirs, timeout, failure);
    }

    /**
     * Cycle {@code c} (called for c = 0, 1, ... in turn), read and {@linkplain #stillMapped checked};
     * starts reading cycle {@code c + 1}.
     */
    Cycle take(int c) {
        Cycle cycle = stillMapped(next != null ? await(next, c) : read(c, false));
        next = null;
        failure = cycle.failure();
        if (ahead != null && c + 1 < plan.cycles() && cycle.failure() == null) {
            next = ahead.submit(() -> read(c + 1, true));
        }
        return cycle;
    }

    private Cycle read(int c, boolean inAdvance) {
        long[] range = plan.cycleRange(domain, c);
        long lo = range[0];
        long hi = range[1];
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
        Memory bytes = NOTHING;
        MappedByteBuffer mapping = null;
        if (spanHi > spanLo && before == null) {
            try {
                if (mapped != null) {
                    mapping = map(lo, spanHi, inAdvance);
                    bytes = Memory.ofBuffer(mapping);
                } else {
                    bytes = stream(c, lo, spanLo, spanHi);
                }
            } catch (IOException | RuntimeException e) {
                before = failure(lo + spanLo, lo + spanHi, e);
            }
        }
        return new Cycle(lo, runs, bytes, mapping, before);
    }

    /** File bytes {@code [lo, lo + span)} mapped; paged in now if read in advance of the exchange. */
    private MappedByteBuffer map(long lo, long span, boolean inAdvance) throws IOException {
        checkSize(lo + span);
        MappedByteBuffer m = mapped.map(FileChannel.MapMode.READ_ONLY, lo, span);
        if (inAdvance) {
            try {
                m.load();
            } catch (InternalError e) { // the JVM's report of a SIGBUS: a page past the file's end
                Memory.unmap(m);
                checkSize(lo + span);
                throw new IOException("a fault paging the mapping in: " + e.getMessage(), e);
            }
        }
        return m;
    }

    private void checkSize(long end) throws IOException {
        long size = mapped.size();
        if (end > size) {
            throw new IOException("the file has " + size + " bytes (expected: at least " + end
                    + "; was it truncated during the read?)");
        }
    }

    /**
     * {@code cycle}, or, if the file has been truncated below the cycle's mapping since it was
     * mapped, the cycle failed (its mapping unmapped, no byte of it touched): the exchange would
     * otherwise fault on a page past the file's end (SIGBUS, which the JVM reports as an {@link
     * InternalError}). Checked right before each cycle's exchange; a truncation during the exchange's
     * copy itself still faults (a window of one cycle's copy).
     */
    Cycle stillMapped(Cycle cycle) {
        if (cycle.mapping() == null) {
            return cycle;
        }
        long end = cycle.lo() + cycle.mapping().capacity();
        try {
            checkSize(end);
            return cycle;
        } catch (IOException e) {
            Memory.unmap(cycle.mapping()); // not exchanged: no one has touched it
            long spanLo = end;
            for (int r = 0; r < cycle.runs().length; r++) {
                if (cycle.runs()[r] != null) {
                    spanLo = Math.min(spanLo, cycle.lo() + cycle.runs()[r].offsets()[0]);
                }
            }
            failure = failure(spanLo, end, e);
            return new Cycle(cycle.lo(), cycle.runs(), NOTHING, null, failure);
        }
    }

    private IOException failure(long from, long to, Exception e) {
        return new IOException(
                "readAll: reading bytes [" + from + ", " + to + ") of " + path + ": " + e.getMessage(), e);
    }

    /**
     * The exchange of {@code cycle} is over: unmaps its mapping, if it has one, once the exchange
     * returned normally (a sender's region is copied or packed before its send returns, and nothing
     * else reads it). After a failed exchange a late peer may still be copying out of the cycle's
     * memory: its mapping, and the read buffers, are left to the garbage collector.
     */
    void release(Cycle cycle, boolean exchanged) {
        if (!exchanged) {
            abandoned = true;
        } else if (cycle.mapping() != null) {
            Memory.unmap(cycle.mapping());
        }
    }

    private Memory stream(int c, long lo, long spanLo, long spanHi) throws IOException {
        ByteBuffer buf = buffers[c % buffers.length];
        in.seek(lo + spanLo);
        if (buf.isDirect()) {
            ByteBuffer b = buf.duplicate();
            b.limit((int) spanHi).position((int) spanLo);
            while (b.hasRemaining()) {
                if (in.read(b) < 0) {
                    throw new EOFException("the file ended at byte " + (lo + b.position()) + " (expected: at least "
                            + (lo + spanHi) + " bytes)");
                }
            }
        } else {
            in.readFully(buf.array(), (int) spanLo, (int) (spanHi - spanLo));
        }
        return Memory.ofBuffer(buf);
    }

    /** The read started for cycle {@code c}; waits at most the communicator's timeout. */
    private Cycle await(Future<Cycle> pending, int c) {
        try {
            return pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            abandoned = true; // the read may still be writing into its buffer
            failure = new IOException("readAll: reading cycle " + c + " of domain " + domain + " of " + path
                    + " took longer than " + timeout + " (expected: within the communicator's timeout)");
        } catch (ExecutionException e) {
            failure = e.getCause() instanceof Exception x ? x : new IOException(e.getCause());
        } catch (InterruptedException e) {
            abandoned = true;
            Thread.currentThread().interrupt();
            failure = new IOException("readAll: interrupted while reading " + path, e);
        }
        // the runs are still needed, to exchange in step with the other ranks; no bytes are read after a failure
        return read(c, false);
    }

    /**
     * Closes the file and frees the direct read buffers at once (their native memory would
     * otherwise wait for the garbage collector), unless one may still be in use: a read still
     * running or an exchange that did not end normally.
     */
    @Override
    public void close() throws IOException {
        if (ahead != null) {
            ahead.shutdownNow();
        }
        try {
            if (in != null) {
                in.close();
            }
        } finally {
            if (mapped != null) {
                mapped.close();
            }
            if (buffers != null && !abandoned && (next == null || next.isDone())) {
                for (ByteBuffer b : buffers) {
                    if (b.isDirect()) { // a direct buffer is a MappedByteBuffer; its cleaner frees it
                        Memory.unmap((MappedByteBuffer) b);
                    }
                }
            }
        }
    }
}
