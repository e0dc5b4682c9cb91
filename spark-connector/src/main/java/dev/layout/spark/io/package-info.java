/**
 * Collective I/O through file views over a communicator: every rank of a {@link
 * dev.layout.comm.Communicator} reads or writes its own part of one shared file, each through its
 * own {@link dev.layout.fileview.FileView} (MPI-IO's {@code MPI_File_read_all} / {@code
 * MPI_File_write_all} on HDFS and the local file system). The entry type is {@link
 * dev.layout.spark.io.CollectiveFile}; {@link dev.layout.spark.io.IoResult} says which {@link
 * dev.layout.spark.io.Strategy} ran, two-phase (ROMIO's aggregation over file domains aligned to the
 * file system's block size, joined with {@code concat}; one aggregator and domain per host by
 * default, as ROMIO's {@code cb_nodes}, every rank when all are on one host, or {@code
 * withAggregators(n)}; on the local file system aggregators read
 * their domains through a mapping, so the exchange copies from the page cache straight into the
 * ranks' memory) or independent, and how long it took. A call is one collective round to agree on
 * the plan (every rank's access, {@code RankAccess}), the exchange cycles, and one round to agree on
 * the outcome (two for a write that commits: before and after the commit). The
 * code here is written against the communicator only, not against Spark: the in-process
 * communicator runs it in plain JVM tests, the Spark barrier communicator on executors. The pure
 * arithmetic (domains, a view's intersection with a file range as a datatype, domain parts) is in
 * arrow-io's {@code dev.layout.fileview}. {@link dev.layout.spark.io.DomainOutput} is the one write
 * path (open a write, each domain's output, commit, abort, with the fence against late writers)
 * that {@code CollectiveFile} and the {@code fileview} DataSource share.
 *
 * <p>Use from a Spark job: on the driver make the description ({@code CollectiveFile.of(hadoopConf,
 * path).deferCommit()}: serializable, it carries the configuration in a {@link
 * dev.layout.spark.io.HadoopConf}) and capture it in the barrier stage's closure; inside the barrier
 * stage, where each task holds a communicator, every rank calls {@code writeAll} (or {@code
 * readAll}) with its own view and block. After the stage succeeded, the driver calls {@code
 * commit(result)} with any rank's result (metadata only: concat and rename); if the job fails, it
 * calls {@code abort()} in its cleanup, which also removes the parts of ranks that died. A
 * re-attempted stage first removes the parts of the failed attempt, and commits happen once, so the
 * file is written once. Spark retries a failed barrier stage only when it is a shuffle map stage
 * (its output feeds a shuffle, e.g. {@code .repartition(1)} before collecting the results); a
 * barrier result stage fails the job at once. Without {@code deferCommit()} rank 0 commits inside
 * the call (plain JVM use, tests).
 */
package dev.layout.spark.io;
