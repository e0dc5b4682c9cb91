/**
 * Memory targets for the engine: {@link dev.layout.memory.Memory} (how arrow-io plugs in {@code
 * ArrowBuf}s without copying).
 */
package dev.layout.memory;
