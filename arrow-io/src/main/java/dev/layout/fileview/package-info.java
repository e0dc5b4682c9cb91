/**
 * MPI-IO style file views over Hadoop {@code FileSystem} (HDFS in production, the local file
 * system by default): a {@link dev.layout.fileview.FileView} (displacement, etype, filetype)
 * selects the file's bytes; {@link dev.layout.fileview.ViewReader} reads through it with explicit
 * etype offsets and {@link dev.layout.fileview.ViewWriter} writes write-once files through views.
 * {@link dev.layout.fileview.RangePlanner} flattens views segment by segment into file ranges and
 * merges them as a {@link dev.layout.fileview.SievingPolicy} says; each batch of ranges is read
 * into one reused buffer (positioned reads, or {@code PositionedReadable.readVectored} where the
 * file system has a native vectored read) and the filetype's own layout segment extracts the data
 * into user memory, one kernel call per strided leaf. Several tasks write one file through {@link
 * dev.layout.fileview.FileDomains file domains} whose parts ({@link dev.layout.fileview.DomainPart}) are
 * joined with HDFS {@code concat}, or, on the local file system, which has no {@code concat}, that
 * they write in place into one {@link dev.layout.fileview.SharedFile}. There is no
 * collective I/O here (no two-phase aggregation across processes): the Spark module builds that on
 * top. {@code dev.layout.fileview.cli.FileViewCommand} is the {@code layout fileview} command.
 */
package dev.layout.fileview;
