package dev.layout.spark.source;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.SparkEnv;

/**
 * One write task's rows as (element index, element bytes), in the order Spark delivers them, handed
 * back window by window: all rows whose index falls in window {@code w} (indexes {@code [w *
 * windowElements, (w + 1) * windowElements)}) before any row of a later window, in no order within
 * a window. So the task needs no sort from Spark (a general row sort, the largest cost of the
 * write's shuffle): each run of at most {@code runRows} rows is ordered by window with one counting
 * pass over compact arrays, and a run that fills up is written to a local temporary file (Spark's
 * local directories on an executor) and merged back window by window at the end.
 */
final class WindowRuns implements Closeable {
    /** Takes a row: its element index and its {@code esize} bytes at {@code off} of {@code bytes}. */
    interface Sink {
        void accept(long index, byte[] bytes, int off) throws IOException;
    }

    private final int esize;
    private final long windowElements;
    private final int runRows;
    /** The run in memory: element indexes and bytes, grown up to {@code runRows} rows. */
    private long[] keys = new long[0];

    private byte[] values = new byte[0];
    private int rows;
    private final List<File> spills = new ArrayList<>();

    WindowRuns(int esize, long windowElements, int runRows) {
        if (esize < 1 || windowElements < 1 || runRows < 1) {
            throw new IllegalArgumentException("fileview: window runs of element bytes " + esize + ", window elements "
                    + windowElements + ", run rows " + runRows + " (expected: each >= 1)");
        }
        this.esize = esize;
        this.windowElements = windowElements;
        this.runRows = runRows;
    }

    /** Adds the row of element {@code index}, its bytes the first {@code esize} of {@code element}. */
    void add(long index, byte[] element) throws IOException {
        if (rows == runRows) {
            spill();
        }
        if (rows == keys.length) {
            int n = (int) Math.min(runRows, Math.max(1024L, 2L * keys.length));
            keys = Arrays.copyOf(keys, n);
            values = Arrays.copyOf(values, Math.multiplyExact(n, esize));
        }
        keys[rows] = index;
        System.arraycopy(element, 0, values, rows * esize, esize);
        rows++;
    }

    /** Runs written to temporary files so far (for tests). */
    int spilled() {
        return spills.size();
    }

    /**
     * The run in memory ordered by window: {@code order[start[w - first] .. start[w - first + 1])}
     * are its rows of window {@code w}.
     */
    private record Ordered(long first, int[] start, int[] order) {}

    private Ordered order() {
        if (rows == 0) {
            return new Ordered(0, new int[] {0, 0}, new int[0]);
        }
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < rows; i++) {
            long w = keys[i] / windowElements;
            lo = Math.min(lo, w);
            hi = Math.max(hi, w);
        }
        // The writer sizes windows so that a file has at most 2^20 + 1 of them.
        int[] start = new int[Math.toIntExact(hi - lo + 2)];
        for (int i = 0; i < rows; i++) {
            start[(int) (keys[i] / windowElements - lo) + 1]++;
        }
        for (int w = 1; w < start.length; w++) {
            start[w] += start[w - 1];
        }
        int[] next = Arrays.copyOf(start, start.length - 1);
        int[] order = new int[rows];
        for (int i = 0; i < rows; i++) {
            order[next[(int) (keys[i] / windowElements - lo)]++] = i;
        }
        return new Ordered(lo, start, order);
    }

    /** Writes the run in memory, in window order, to a temporary file: per window its number, row count, rows. */
    private void spill() throws IOException {
        Ordered o = order();
        File f = tempFile();
        spills.add(f);
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(f), 1 << 16))) {
            for (int w = 0; w + 1 < o.start().length; w++) {
                int a = o.start()[w];
                int b = o.start()[w + 1];
                if (a == b) {
                    continue;
                }
                out.writeLong(o.first() + w);
                out.writeInt(b - a);
                for (int k = a; k < b; k++) {
                    int i = o.order()[k];
                    out.writeLong(keys[i]);
                    out.write(values, i * esize, esize);
                }
            }
        }
        rows = 0;
    }

    private static File tempFile() throws IOException {
        SparkEnv env = SparkEnv.get();
        if (env != null) {
            return env.blockManager().diskBlockManager().createTempLocalBlock()._2();
        }
        return Files.createTempFile("fileview-run-", ".bin").toFile();
    }

    /** Hands every row to {@code sink}, window by window in ascending order; the runs are then empty. */
    void drain(Sink sink) throws IOException {
        List<DataInputStream> in = new ArrayList<>();
        try {
            long[] window = new long[spills.size()]; // each spilled run's next window (MAX_VALUE: none)
            for (int r = 0; r < spills.size(); r++) {
                in.add(new DataInputStream(new BufferedInputStream(new FileInputStream(spills.get(r)), 1 << 16)));
                window[r] = nextWindow(in.get(r));
            }
            Ordered mem = order();
            int m = 0; // the run in memory's next window, relative to mem.first()
            byte[] row = new byte[esize];
            while (true) {
                while (m + 1 < mem.start().length && mem.start()[m] == mem.start()[m + 1]) {
                    m++;
                }
                long w = m + 1 < mem.start().length ? mem.first() + m : Long.MAX_VALUE;
                for (long x : window) {
                    w = Math.min(w, x);
                }
                if (w == Long.MAX_VALUE) {
                    break;
                }
                for (int r = 0; r < window.length; r++) {
                    if (window[r] == w) {
                        DataInputStream s = in.get(r);
                        for (int k = s.readInt(); k > 0; k--) {
                            long index = s.readLong();
                            s.readFully(row);
                            sink.accept(index, row, 0);
                        }
                        window[r] = nextWindow(s);
                    }
                }
                if (m + 1 < mem.start().length && mem.first() + m == w) {
                    for (int k = mem.start()[m]; k < mem.start()[m + 1]; k++) {
                        int i = mem.order()[k];
                        sink.accept(keys[i], values, i * esize);
                    }
                    m++;
                }
            }
            rows = 0;
        } finally {
            for (DataInputStream s : in) {
                s.close();
            }
            deleteSpills();
        }
    }

    private static long nextWindow(DataInputStream s) throws IOException {
        try {
            return s.readLong();
        } catch (EOFException end) {
            return Long.MAX_VALUE;
        }
    }

    private void deleteSpills() {
        for (File f : spills) {
            f.delete(); // best effort: Spark removes its local directories when the executor ends
        }
        spills.clear();
    }

    /** Drops the rows and removes the temporary files. */
    @Override
    public void close() {
        rows = 0;
        keys = new long[0];
        values = new byte[0];
        deleteSpills();
    }
}
