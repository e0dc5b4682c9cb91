package dev.layout.transport;

/**
 * The cells of an {@link AdaptiveSendPolicy} by their long key: an open-addressing table read
 * without a lock or an allocation on every adaptive send (a map of boxed keys allocated a key per
 * look-up, two or three per send), replaced by a copy when a cell is added, which happens once per
 * (peer, type shape, size class, block class, heap) met, up to a most number of cells.
 */
final class SendCells {
    /**
     * Most cells of a table: a cell keeps two windows of {@link PairedGap#PAIRS} doubles, some 3 KB, so
     * a table holds at most some 3 MB however many peers and message kinds a process meets.
     */
    static final int MOST_CELLS = 1024;

    private record Table(long[] keys, SendCell[] cells, int size) {}

    private final int most;
    private volatile Table table = new Table(new long[16], new SendCell[16], 0);

    SendCells() {
        this(MOST_CELLS);
    }

    /** A table of at most {@code most} cells. */
    SendCells(int most) {
        if (most < 1) {
            throw new IllegalArgumentException("sendCells: most " + most + " (expected: >= 1)");
        }
        this.most = most;
    }

    /** The cell of key, or null. */
    SendCell get(long key) {
        Table t = table;
        int mask = t.cells.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            SendCell c = t.cells[i];
            if (c == null || t.keys[i] == key) {
                return c;
            }
        }
    }

    /**
     * The cell of key: {@code fresh} if it had none, else the one another thread added first; null if
     * it had none and the table holds its most cells already.
     */
    synchronized SendCell add(long key, SendCell fresh) {
        SendCell there = get(key);
        if (there != null) {
            return there;
        }
        Table t = table;
        if (t.size >= most) {
            return null;
        }
        int capacity = t.cells.length;
        while (2 * (t.size + 1) > capacity) {
            capacity *= 2;
        }
        long[] keys = new long[capacity];
        SendCell[] cells = new SendCell[capacity];
        for (int i = 0; i < t.cells.length; i++) {
            if (t.cells[i] != null) {
                put(keys, cells, t.keys[i], t.cells[i]);
            }
        }
        put(keys, cells, key, fresh);
        table = new Table(keys, cells, t.size + 1);
        return fresh;
    }

    private static void put(long[] keys, SendCell[] cells, long key, SendCell c) {
        int mask = cells.length - 1;
        int i = slot(key, mask);
        while (cells[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        cells[i] = c;
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
