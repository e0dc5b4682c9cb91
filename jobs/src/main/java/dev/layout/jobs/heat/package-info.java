/** The heat job: Jacobi heat diffusion on a distributed 2D/3D grid, and its sequential reference. */
package dev.layout.jobs.heat;
