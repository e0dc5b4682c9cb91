/** The life job: Conway's Game of Life with the sparse allreduce, its sequential reference and PBM I/O. */
package dev.layout.jobs.life;
