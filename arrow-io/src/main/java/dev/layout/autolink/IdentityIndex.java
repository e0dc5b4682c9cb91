package dev.layout.autolink;

/**
 * The address abstraction's object -> index map: open addressing on identity hash codes, int values,
 * no boxing (an {@code IdentityHashMap<Object,Integer>} costs an Integer per node).
 */
final class IdentityIndex {
  private Object[] keys;
  private int[] values;
  private int size;
  private int mask;

  IdentityIndex(int expected) {
    int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
    keys = new Object[cap];
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

  /** Maps {@code o} (not yet present) to {@code value}. */
  void put(Object o, int value) {
    if (size * 2 >= keys.length) {
      grow();
    }
    int i = hash(o) & mask;
    while (keys[i] != null) {
      i = (i + 1) & mask;
    }
    keys[i] = o;
    values[i] = value;
    size++;
  }

  private void grow() {
    Object[] ok = keys;
    int[] ov = values;
    keys = new Object[ok.length * 2];
    values = new int[ok.length * 2];
    mask = keys.length - 1;
    size = 0;
    for (int j = 0; j < ok.length; j++) {
      if (ok[j] != null) {
        put(ok[j], ov[j]);
      }
    }
  }
}
