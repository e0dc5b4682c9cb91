/**
 * The engine's kernels, internal to {@code dev.layout.dataloop} (only the engine may use them; an
 * architecture test says so): {@link dev.layout.dataloop.kernel.MemoryAccess} holds the unchecked
 * moves the engine runs after its single up-front footprint check (a wrong offset here is a wrong
 * memory access), {@link dev.layout.dataloop.kernel.ListedAccess} the same for blocks at listed
 * offsets; {@link dev.layout.dataloop.kernel.StridedLoops} the strided loops, one copy per
 * kind of memory and width class; {@link dev.layout.dataloop.kernel.GeneratedKernel} the loops
 * generated per leaf shape (records, planes, strips: hidden classes with the shape's offsets and
 * strides as constants, so the JIT compiles them like hand-written loops; {@code
 * -Dlayout.kernels.generate=false} turns them off).
 */
package dev.layout.dataloop.kernel;
