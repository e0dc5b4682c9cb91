/**
 * The {@code fileview} DataSource V2: a binary array file read through an MPI-IO view becomes rows
 * of coordinates and values in Arrow batches, and rows of a whole shape are written back from the
 * executors (in place into one shared file on the local file system, renamed at commit; elsewhere one
 * part per file domain, joined at commit). The entry
 * type is {@link dev.layout.spark.source.FileViewDataSource} (short name {@code fileview}); the
 * rest of Iceberg's chain is package-private. Options are parsed once on the driver into a {@code
 * FileViewSpec}; executors receive the view's filetype as the layout notation of its normalized
 * (least-cost) form, whatever the options described, and the driver logs its size and cost before
 * and after. The views themselves (ranges, sieving, reading) live in arrow-io's {@code
 * dev.layout.fileview}.
 */
package dev.layout.spark.source;
