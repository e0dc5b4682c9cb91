/**
 * The {@code layout bench} command: {@link dev.layout.bench.cli.BenchCommand} dispatches each mode
 * to the benchmark of the package it measures, so it is the only package that sees them all.
 */
package dev.layout.bench.cli;
