/**
 * Communicators over the tasks of a Spark barrier stage: endpoints exchanged once with
 * {@code BarrierTaskContext.allGather} (about 1 s per call in Spark 4.1.3), then a {@link
 * dev.layout.spark.comm.TransportFactory} connects the mesh ({@code TcpTransport});
 * {@link dev.layout.spark.comm.BarrierLauncher} refuses a launch that cannot get its slots.
 *
 * <p>Progress of a barrier loop: the whole loop is one Spark stage, so the driver hears nothing
 * until it ends. {@link dev.layout.spark.comm.ProgressReceiver} listens on the driver host and
 * rank 0's {@link dev.layout.spark.comm.ProgressSender} sends it the iteration count, at most ten
 * times a second, fire-and-forget, after proving it holds the job secret the transport uses
 * ({@code JobSecret}); it tries again while the receiver refuses it, and the receiver logs refusals
 * at most once a second. The
 * alternative, a Spark accumulator read by a {@code SparkListener} from executor heartbeats
 * ({@code onExecutorMetricsUpdate}), was not taken: heartbeats come every {@code
 * spark.executor.heartbeatInterval} (10 s by default, and it must stay well below {@code
 * spark.network.timeout}), so a run of a few seconds would show no intermediate progress at all,
 * and lowering the interval for everyone to get a smoother bar loads the driver of every job. The
 * socket needs executors to reach the driver on an ephemeral port, the same assumption barrier
 * mode already makes between executors (local, standalone and YARN alike); where a firewall
 * blocks it, the sender keeps trying quietly and the driver still reports the total when the
 * stage ends.
 */
package dev.layout.spark.comm;
