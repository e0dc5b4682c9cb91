/**
 * Communicators over the tasks of a Spark barrier stage: endpoints exchanged once with
 * {@code BarrierTaskContext.allGather} (about 1 s per call in Spark 4.1.3), then a {@link
 * dev.layout.spark.comm.TransportFactory} connects the mesh. {@code SocketTransport} is a stopgap
 * until {@code dev.layout.transport.TcpTransport} lands; {@link
 * dev.layout.spark.comm.BarrierLauncher} refuses a launch that cannot get its slots.
 */
package dev.layout.spark.comm;
