/**
 * Moving byte messages between processes: the {@link dev.layout.transport.Transport} interface
 * (send and receive matched by communicator context, tag and source, every receive with a timeout)
 * and its in-process implementation {@link dev.layout.transport.InProcessTransport}, where each
 * process is a thread of one JVM. Nothing here knows about communicators, topologies or
 * collectives; a network transport implements the same small interface in a later issue.
 */
package dev.layout.transport;
