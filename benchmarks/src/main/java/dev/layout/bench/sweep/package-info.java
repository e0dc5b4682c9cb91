/**
 * {@code layout bench sweep}: the engine against the natural hand loops and against MPICH's {@code
 * MPI_Pack} over a grid of layouts no special case can cover (every block width from 1 to 64 bytes
 * and some wider, strides from just above the block to 64 KiB, four shapes, sizes, memory kinds,
 * pack and unpack). {@link dev.layout.bench.sweep.SweepPoint} is one layout; {@link
 * dev.layout.bench.sweep.SweepGrid} makes the grid; {@link dev.layout.bench.sweep.HandLoops} are the
 * hand loops; {@link dev.layout.bench.sweep.JavaSweep} measures one round in one JVM, each engine
 * slice next to a hand loop's and MPICH's; {@link dev.layout.bench.sweep.NativeSweep} builds {@code
 * benchmarks/native/sweep.c} and serves MPICH's slices from it; {@link dev.layout.bench.sweep.Samples}
 * pools an item's pairs over rounds and {@link dev.layout.bench.sweep.Estimate} turns them into a
 * median ratio with an interval; {@link dev.layout.bench.sweep.SweepCommand} runs the rounds and the
 * adaptive ones; {@link dev.layout.bench.sweep.SweepReport} prints the table, writes {@code SWEEP.md}
 * and the chart.
 */
package dev.layout.bench.sweep;
