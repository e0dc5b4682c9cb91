package dev.layout.testing;

import dev.layout.datatype.Datatype;

/** A user buffer laid out around {@code count} elements of a type, with slack on both sides. */
public record Buffers(byte[] bytes, long origin) {
    public static Buffers around(Datatype t, long count, int slack, long seed) {
        long span = (count - 1) * t.extent();
        long lo = Math.min(0, t.trueLb() + Math.min(0, span));
        long hi = Math.max(0, t.trueUb() + Math.max(0, span));
        long origin = slack - lo;
        byte[] b = new byte[(int) (origin + hi + slack)];
        java.util.Random r = new java.util.Random(seed);
        r.nextBytes(b);
        return new Buffers(b, origin);
    }
}
