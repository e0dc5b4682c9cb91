/**
 * Conformance against recorded MPI results: {@link dev.layout.conformance.ConformanceChecker} checks
 * one vector of the MPICH-generated format (bounds, pack, unpack, external32, flattened layout),
 * used by the test suite and by {@code layout conform}. {@link dev.layout.conformance.Json} is the
 * minimal reader for those files.
 */
package dev.layout.conformance;
