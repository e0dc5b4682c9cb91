/**
 * The life job: Conway's Game of Life on a blocked board, by halo exchange or by the sparse
 * allreduce of Träff et al. (2021) on the Chebyshev neighbourhood ({@link
 * dev.layout.jobs.life.AllreduceLife}, positions from {@link dev.layout.jobs.life.BoundaryIndex});
 * its sequential reference ({@link dev.layout.jobs.life.SequentialLife}) and the pattern formats
 * (PBM in {@link dev.layout.jobs.life.Pbm}, RLE in {@link dev.layout.jobs.life.Rle}). The entry
 * point is {@link dev.layout.jobs.life.LifeJob}.
 */
package dev.layout.jobs.life;
