/**
 * Distributed n-dimensional (mostly 3D) arrays backed by Arrow vectors: {@link
 * dev.layout.arrow.grid.BlockDecomposition} (which rank owns which block, matching darray's block
 * distribution), {@link dev.layout.arrow.grid.GhostedBlock} (one rank's block with ghost cells in a
 * dense {@code Float8Vector}) and {@link dev.layout.arrow.grid.HaloTypes} (the send and receive
 * datatypes of every face, edge and corner). Communication is not here: the topology and Spark
 * modules move the packed halos.
 */
package dev.layout.arrow.grid;
