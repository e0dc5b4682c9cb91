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
  private long[] slots; // 0 = empty; else hash << 32 | (index + 1)
  private int size;
  private int mask;

  IdentityIndex(int expected) {
    int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
    slots = new long[cap];
    mask = cap - 1;
  }

  private static int hash(Object o) {
    int h = System.identityHashCode(o) * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  /**
   * The index of {@code o} among {@code nodes} (the first {@code count} nodes of o's type, where
   * every index this map returned for that type points to its object) if present; otherwise maps
   * it to {@code candidate} and returns {@code -1 - candidate} (negative). Slots of other types
   * may share a hash: their index either lies past {@code count} or names another object.
   */
  int getOrPut(Object o, Object[] nodes, int count, int candidate) {
    if (size * 2 >= slots.length) {
      grow();
    }
    long[] s = slots;
    int h = hash(o);
    int i = h & mask;
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
      i = (i + 1) & mask;
    }
  }

  private void grow() {
    long[] old = slots;
    long[] s = new long[old.length * 2];
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
