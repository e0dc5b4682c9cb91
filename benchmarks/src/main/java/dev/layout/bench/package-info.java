/**
 * The support of the {@code layout bench} modes that run in this JVM or in child JVMs: the pack
 * modes ({@link dev.layout.bench.PackModes}: {@code bench type}, {@code bench pack}), the in-process
 * suite runner {@link dev.layout.bench.PackSuite}, its forks, the meter, the {@code RESULTS.md}/PNG
 * writer and the AutoLink graph benchmark. The layouts themselves and the JMH benchmark live in
 * {@code dev.layout.dataloop} (this module), beside the engine they measure; the command is {@link
 * dev.layout.bench.cli.BenchCommand}.
 */
package dev.layout.bench;
