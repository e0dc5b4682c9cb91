/** Stencil kernels of the jobs with exactly the arithmetic of their sequential references. */
package dev.layout.jobs.grid;
