package dev.layout.spark.grid;

import dev.layout.collective.Collectives;
import dev.layout.collective.StandardOp;
import dev.layout.comm.Communicator;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Statistics of a distributed field: cell count, min, max, sum, sum of squares and the number of
 * non-zero cells (a Life board's live cells). {@link #of} takes one block's interior; {@link
 * #allreduce} combines every rank's over the communicator, so no rank and not the driver ever
 * holds more than its own block.
 */
public record GridStats(long count, double min, double max, double sum, double sumOfSquares, long nonZero)
        implements Serializable {

    /** The statistics of {@code block}'s interior. */
    public static GridStats of(GridBlock block) {
        int[] n = block.interior();
        int d = n.length;
        int g = block.ghost();
        int[] c = new int[d];
        int[] local = new int[d];
        long total = 1;
        for (int x : n) {
            total *= x;
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        double sq = 0;
        long nonZero = 0;
        for (long k = 0; k < total; k++) {
            for (int a = 0; a < d; a++) {
                local[a] = c[a] + g;
            }
            double v = block.get(block.index(local));
            min = Math.min(min, v);
            max = Math.max(max, v);
            sum += v;
            sq += v * v;
            if (v != 0) {
                nonZero++;
            }
            for (int a = d - 1; a >= 0 && ++c[a] == n[a]; a--) {
                c[a] = 0;
            }
        }
        return new GridStats(total, min, max, sum, sq, nonZero);
    }

    /** Every rank's statistics combined, on every rank (three allreduces of a few bytes). */
    public GridStats allreduce(Communicator comm) {
        Collectives c = Collectives.on(comm);
        double lo = reduce(c, StandardOp.DOUBLE_MIN, min)[0];
        double hi = reduce(c, StandardOp.DOUBLE_MAX, max)[0];
        double[] s = reduce(c, StandardOp.DOUBLE_SUM, sum, sumOfSquares, count, nonZero);
        return new GridStats((long) s[2], lo, hi, s[0], s[1], (long) s[3]);
    }

    private static double[] reduce(Collectives c, StandardOp op, double... values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double v : values) {
            b.putDouble(v);
        }
        byte[] out = new byte[b.capacity()];
        c.allreduce(b.array(), out, op);
        ByteBuffer r = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        double[] v = new double[values.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.getDouble();
        }
        return v;
    }

    public double mean() {
        return count == 0 ? Double.NaN : sum / count;
    }

    /** The Euclidean norm of the field. */
    public double l2() {
        return Math.sqrt(sumOfSquares);
    }
}
