package dev.layout.fileview;

import java.util.Arrays;
import java.util.Objects;

/**
 * The split of one file of known length into contiguous file domains, each written by one task
 * ({@link ViewWriter#forDomain}) and assembled in canonical order ({@link ViewWriter#assemble}):
 * domain {@code i} is the bytes {@code [bound(i), bound(i + 1))}.
 *
 * <pre>{@code
 * FileDomains d = FileDomains.even(n * n * n * 8L, 4);   // 4 writers
 * int owner = d.domainOf(fileOffset);                      // route a piece to its writer
 * }</pre>
 */
public final class FileDomains implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final long[] bounds;

    private FileDomains(long[] bounds) {
        this.bounds = bounds;
    }

    /**
     * Domains from their bounds: {@code 0 = b[0] < b[1] < ... < b[n]} = the file length.
     *
     * @throws IllegalArgumentException if there are fewer than two bounds, the first is not 0, or they
     *     do not strictly increase
     */
    public static FileDomains of(long... bounds) {
        Objects.requireNonNull(bounds, "file domains: bounds is null");
        if (bounds.length < 2 || bounds[0] != 0) {
            throw new IllegalArgumentException("file domains: bounds " + Arrays.toString(bounds)
                    + " (expected: 0 = b[0] < b[1] < ... < file length)");
        }
        for (int i = 1; i < bounds.length; i++) {
            if (bounds[i] <= bounds[i - 1]) {
                throw new IllegalArgumentException("file domains: bound " + i + " = " + bounds[i] + " <= bound "
                        + (i - 1) + " = " + bounds[i - 1] + " in " + Arrays.toString(bounds)
                        + " (expected: strictly increasing, no empty domain)");
            }
        }
        return new FileDomains(bounds.clone());
    }

    /**
     * {@code count} domains of nearly equal length (the first {@code length % count} one byte longer),
     * or fewer when the file has fewer bytes than {@code count}.
     */
    public static FileDomains even(long fileLength, int count) {
        if (fileLength <= 0 || count < 1) {
            throw new IllegalArgumentException(
                    "file domains: length " + fileLength + ", count " + count + " (expected: > 0 and >= 1)");
        }
        int n = (int) Math.min(count, fileLength);
        long[] b = new long[n + 1];
        long q = fileLength / n;
        long r = fileLength % n;
        for (int i = 0; i < n; i++) {
            b[i + 1] = b[i] + q + (i < r ? 1 : 0);
        }
        return new FileDomains(b);
    }

    /**
     * At most {@code maxCount} domains whose inner bounds fall on multiples of {@code blockSize}
     * (the file system's block size), so that each domain's part is whole blocks and {@code concat}
     * makes a file of full blocks: as many domains as the file has blocks, up to {@code maxCount},
     * the blocks spread evenly. A file of fewer than two blocks is split {@linkplain #even evenly}
     * into domains of at least {@code minDomainBytes} (one domain if it is smaller than that).
     *
     * @throws IllegalArgumentException naming the argument if a length, count or size is not positive
     */
    public static FileDomains aligned(long fileLength, int maxCount, long blockSize, long minDomainBytes) {
        if (fileLength <= 0) {
            throw new IllegalArgumentException("file domains: length " + fileLength + " (expected: > 0)");
        }
        if (maxCount < 1) {
            throw new IllegalArgumentException("file domains: count " + maxCount + " (expected: >= 1)");
        }
        if (blockSize <= 0) {
            throw new IllegalArgumentException("file domains: block size " + blockSize + " (expected: > 0)");
        }
        if (minDomainBytes <= 0) {
            throw new IllegalArgumentException(
                    "file domains: minimum domain " + minDomainBytes + " (expected: > 0 bytes)");
        }
        long blocks = (fileLength - 1) / blockSize + 1;
        if (blocks < 2) {
            long fit = Math.max(1, fileLength / minDomainBytes);
            return even(fileLength, (int) Math.min(maxCount, fit));
        }
        int n = (int) Math.min(maxCount, blocks);
        long[] b = new long[n + 1];
        for (int i = 1; i < n; i++) {
            // Block index i * blocks / n without overflow: blocks < 2^63 / blockSize, n <= 2^31.
            long q = blocks / n;
            long r = blocks % n;
            b[i] = (q * i + (r * i) / n) * blockSize;
        }
        b[n] = fileLength;
        return new FileDomains(b);
    }

    public int count() {
        return bounds.length - 1;
    }

    public long fileLength() {
        return bounds[bounds.length - 1];
    }

    /** First byte of domain {@code i}; {@code bound(count())} is the file length. */
    public long bound(int i) {
        return bounds[i];
    }

    public long start(int domain) {
        return bounds[domain];
    }

    public long end(int domain) {
        return bounds[domain + 1];
    }

    /** The domain holding file byte {@code fileOffset}. */
    public int domainOf(long fileOffset) {
        if (fileOffset < 0 || fileOffset >= fileLength()) {
            throw new IndexOutOfBoundsException(
                    "file domains: byte " + fileOffset + " outside the file [0, " + fileLength() + ")");
        }
        int i = Arrays.binarySearch(bounds, fileOffset);
        return i >= 0 ? i : -i - 2;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FileDomains d && Arrays.equals(bounds, d.bounds);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bounds);
    }

    @Override
    public String toString() {
        return "FileDomains" + Arrays.toString(bounds);
    }
}
