/**
 * Where the benchmarks' buffers live ({@link dev.layout.bench.memory.Target}: heap, direct or raw
 * off-heap memory) and the {@code Unsafe} handle their hand-written loops use ({@link
 * dev.layout.bench.memory.Raw}). A leaf: the pack suite ({@code dev.layout.bench}), the sweep and
 * the Ross cases ({@code dev.layout.dataloop}) all use it and it uses none of them.
 */
package dev.layout.bench.memory;
