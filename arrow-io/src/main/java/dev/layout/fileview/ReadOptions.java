package dev.layout.fileview;

import java.time.Duration;
import java.util.Objects;

/**
 * Options of a {@link ViewReader}: the sieving policy, the read mode, how long to wait for one
 * vectored range before failing, and the size of the buffer that positioned (streamed) reads go
 * through.
 *
 * <pre>{@code
 * ReadOptions o = ReadOptions.defaults().withMode(ReadMode.VECTORED);
 * }</pre>
 *
 * @param bufferBytes the most file bytes a {@link ReadMode#POSITIONED} read holds at once: ranges
 *     are read in chunks of at most this many bytes into one reused buffer, each chunk's data
 *     extracted before the next is read
 * @param parallelReads how many positioned reads of short isolated ranges a {@link
 *     ReadMode#POSITIONED} read keeps in flight at once (1: one after the other, in the calling
 *     thread); the ranges of one round share the buffer, so memory stays at {@code bufferBytes}
 */
public record ReadOptions(
        SievingPolicy sieving, ReadMode mode, Duration rangeTimeout, int bufferBytes, int parallelReads) {
    /** 1 MiB: larger chunks measured no faster (HDFS and the local FS deliver 64 KiB packets or less per call anyway). */
    public static final int DEFAULT_BUFFER_BYTES = 1 << 20;
    /**
     * 8: HDFS serves each positioned read with a new block reader, a round trip the reads can
     * overlap; 256 reads of 2 KiB from MiniDFS took 39 ms with 8 in flight, 49 with 4, 60 with 2 and
     * 77-80 one after the other (FaceReadBenchmark's XZ face, 2 shared cores).
     */
    public static final int DEFAULT_PARALLEL_READS = 8;

    public ReadOptions {
        Objects.requireNonNull(sieving, "read options: sieving is null");
        Objects.requireNonNull(mode, "read options: mode is null");
        Objects.requireNonNull(rangeTimeout, "read options: rangeTimeout is null");
        if (rangeTimeout.isNegative() || rangeTimeout.isZero()) {
            throw new IllegalArgumentException("read options: rangeTimeout " + rangeTimeout + " (expected: > 0)");
        }
        if (bufferBytes < 1) {
            throw new IllegalArgumentException("read options: bufferBytes " + bufferBytes + " (expected: >= 1)");
        }
        if (parallelReads < 1 || parallelReads > 256) {
            throw new IllegalArgumentException(
                    "read options: parallelReads " + parallelReads + " (expected: 1 .. 256)");
        }
    }

    /**
     * Default sieving, {@link ReadMode#AUTO} (vectored only for sparse ranges where the file system
     * reads vectors natively), 5 minutes per range, 1 MiB read buffer, 8 positioned reads in flight.
     */
    public static ReadOptions defaults() {
        return new ReadOptions(
                SievingPolicy.defaults(),
                ReadMode.AUTO,
                Duration.ofMinutes(5),
                DEFAULT_BUFFER_BYTES,
                DEFAULT_PARALLEL_READS);
    }

    public ReadOptions withSieving(SievingPolicy p) {
        return new ReadOptions(p, mode, rangeTimeout, bufferBytes, parallelReads);
    }

    public ReadOptions withMode(ReadMode m) {
        return new ReadOptions(sieving, m, rangeTimeout, bufferBytes, parallelReads);
    }

    public ReadOptions withRangeTimeout(Duration d) {
        return new ReadOptions(sieving, mode, d, bufferBytes, parallelReads);
    }

    public ReadOptions withBufferBytes(int bytes) {
        return new ReadOptions(sieving, mode, rangeTimeout, bytes, parallelReads);
    }

    public ReadOptions withParallelReads(int reads) {
        return new ReadOptions(sieving, mode, rangeTimeout, bufferBytes, reads);
    }
}
