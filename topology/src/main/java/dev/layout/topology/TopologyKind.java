package dev.layout.topology;

/** The kind of a {@link Topology}: the {@code Topo_test} of the orthogonality paper. */
public enum TopologyKind {
    /** Fully connected: every rank may talk to every rank (an MPI intra-communicator). */
    FULL,
    /** Bipartite: local and remote group (an MPI inter-communicator). */
    INTER,
    /** A weighted directed multigraph (an MPI distributed graph communicator). */
    GRAPH
}
