package dev.layout.fileview;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A file system that counts what readers ask of the streams it opens: positioned reads and
 * sequential read calls, their bytes and the longest single call, and the most positioned reads
 * in flight at once; {@code afterReads} runs once, after the given number of read calls of either
 * kind (in the reading thread: an exception it throws fails that read).
 */
final class CountingFs extends FilterFileSystem {
    final AtomicLong positionedReads = new AtomicLong();
    final AtomicLong positionedBytes = new AtomicLong();
    final AtomicLong sequentialReads = new AtomicLong();
    final AtomicLong sequentialBytes = new AtomicLong();
    final AtomicLong seeks = new AtomicLong();
    final AtomicLong longestCall = new AtomicLong();
    final AtomicLong inFlight = new AtomicLong();
    final AtomicLong mostInFlight = new AtomicLong();
    private final long hookAt;
    private final IoAction hook;
    private boolean hooked;

    interface IoAction {
        void run() throws IOException;
    }

    CountingFs(FileSystem fs) {
        this(fs, Long.MAX_VALUE, null);
    }

    CountingFs(FileSystem fs, long afterReads, IoAction hook) {
        super(fs);
        this.hookAt = afterReads;
        this.hook = hook;
    }

    long readCalls() {
        return positionedReads.get() + sequentialReads.get();
    }

    long bytesRead() {
        return positionedBytes.get() + sequentialBytes.get();
    }

    private synchronized void after(AtomicLong calls, AtomicLong bytes, long n, int asked) throws IOException {
        calls.incrementAndGet();
        if (n > 0) {
            bytes.addAndGet(n);
        }
        longestCall.accumulateAndGet(asked, Math::max);
        if (!hooked && readCalls() >= hookAt) {
            hooked = true;
            hook.run();
        }
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        FSDataInputStream in = fs.open(f, bufferSize);
        return new FSDataInputStream(new ForwardingInputStream(in) {
            @Override
            public int read(long position, byte[] buffer, int offset, int length) throws IOException {
                int n = in.read(position, buffer, offset, length);
                after(positionedReads, positionedBytes, n, length);
                return n;
            }

            @Override
            public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
                mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    in.readFully(position, buffer, offset, length);
                    Thread.sleep(1); // a round trip's worth, so that reads in flight overlap
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    inFlight.decrementAndGet();
                }
                after(positionedReads, positionedBytes, length, length);
            }

            @Override
            public void seek(long pos) throws IOException {
                seeks.incrementAndGet();
                in.seek(pos);
            }

            @Override
            public int read() throws IOException {
                int b = in.read();
                after(sequentialReads, sequentialBytes, b < 0 ? 0 : 1, 1);
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = in.read(buffer, offset, length);
                after(sequentialReads, sequentialBytes, n, length);
                return n;
            }
        });
    }
}
