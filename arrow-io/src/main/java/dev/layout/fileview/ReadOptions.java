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
 */
public record ReadOptions(SievingPolicy sieving, ReadMode mode, Duration rangeTimeout, int bufferBytes) {
  /** 1 MiB: larger chunks measured no faster (HDFS and the local FS deliver 64 KiB packets or less per call anyway). */
  public static final int DEFAULT_BUFFER_BYTES = 1 << 20;

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
  }

  /**
   * Default sieving, {@link ReadMode#AUTO} (vectored only for sparse ranges where the file system
   * reads vectors natively), 5 minutes per range, 1 MiB read buffer.
   */
  public static ReadOptions defaults() {
    return new ReadOptions(SievingPolicy.defaults(), ReadMode.AUTO, Duration.ofMinutes(5), DEFAULT_BUFFER_BYTES);
  }

  public ReadOptions withSieving(SievingPolicy p) {
    return new ReadOptions(p, mode, rangeTimeout, bufferBytes);
  }

  public ReadOptions withMode(ReadMode m) {
    return new ReadOptions(sieving, m, rangeTimeout, bufferBytes);
  }

  public ReadOptions withRangeTimeout(Duration d) {
    return new ReadOptions(sieving, mode, d, bufferBytes);
  }

  public ReadOptions withBufferBytes(int bytes) {
    return new ReadOptions(sieving, mode, rangeTimeout, bytes);
  }
}
