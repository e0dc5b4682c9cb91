/**
 * The dataloop engine (Ross, Miller, Gropp 2003): {@link dev.layout.dataloop.DataloopCompiler} turns
 * a datatype into an optimized {@link dev.layout.dataloop.Dataloop} tree, and a {@link
 * dev.layout.dataloop.Segment} walks it with an explicit stack to pack, unpack (native or
 * external32), flatten or visit any byte range of the packed stream. {@link
 * dev.layout.dataloop.Packing} has the one-call forms. Types are described in {@code
 * dev.layout.datatype}; memory targets in {@code dev.layout.memory}.
 */
package dev.layout.dataloop;
