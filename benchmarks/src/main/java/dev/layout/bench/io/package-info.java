/**
 * {@code layout bench io}: collective view I/O ({@code CollectiveFile.writeAll}/{@code readAll},
 * two-phase and independent) on a MiniDFSCluster and the local file system against one
 * sequential stream; see {@code benchmarks/collective-io.md}.
 */
package dev.layout.bench.io;
