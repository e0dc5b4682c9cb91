package dev.layout.topology;

/**
 * The topological structure of a communicator, seen from one rank. Cartesian naming is not a
 * structure: a communicator with a naming is still one of these three.
 */
public sealed interface Topology permits Topology.FullyConnected, Topology.Bipartite, DistGraph {

    /** The kind, for {@code switch} expressions. */
    TopologyKind kind();

    /** A complete graph over {@code size} ranks. */
    record FullyConnected(int size) implements Topology {
        public FullyConnected {
            if (size < 1) {
                throw new IllegalArgumentException("fullyConnected: size " + size + " (expected: >= 1)");
            }
        }

        @Override
        public TopologyKind kind() {
            return TopologyKind.FULL;
        }

        @Override
        public String toString() {
            return "full(" + size + ")";
        }
    }

    /** The bipartite structure of an inter-communicator: the local and the remote group sizes. */
    record Bipartite(int localSize, int remoteSize) implements Topology {
        public Bipartite {
            if (localSize < 1) {
                throw new IllegalArgumentException("bipartite: localSize " + localSize + " (expected: >= 1)");
            }
            if (remoteSize < 1) {
                throw new IllegalArgumentException("bipartite: remoteSize " + remoteSize + " (expected: >= 1)");
            }
        }

        @Override
        public TopologyKind kind() {
            return TopologyKind.INTER;
        }

        @Override
        public String toString() {
            return "inter(" + localSize + ", " + remoteSize + ")";
        }
    }
}
