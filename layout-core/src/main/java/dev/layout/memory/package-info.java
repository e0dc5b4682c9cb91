/**
 * Memory targets for the engine: {@link dev.layout.memory.Memory} views a {@code byte[]}, a heap or
 * direct {@code ByteBuffer}, or a raw off-heap region (how arrow-io plugs in {@code ArrowBuf}s
 * without copying) through absolute long offsets. {@link dev.layout.memory.MemoryAccess} holds the
 * unchecked kernels the engine uses after its single up-front footprint check; {@link
 * dev.layout.memory.WordKernel} and {@link dev.layout.memory.PlaneKernel} are kernels generated per
 * leaf shape (hidden classes with the shape's offsets and strides as constants, so the JIT compiles
 * them like hand-written loops; {@code -Dlayout.kernels.generate=false} turns them off).
 */
package dev.layout.memory;
