package dev.layout.autolink;

import java.util.Arrays;

/**
 * The expander's nodes of one type, by index, in chunks of at most {@link #CHUNK} references. One
 * array per type would be "humongous" to G1 once a type has more than a few hundred thousand nodes:
 * allocated outside the young generation, so that every reference to a freshly created node stored
 * into it is an old-to-young pointer the collector's refinement threads must record (tens of
 * milliseconds per 10^6 nodes). Chunks of 64 KB are allocated young like the nodes themselves. The
 * last chunk grows by doubling, so a small graph does not pay for a full chunk.
 */
final class NodeTable {
    static final int SHIFT = 14;
    static final int CHUNK = 1 << SHIFT;
    static final int MASK = CHUNK - 1;

    private Object[][] chunks = new Object[0][];
    private int used; // chunks in use
    private long capacity;

    /** Makes indices [0, n) settable (n >= 0; never shrinks). */
    void ensure(int n) {
        if (n <= capacity) {
            return;
        }
        int need = (int) ((n + (long) MASK) >>> SHIFT);
        if (need > chunks.length) {
            chunks = Arrays.copyOf(chunks, Math.max(need, chunks.length * 2));
        }
        if (used > 0 && chunks[used - 1].length < CHUNK) { // the partial last chunk
            int last = used - 1;
            int len = need > used
                    ? CHUNK
                    : (int) Math.min(CHUNK, Math.max(n - ((long) last << SHIFT), chunks[last].length * 2L));
            chunks[last] = Arrays.copyOf(chunks[last], len);
        }
        for (int c = used; c < need; c++) {
            long rest = n - ((long) c << SHIFT);
            chunks[c] = new Object[c < need - 1 ? CHUNK : (int) Math.min(CHUNK, Math.max(rest, 16))];
        }
        used = need;
        capacity = ((long) (used - 1) << SHIFT) + chunks[used - 1].length;
    }

    Object get(int i) {
        return chunks[i >>> SHIFT][i & MASK];
    }

    /** Stores {@code src[0, len)} at indices {@code [at, at + len)} (ensured). */
    void put(int at, Object[] src, int len) {
        int done = 0;
        while (done < len) {
            int i = at + done;
            Object[] c = chunks[i >>> SHIFT];
            int j = i & MASK;
            int k = Math.min(len - done, c.length - j);
            System.arraycopy(src, done, c, j, k);
            done += k;
        }
    }

    long capacity() {
        return capacity;
    }
}
