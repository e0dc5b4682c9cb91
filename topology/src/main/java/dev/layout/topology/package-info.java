/**
 * Topological structure of a communicator, as immutable per-rank descriptions: {@link
 * dev.layout.topology.Topology} is exactly one of fully connected, bipartite (inter-communicator)
 * or a weighted directed multigraph ({@link dev.layout.topology.DistGraph}, which stores only the
 * calling rank's in- and out-lists, never the whole graph). {@link
 * dev.layout.topology.GraphBuilder} runs the distributed graph creation algorithms and {@link
 * dev.layout.topology.Cartesianity} the stencil check of the orthogonality paper (section 3.2) over
 * a small {@link dev.layout.topology.RankExchange}, so this package does not depend on the
 * communicator package that implements the exchange.
 */
package dev.layout.topology;
