/**
 * The type model: immutable MPI derived datatypes with exact MPI 4.1 semantics (size, lb/ub,
 * extent, true extent, sticky markers, MPICH's struct padding). The entry type is {@link
 * dev.layout.datatype.Datatype}, whose static factories carry the MPI constructor names; {@link
 * dev.layout.datatype.Primitive} holds the basic types. Nothing here executes a type: packing lives
 * in {@code dev.layout.dataloop}, text in {@code dev.layout.notation}.
 */
package dev.layout.datatype;
