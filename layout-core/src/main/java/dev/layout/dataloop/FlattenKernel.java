package dev.layout.dataloop;

import java.util.ArrayList;
import java.util.List;

/** Collects runs, merging a run with the previous one when it continues it in user space. */
final class FlattenKernel extends LeafKernel {
    final int max;
    final long origin;
    final List<Piece> pieces = new ArrayList<>();
    boolean full;
    long lastOff;
    long lastLen = -1;

    FlattenKernel(int max, long origin) {
        this.max = max;
        this.origin = origin;
        this.whole = false;
    }

    @Override
    long run(long u, long len, long stream, int unit, long phase) {
        long off = u - origin;
        if (lastLen >= 0 && lastOff + lastLen == off) {
            lastLen += len;
            pieces.set(pieces.size() - 1, new Piece(lastOff, lastLen));
            return len;
        }
        if (pieces.size() == max) {
            full = true;
            return 0;
        }
        lastOff = off;
        lastLen = len;
        pieces.add(new Piece(off, len));
        return len;
    }
}
