package dev.layout.bench.sweep;

import dev.layout.bench.PackSuite;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * One item's adjacent samples, MB/s per pair: the best hand loop's, the engine's and MPICH's (NaN
 * when not measured), taken next to each other; {@code handKind} the hand loop that was fastest when
 * its round began, {@code alloc} the engine's bytes allocated per run. Samples of several rounds (fresh
 * processes) are {@link #plus pooled}; the ratios are taken per pair, never across pairs.
 */
record Samples(String handKind, long alloc, double[] hand, double[] engine, double[] mpich) {
    Samples {
        if (hand.length != engine.length || mpich.length != engine.length) {
            throw new IllegalArgumentException("bench sweep: samples of " + hand.length + " hand, " + engine.length
                    + " engine and " + mpich.length + " MPICH slices (expected: as many of each)");
        }
    }

    int pairs() {
        return engine.length;
    }

    Estimate vsHand() {
        return Estimate.of(ratios(hand));
    }

    Estimate vsMpich() {
        return Estimate.of(ratios(mpich));
    }

    private double[] ratios(double[] base) {
        double[] r = new double[engine.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = engine[i] / base[i];
        }
        return r;
    }

    /** These samples and {@code o}'s, as one item measured over both rounds (the first round's hand kind, the larger allocation). */
    Samples plus(Samples o) {
        return new Samples(
                handKind,
                Math.max(alloc, o.alloc),
                concat(hand, o.hand),
                concat(engine, o.engine),
                concat(mpich, o.mpich));
    }

    private static double[] concat(double[] a, double[] b) {
        double[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** The row of the table for {@code item}. */
    SweepReport.Row row(SweepGrid.Item item) {
        return new SweepReport.Row(
                item.point(),
                item.target().label(),
                item.op(),
                PackSuite.median(hand),
                handKind,
                PackSuite.median(engine),
                alloc,
                PackSuite.median(mpich),
                vsHand(),
                vsMpich());
    }

    /** As a tab-separated line (how a child JVM hands its samples to the parent). */
    String tsv() {
        return String.join("\t", handKind, "" + alloc, join(hand), join(engine), join(mpich));
    }

    static Samples parse(String line) {
        String[] f = line.split("\t");
        if (f.length != 5) {
            throw new IllegalArgumentException(
                    "bench sweep: samples '" + line + "' (expected: 5 tab-separated fields)");
        }
        return new Samples(f[0], Long.parseLong(f[1]), split(f[2]), split(f[3]), split(f[4]));
    }

    private static String join(double[] v) {
        return Arrays.stream(v).mapToObj(Double::toString).collect(Collectors.joining(","));
    }

    private static double[] split(String s) {
        return Arrays.stream(s.split(",")).mapToDouble(Double::parseDouble).toArray();
    }
}
