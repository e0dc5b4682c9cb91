package dev.layout.transport;

/**
 * The cells of an {@link AdaptiveSendPolicy} by their long key: an open-addressing table read
 * without a lock or an allocation on every adaptive send (a map of boxed keys allocated a key per
 * look-up, two or three per send), replaced by a copy when a cell is added, which happens once per
 * (peer, size class, block class, heap) met.
 */
final class SendCells {
    private record Table(long[] keys, SendCell[] cells, int size) {}

    private volatile Table table = new Table(new long[16], new SendCell[16], 0);

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

    /** The cell of key: {@code fresh} if it had none, else the one another thread added first. */
    synchronized SendCell add(long key, SendCell fresh) {
        SendCell there = get(key);
        if (there != null) {
            return there;
        }
        Table t = table;
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
