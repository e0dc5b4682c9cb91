/**
 * Memory targets for the engine: {@link dev.layout.memory.Memory} views a {@code byte[]}, a heap or
 * direct {@code ByteBuffer}, or a raw off-heap region (how arrow-io plugs in {@code ArrowBuf}s
 * without copying) through absolute long offsets, every public access checked. The unchecked
 * kernels the engine runs after its single up-front footprint check are internals of the engine
 * ({@code dev.layout.dataloop.kernel}).
 */
package dev.layout.memory;
