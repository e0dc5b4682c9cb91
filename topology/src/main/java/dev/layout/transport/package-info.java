/**
 * Moving messages between processes: the {@link dev.layout.transport.Transport} interface (send and
 * receive matched by communicator context, tag and source, non-overtaking, every wait with a
 * timeout, typed sends and receives of datatype-described memory), the in-process {@link
 * dev.layout.transport.InProcessTransport} (threads of one JVM) and the network {@link
 * dev.layout.transport.TcpTransport} (java.nio over TCP, authenticated by a {@link
 * dev.layout.transport.JobSecret}, eager and rendezvous protocols, credit flow control).
 *
 * <p>Typed sends choose per message between packing and a gathering write (Furmento and Mercier
 * 2005) with {@link dev.layout.transport.AdaptiveSendPolicy}, which starts from {@link
 * dev.layout.transport.SendCostModel} (optionally calibrated into {@code conf/transport.properties}
 * by the benchmarks module's {@code TransportCalibration}) and learns from the sends; the benchmarks
 * module's {@code PingPongBenchmark} is the paper's appendix B between two JVMs. An adaptive
 * send the policy samples (every exploration, one exploitation in a few once its estimate is made)
 * asks its receiver for a completion report (a flag on its send request or eager frame, answered by
 * a report frame that travels with the receiver's next frame), so that the policy learns what a
 * strategy costs end to end, not only what it costs the sender (eager messages under 16 KiB, where
 * a report costs a visible share of the round trip, are learnt from the sender's time). The policy's
 * parts: {@link dev.layout.transport.SendCell} per (peer, size class, block class, heap), its {@link
 * dev.layout.transport.PairedGap} and {@link dev.layout.transport.ExplorationBudget}. Blocking
 * java.nio channels with a reader thread per connection were chosen over Netty: no dependency, and
 * a gathering write over user memory is one JDK call. Nothing here knows about communicators,
 * topologies or collectives.
 *
 * <p>Receiver-posted messages ({@link dev.layout.transport.Transport#postReceive} and {@code
 * sendToPosted}, over a {@link dev.layout.transport.TypedRegion} on each side) are the single-copy
 * path between threads of one JVM, as MPI libraries move large messages in shared memory: the
 * in-process sender copies its typed memory straight into the receiver's posted one with one engine
 * pass. A network transport keeps the interface's default (pack, send, unpack). {@link
 * dev.layout.transport.SameJvmTransport} puts a network transport and an in-process fabric together
 * for processes that share a JVM (Spark runs several ranks in one executor): they talk in process,
 * everybody else over the network.
 * {@link dev.layout.transport.ForwardingTransport} is the base of wrappers that hand their messages
 * to another endpoint ({@link dev.layout.transport.PackingTransport}: the packed path on an
 * in-process fabric).
 *
 * <p>A frame is a header and payload bytes: typed sends put the packed (or gathered) bytes on the
 * wire and typed receives unpack them with the receiver's own datatype, so no datatype description
 * crosses the connection. Typed operations walk the memory with a segment of their thread's ({@link
 * dev.layout.dataloop.ThreadSegments}), re-aimed rather than made anew: a repeated packed send
 * allocates nothing on the sending thread.
 */
package dev.layout.transport;
