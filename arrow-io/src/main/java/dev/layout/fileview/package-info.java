/**
 * MPI-IO style file views over Hadoop {@code FileSystem} (HDFS in production, the local file
 * system by default): a {@link dev.layout.fileview.FileView} (displacement, etype, filetype)
 * selects the file's bytes; {@link dev.layout.fileview.ViewReader} reads through it with explicit
 * etype offsets and {@link dev.layout.fileview.ViewWriter} writes write-once files through views.
 * {@link dev.layout.fileview.RangePlanner} flattens views segment by segment into file ranges and
 * merges them as a {@link dev.layout.fileview.SievingPolicy} says; reads use {@code
 * PositionedReadable.readVectored} and land in user memory through the engine's unpack. There is no
 * collective I/O here (no two-phase aggregation across processes): the Spark module builds that on
 * top. {@link dev.layout.fileview.FileViewCommand} is the {@code layout fileview} command.
 */
package dev.layout.fileview;
