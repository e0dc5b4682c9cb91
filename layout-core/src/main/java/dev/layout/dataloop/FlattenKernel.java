package dev.layout.dataloop;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects runs, merging a run with the previous one when it continues it in user space; stops (consumes
 * nothing) at a run that would be one piece too many.
 */
final class FlattenKernel extends LeafKernel {
    final int max;
    final long origin;
    final List<Piece> pieces = new ArrayList<>();

    FlattenKernel(int max, long origin) {
        this.max = max;
        this.origin = origin;
        this.whole = false;
    }

    @Override
    long run(long u, long len, long stream, int unit, long phase) {
        long off = u - origin;
        int n = pieces.size();
        Piece last = n == 0 ? null : pieces.get(n - 1);
        if (last != null && last.offset() + last.length() == off) {
            pieces.set(n - 1, new Piece(last.offset(), last.length() + len));
            return len;
        }
        if (n == max) {
            return 0;
        }
        pieces.add(new Piece(off, len));
        return len;
    }
}
