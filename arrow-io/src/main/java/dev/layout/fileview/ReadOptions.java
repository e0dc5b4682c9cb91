package dev.layout.fileview;

import java.time.Duration;
import java.util.Objects;

/**
 * Options of a {@link ViewReader}: the sieving policy, the read mode and how long to wait for one
 * vectored range before failing.
 *
 * <pre>{@code
 * ReadOptions o = ReadOptions.defaults().withMode(ReadMode.VECTORED);
 * }</pre>
 */
public record ReadOptions(SievingPolicy sieving, ReadMode mode, Duration rangeTimeout) {
  public ReadOptions {
    Objects.requireNonNull(sieving, "read options: sieving is null");
    Objects.requireNonNull(mode, "read options: mode is null");
    Objects.requireNonNull(rangeTimeout, "read options: rangeTimeout is null");
    if (rangeTimeout.isNegative() || rangeTimeout.isZero()) {
      throw new IllegalArgumentException("read options: rangeTimeout " + rangeTimeout + " (expected: > 0)");
    }
  }

  /** Default sieving, {@link ReadMode#AUTO} (vectored only where the file system reads vectors natively), 5 minutes per range. */
  public static ReadOptions defaults() {
    return new ReadOptions(SievingPolicy.defaults(), ReadMode.AUTO, Duration.ofMinutes(5));
  }

  public ReadOptions withSieving(SievingPolicy p) {
    return new ReadOptions(p, mode, rangeTimeout);
  }

  public ReadOptions withMode(ReadMode m) {
    return new ReadOptions(sieving, m, rangeTimeout);
  }

  public ReadOptions withRangeTimeout(Duration d) {
    return new ReadOptions(sieving, mode, d);
  }
}
