/**
 * The {@code layout bench} command and its support: {@link dev.layout.bench.BenchCommand} (entry
 * type), the in-process suite runner {@link dev.layout.bench.PackSuite}, memory {@link
 * dev.layout.bench.Target}s and the {@code RESULTS.md}/PNG writer. The layouts themselves and the JMH
 * benchmark live in {@code dev.layout.dataloop} (this module), beside the engine they measure.
 */
package dev.layout.bench;
