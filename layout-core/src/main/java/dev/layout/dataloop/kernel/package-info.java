/**
 * The engine's kernels, internal to {@code dev.layout.dataloop} (an architecture test says so): the
 * unchecked moves of {@link dev.layout.dataloop.kernel.MemoryAccess} and {@link
 * dev.layout.dataloop.kernel.ListedAccess}, the strided loops ({@link
 * dev.layout.dataloop.kernel.StridedLoops}) and the loops generated per leaf shape ({@link
 * dev.layout.dataloop.kernel.GeneratedKernel}).
 */
package dev.layout.dataloop.kernel;
