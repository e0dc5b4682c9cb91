package dev.layout.autolink;

import java.util.Arrays;

/** A growable int array (reference indices per column, no boxing). */
final class IntList {
    private int[] a = new int[16];
    private int size;

    void add(int v) {
        if (size == a.length) {
            a = Arrays.copyOf(a, a.length * 2);
        }
        a[size++] = v;
    }

    /** Appends k unset elements; returns the backing array (the new ones at {@code [size() - k, size())}). */
    int[] extend(int k) {
        if (size + k > a.length) {
            a = Arrays.copyOf(a, (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(size + (long) k, a.length * 2L)));
        }
        size += k;
        return a;
    }

    int size() {
        return size;
    }

    /** The backing array; elements {@code [0, size())} are valid. */
    int[] array() {
        return a;
    }
}
