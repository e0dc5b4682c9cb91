package dev.layout.autolink;

/**
 * The address abstraction's object -> index map of the encoder: open addressing on identity hash
 * codes, one {@code long} per slot holding the key's hash and its index among the nodes of its
 * type. The key itself is not stored: the caller's node array of the type is the key table ({@code
 * nodes[index] == o} confirms a hit). On graphs of millions of nodes every probe is a cache miss;
 * this layout makes marking a new node one miss (the slot) instead of three (key, hash and value
 * arrays), keeps the table a third smaller, and grows without touching the objects.
 */
final class IdentityIndex {
    /**
     * The table quadruples while smaller than this many slots (32 MB), then doubles: growing is a
     * pass over the whole table, and on a graph of 10^6 nodes quadrupling moves a third as many
     * entries for at most twice the memory.
     */
    static final int QUADRUPLE_BELOW = 1 << 22;

    private long[] slots; // 0 = empty; else hash << 32 | (index + 1)
    private int size;
    private int mask;

    IdentityIndex(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        slots = new long[cap];
        mask = cap - 1;
    }

    static int hash(Object o) {
        int h = System.identityHashCode(o) * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /** Grows the table, if needed, so that k more keys keep it at most half full. */
    void ensureRoom(int k) {
        while ((size + (long) k) * 2 >= slots.length) {
            grow();
        }
    }

    /**
     * Stores the hash of every non-null {@code keys[i]}, i < k, in {@code hashes[i]} and loads its
     * slot: independent loads whose cache misses the processor overlaps, so that the probes that
     * follow find their slots in cache (Java has no prefetch instruction; the loaded values are
     * summed into a field so that the compiler keeps the loads).
     */
    void touch(Object[] keys, int[] hashes, int k) {
        long[] s = slots;
        int m = mask;
        long acc = 0;
        for (int i = 0; i < k; i++) {
            Object o = keys[i];
            if (o != null) {
                int h = hash(o);
                hashes[i] = h;
                acc += s[h & m];
            }
        }
        sink += acc;
    }

    @SuppressWarnings("unused")
    private long sink;

    /**
     * The index of {@code o} (hash {@code h}, from {@link #hash}) among {@code nodes} (the first
     * {@code count} nodes of o's type, where every index this map returned for that type points to
     * its object) if present; otherwise maps it to {@code candidate} and returns {@code -1 -
     * candidate} (negative). Slots of other types may share a hash: their index either lies past
     * {@code count} or names another object. The caller has made room ({@link #ensureRoom}).
     */
    int getOrPut(Object o, int h, Object[] nodes, int count, int candidate) {
        long[] s = slots;
        int m = mask;
        int i = h & m;
        while (true) {
            long x = s[i];
            if (x == 0) {
                s[i] = ((long) h << 32) | (candidate + 1L);
                size++;
                return -1 - candidate;
            }
            if ((int) (x >>> 32) == h) {
                int v = (int) x - 1;
                if (v < count && nodes[v] == o) {
                    return v;
                }
            }
            i = (i + 1) & m;
        }
    }

    static int grownCapacity(int length) {
        return length < QUADRUPLE_BELOW ? length * 4 : length * 2;
    }

    /** Slots in the table. */
    int capacity() {
        return slots.length;
    }

    private void grow() {
        long[] old = slots;
        long[] s = new long[grownCapacity(old.length)];
        int m = s.length - 1;
        for (long x : old) {
            if (x != 0) {
                int i = (int) (x >>> 32) & m;
                while (s[i] != 0) {
                    i = (i + 1) & m;
                }
                s[i] = x;
            }
        }
        slots = s;
        mask = m;
    }
}
