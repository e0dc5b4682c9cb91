package dev.layout.topology;

import dev.layout.naming.CartesianNaming;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/**
 * Whether all ranks of a graph have the same relative neighbourhood: the check of section 3.2 of
 * the orthogonality paper, run when a graph is created on a Cartesian-named communicator. The
 * result is either "Cartesian with offsets V" or "general"; it selects collective algorithms.
 *
 * <p>Every rank translates its out-neighbours to relative offsets, reduced to their {@link
 * CartesianNaming#canonicalOffset canonical form} on periodic dimensions, and compares the sorted
 * list with a reference list V. On a fully periodic grid V is rank 0's list, broadcast, exactly as
 * the paper does. On a grid with a non-periodic dimension rank 0 sits at a corner and lacks
 * offsets, so V is the union (with multiplicities) of all ranks' lists, gathered at rank 0 and
 * broadcast; each rank then must have exactly the offsets of V that stay on the grid. In the same
 * way every rank's in-neighbours must be the sources of V (offsets {@code -v} that stay on the
 * grid), which the message-combining schedules rely on. The answer is agreed by all ranks.
 *
 * <pre>{@code
 * Cartesianity c = graph.cartesianity();
 * c.isCartesian();   // true for a 9-point stencil on a torus
 * c.toString();      // Cartesian with offsets [(-1,-1),(-1,0),(-1,1),(0,-1),(0,1),(1,-1),(1,0),(1,1)]
 * }</pre>
 */
public final class Cartesianity {

    /** The two outcomes of the check. */
    public enum Kind {
        CARTESIAN,
        GENERAL
    }

    private static final Cartesianity GENERAL = new Cartesianity(Kind.GENERAL, null, List.of(), null, null);

    private final Kind kind;
    private final CartesianNaming naming;
    private final List<int[]> offsets;
    private final int[][] outOffsets;
    private final int[][] inOffsets;

    private Cartesianity(
            Kind kind, CartesianNaming naming, List<int[]> offsets, int[][] outOffsets, int[][] inOffsets) {
        this.kind = kind;
        this.naming = naming;
        this.offsets = offsets;
        this.outOffsets = outOffsets;
        this.inOffsets = inOffsets;
    }

    /** The "general" outcome: no common relative neighbourhood (or no naming). */
    public static Cartesianity general() {
        return GENERAL;
    }

    /**
     * Runs the check. Collective over {@code exchange}; every rank passes its own lists and the same
     * naming. Without a naming, or with one that does not name every rank, the answer is "general"
     * at once, without communication.
     */
    public static Cartesianity check(
            CartesianNaming naming, int rank, int[] sources, int[] destinations, RankExchange exchange) {
        if (naming == null || naming.size() != exchange.size()) {
            return GENERAL;
        }
        int[][] out = relativeOffsets(naming, rank, destinations);
        int[][] in = relativeOffsets(naming, rank, sources);
        List<int[]> outSorted = sorted(Arrays.asList(out));
        List<int[]> reference;
        int d = naming.d();
        if (naming.isFullyPeriodic()) {
            reference = decode(exchange.bcast(encode(outSorted, d), 0), d);
        } else {
            byte[][] all = exchange.gather(encode(outSorted, d), 0);
            byte[] union = new byte[0];
            if (all != null) {
                union = encode(union(all, d), d);
            }
            reference = decode(exchange.bcast(union, 0), d);
        }
        List<int[]> expectedOut = new ArrayList<>();
        List<int[]> expectedInNegated = new ArrayList<>();
        for (int[] v : reference) {
            if (naming.relative(rank, v) != CartesianNaming.PROC_NULL) {
                expectedOut.add(v);
            }
            if (naming.relative(rank, negate(v)) != CartesianNaming.PROC_NULL) {
                expectedInNegated.add(v);
            }
        }
        List<int[]> inNegated = new ArrayList<>();
        for (int[] u : in) {
            inNegated.add(naming.canonicalOffset(negate(u)));
        }
        boolean ok = sameList(outSorted, expectedOut) && sameList(sorted(inNegated), expectedInNegated);
        if (!exchange.allTrue(ok)) {
            return GENERAL;
        }
        return new Cartesianity(Kind.CARTESIAN, naming, Collections.unmodifiableList(reference), out, in);
    }

    private static int[][] relativeOffsets(CartesianNaming naming, int rank, int[] ranks) {
        int[][] o = new int[ranks.length][];
        for (int i = 0; i < ranks.length; i++) {
            o[i] = naming.canonicalOffset(naming.relativeCoordinates(rank, ranks[i]));
        }
        return o;
    }

    private static int[] negate(int[] v) {
        int[] n = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            n[i] = -v[i];
        }
        return n;
    }

    private static List<int[]> sorted(List<int[]> l) {
        List<int[]> s = new ArrayList<>(l);
        s.sort(Arrays::compare);
        return s;
    }

    private static boolean sameList(List<int[]> a, List<int[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Multiset union: each offset as often as the most any rank has it. */
    private static List<int[]> union(byte[][] lists, int d) {
        TreeMap<int[], Integer> max = new TreeMap<>(Arrays::compare);
        for (byte[] b : lists) {
            TreeMap<int[], Integer> counts = new TreeMap<>(Arrays::compare);
            for (int[] v : decode(b, d)) {
                counts.merge(v, 1, Integer::sum);
            }
            counts.forEach((v, c) -> max.merge(v, c, Math::max));
        }
        List<int[]> out = new ArrayList<>();
        max.forEach((v, c) -> {
            for (int i = 0; i < c; i++) {
                out.add(v);
            }
        });
        return out;
    }

    private static byte[] encode(List<int[]> offsets, int d) {
        ByteBuffer b = ByteBuffer.allocate(offsets.size() * d * 4);
        for (int[] v : offsets) {
            for (int x : v) {
                b.putInt(x);
            }
        }
        return b.array();
    }

    private static List<int[]> decode(byte[] bytes, int d) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        List<int[]> out = new ArrayList<>();
        while (b.remaining() >= 4 * d) {
            int[] v = new int[d];
            for (int i = 0; i < d; i++) {
                v[i] = b.getInt();
            }
            out.add(v);
        }
        return out;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isCartesian() {
        return kind == Kind.CARTESIAN;
    }

    /** The naming the check ran on; null when general. */
    public CartesianNaming naming() {
        return naming;
    }

    /** The common offsets V, sorted lexicographically, in canonical form (empty when general). */
    public List<int[]> offsets() {
        List<int[]> copy = new ArrayList<>();
        for (int[] v : offsets) {
            copy.add(v.clone());
        }
        return copy;
    }

    /** The offset of out-neighbour i from this rank, canonical (Cartesian only). */
    public int[] outOffset(int i) {
        requireCartesian("outOffset");
        return outOffsets[i].clone();
    }

    /** The offset of in-neighbour i from this rank, canonical (Cartesian only). */
    public int[] inOffset(int i) {
        requireCartesian("inOffset");
        return inOffsets[i].clone();
    }

    private void requireCartesian(String op) {
        if (kind != Kind.CARTESIAN) {
            throw new IllegalStateException(op + ": the neighbourhood is general, not Cartesian");
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Cartesianity c) || c.kind != kind) {
            return false;
        }
        return kind == Kind.GENERAL || (naming.equals(c.naming) && sameList(offsets, c.offsets));
    }

    @Override
    public int hashCode() {
        return kind.hashCode();
    }

    /** "general" or "Cartesian with offsets [(..),..]". */
    @Override
    public String toString() {
        if (kind == Kind.GENERAL) {
            return "general";
        }
        StringBuilder sb = new StringBuilder("Cartesian with offsets [");
        for (int i = 0; i < offsets.size(); i++) {
            sb.append(i == 0 ? "(" : ",(");
            int[] v = offsets.get(i);
            for (int k = 0; k < v.length; k++) {
                sb.append(k == 0 ? "" : ",").append(v[k]);
            }
            sb.append(')');
        }
        return sb.append(']').toString();
    }
}
