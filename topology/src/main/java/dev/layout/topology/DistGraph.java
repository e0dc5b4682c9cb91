package dev.layout.topology;

import java.util.Arrays;

/**
 * One rank's view of a weighted directed multigraph: its in-neighbours (sources) and
 * out-neighbours (destinations) in the order given at creation, with optional weights, and the
 * result of the Cartesianity check. An edge listed k times counts k times in every collective.
 *
 * <pre>{@code
 * DistGraph g = DistGraph.of(new int[] {1, 3}, null, new int[] {1, 3}, null, Cartesianity.general());
 * g.indegree();   // 2
 * }</pre>
 */
public final class DistGraph implements Topology {

    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destinationWeights;
    private final Cartesianity cartesianity;

    private DistGraph(
            int[] sources, int[] sourceWeights, int[] destinations, int[] destinationWeights, Cartesianity c) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destinationWeights = destinationWeights;
        this.cartesianity = c;
    }

    /**
     * A graph view. Weights are null for an unweighted graph; both or neither must be given.
     *
     * @throws IllegalArgumentException if a rank is negative, weights are negative or weights and
     *     lists differ in length
     */
    public static DistGraph of(
            int[] sources,
            int[] sourceWeights,
            int[] destinations,
            int[] destinationWeights,
            Cartesianity cartesianity) {
        String op = "distGraph";
        checkRanks(op, "sources", sources);
        checkRanks(op, "destinations", destinations);
        if ((sourceWeights == null) != (destinationWeights == null)) {
            throw new IllegalArgumentException(
                    op + ": weights " + (sourceWeights == null ? "on destinations only" : "on sources only")
                            + " (expected: both weighted or both unweighted)");
        }
        checkWeights(op, "sourceWeights", sourceWeights, sources.length);
        checkWeights(op, "destinationWeights", destinationWeights, destinations.length);
        return new DistGraph(
                sources.clone(),
                sourceWeights == null ? null : sourceWeights.clone(),
                destinations.clone(),
                destinationWeights == null ? null : destinationWeights.clone(),
                cartesianity == null ? Cartesianity.general() : cartesianity);
    }

    static void checkRanks(String op, String arg, int[] ranks) {
        if (ranks == null) {
            throw new IllegalArgumentException(op + ": " + arg + " null (expected: an array of ranks)");
        }
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] < 0) {
                throw new IllegalArgumentException(op + ": " + arg + "[" + i + "] " + ranks[i] + " (expected: >= 0)");
            }
        }
    }

    static void checkWeights(String op, String arg, int[] weights, int length) {
        if (weights == null) {
            return;
        }
        if (weights.length != length) {
            throw new IllegalArgumentException(
                    op + ": " + arg + " length " + weights.length + " (expected: " + length + ")");
        }
        for (int i = 0; i < weights.length; i++) {
            if (weights[i] < 0) {
                throw new IllegalArgumentException(op + ": " + arg + "[" + i + "] " + weights[i] + " (expected: >= 0)");
            }
        }
    }

    @Override
    public TopologyKind kind() {
        return TopologyKind.GRAPH;
    }

    /** In-neighbours in order (a copy). */
    public int[] sources() {
        return sources.clone();
    }

    /** Out-neighbours in order (a copy). */
    public int[] destinations() {
        return destinations.clone();
    }

    /** In-edge weights in order, or null if unweighted (a copy). */
    public int[] sourceWeights() {
        return sourceWeights == null ? null : sourceWeights.clone();
    }

    /** Out-edge weights in order, or null if unweighted (a copy). */
    public int[] destinationWeights() {
        return destinationWeights == null ? null : destinationWeights.clone();
    }

    public int indegree() {
        return sources.length;
    }

    public int outdegree() {
        return destinations.length;
    }

    /** In-neighbour i. */
    public int source(int i) {
        return sources[i];
    }

    /** Out-neighbour i. */
    public int destination(int i) {
        return destinations[i];
    }

    public boolean isWeighted() {
        return sourceWeights != null;
    }

    /** Whether {@code rank} is among the in-neighbours. */
    public boolean hasSource(int rank) {
        for (int s : sources) {
            if (s == rank) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code rank} is among the out-neighbours. */
    public boolean hasDestination(int rank) {
        for (int t : destinations) {
            if (t == rank) {
                return true;
            }
        }
        return false;
    }

    /** The result of the Cartesianity check made at creation. */
    public Cartesianity cartesianity() {
        return cartesianity;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DistGraph g
                && Arrays.equals(sources, g.sources)
                && Arrays.equals(destinations, g.destinations)
                && Arrays.equals(sourceWeights, g.sourceWeights)
                && Arrays.equals(destinationWeights, g.destinationWeights)
                && cartesianity.equals(g.cartesianity);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sources) * 31 + Arrays.hashCode(destinations);
    }

    /** For example {@code graph(in [1,3], out [1,3], general)}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("graph(in ");
        sb.append(list(sources, sourceWeights)).append(", out ").append(list(destinations, destinationWeights));
        return sb.append(", ").append(cartesianity).append(')').toString();
    }

    private static String list(int[] ranks, int[] weights) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < ranks.length; i++) {
            sb.append(i == 0 ? "" : ",").append(ranks[i]);
            if (weights != null) {
                sb.append(':').append(weights[i]);
            }
        }
        return sb.append(']').toString();
    }
}
