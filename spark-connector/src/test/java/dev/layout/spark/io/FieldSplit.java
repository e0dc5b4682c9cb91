package dev.layout.spark.io;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A C-order field of {@code sizes} doubles split into blocks over a process grid {@code procs} (uneven where it does not divide). */
public record FieldSplit(long[] sizes, int[] procs) {
    public int ranks() {
        int n = 1;
        for (int p : procs) {
            n *= p;
        }
        return n;
    }

    public long[] coords(int rank) {
        long[] c = new long[procs.length];
        for (int d = procs.length - 1; d >= 0; d--) {
            c[d] = rank % procs[d];
            rank /= procs[d];
        }
        return c;
    }

    public long lo(int d, long c) {
        return sizes[d] * c / procs[d];
    }

    public Datatype filetype(int rank) {
        long[] c = coords(rank);
        long[] sub = new long[sizes.length];
        long[] start = new long[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            start[d] = lo(d, c[d]);
            sub[d] = lo(d, c[d] + 1) - start[d];
        }
        return Datatype.subarray(sizes, sub, start, Order.C, Primitive.FLOAT64);
    }

    public long cells() {
        long n = 1;
        for (long s : sizes) {
            n *= s;
        }
        return n;
    }

    /** The rank's block with each cell holding its global linear index. */
    public byte[] block(int rank) {
        Datatype t = filetype(rank);
        byte[] out = new byte[(int) t.byteSize()];
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.nativeOrder());
        long[] c = coords(rank);
        fill(b, 0, c, new long[sizes.length]);
        return out;
    }

    private void fill(ByteBuffer b, int d, long[] c, long[] x) {
        for (long i = lo(d, c[d]); i < lo(d, c[d] + 1); i++) {
            x[d] = i;
            if (d == sizes.length - 1) {
                long lin = 0;
                for (int k = 0; k < sizes.length; k++) {
                    lin = lin * sizes[k] + x[k];
                }
                b.putDouble(lin);
            } else {
                fill(b, d + 1, c, x);
            }
        }
    }
}
