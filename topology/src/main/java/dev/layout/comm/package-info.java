/**
 * Communicators: ordered groups of processes carrying exactly one topological structure (fully
 * connected, bipartite or a directed graph) and optionally a Cartesian naming. {@link
 * dev.layout.comm.Communicator} is the entry type: rank, size, {@code topology()}, {@code base()},
 * split/create (yielding induced subgraphs on graphs) and point-to-point messages that are refused
 * between ranks that are not adjacent in the structure. Collective operations live in {@code
 * dev.layout.collective}; {@link dev.layout.comm.CollectiveChannel} is their low-level access.
 * {@link dev.layout.comm.InProcessLauncher} runs one body per rank as threads over an in-process
 * transport.
 */
package dev.layout.comm;
