/**
 * Memory targets for the engine: {@link dev.layout.memory.Memory} views a {@code byte[]}, a heap or
 * direct {@code ByteBuffer}, or a raw off-heap region (how arrow-io plugs in {@code ArrowBuf}s
 * without copying) through absolute long offsets. {@link dev.layout.memory.MemoryAccess} holds the
 * unchecked kernels the engine uses after its single up-front footprint check.
 */
package dev.layout.memory;
