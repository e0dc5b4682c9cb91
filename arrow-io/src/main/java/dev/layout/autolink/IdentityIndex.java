package dev.layout.autolink;

/**
 * The address abstraction's object -> index map: open addressing on identity hash codes, int values,
 * no boxing (an {@code IdentityHashMap<Object,Integer>} costs an Integer per node). Each slot keeps
 * its key's hash, so growing the table never touches the keys' objects again: on a graph of
 * millions of nodes every object header read is a cache miss, and rehashing from the objects was
 * the encoder's largest cost.
 */
final class IdentityIndex {
  private Object[] keys;
  private int[] hashes;
  private int[] values;
  private int size;
  private int mask;

  IdentityIndex(int expected) {
    int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
    keys = new Object[cap];
    hashes = new int[cap];
    values = new int[cap];
    mask = cap - 1;
  }

  private static int hash(Object o) {
    int h = System.identityHashCode(o) * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  /** The index of {@code o}, or -1. */
  int get(Object o) {
    Object[] k = keys;
    int i = hash(o) & mask;
    while (true) {
      Object x = k[i];
      if (x == o) {
        return values[i];
      }
      if (x == null) {
        return -1;
      }
      i = (i + 1) & mask;
    }
  }

  /**
   * The index of {@code o} if present; otherwise maps it to {@code value} and returns {@code -1 -
   * value} (negative). One probe sequence for the encoder's "seen before?" and "mark".
   */
  int getOrPut(Object o, int value) {
    if (size * 2 >= keys.length) {
      grow();
    }
    Object[] k = keys;
    int h = hash(o);
    int i = h & mask;
    while (true) {
      Object x = k[i];
      if (x == o) {
        return values[i];
      }
      if (x == null) {
        k[i] = o;
        hashes[i] = h;
        values[i] = value;
        size++;
        return -1 - value;
      }
      i = (i + 1) & mask;
    }
  }

  /** Maps {@code o} (not yet present) to {@code value}. */
  void put(Object o, int value) {
    if (size * 2 >= keys.length) {
      grow();
    }
    insert(o, hash(o), value);
  }

  private void insert(Object o, int h, int value) {
    int i = h & mask;
    while (keys[i] != null) {
      i = (i + 1) & mask;
    }
    keys[i] = o;
    hashes[i] = h;
    values[i] = value;
    size++;
  }

  private void grow() {
    Object[] ok = keys;
    int[] oh = hashes;
    int[] ov = values;
    keys = new Object[ok.length * 2];
    hashes = new int[ok.length * 2];
    values = new int[ok.length * 2];
    mask = keys.length - 1;
    size = 0;
    for (int j = 0; j < ok.length; j++) {
      if (ok[j] != null) {
        insert(ok[j], oh[j], ov[j]);
      }
    }
  }
}
