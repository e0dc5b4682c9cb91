/**
 * The engine's kernels, internal to {@code dev.layout.dataloop} (an architecture test says so): the
 * unchecked moves of {@link dev.layout.dataloop.kernel.MemoryAccess} and {@link
 * dev.layout.dataloop.kernel.ListedAccess}, the strided loops ({@link
 * dev.layout.dataloop.kernel.StridedLoops}) and the loops generated per leaf shape ({@link
 * dev.layout.dataloop.kernel.GeneratedKernel}). Each public method that turns a {@link
 * dev.layout.memory.Memory} into a raw address fences it ({@link java.lang.ref.Reference#reachabilityFence})
 * after its last access, so that a buffer the caller holds only through that memory is not freed mid-loop.
 */
package dev.layout.dataloop.kernel;
