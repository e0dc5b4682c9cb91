/**
 * The {@code layout topo} command ({@code bin/layout topo neighbors ...}): {@link
 * dev.layout.topology.cli.TopoCommand}, a {@code Subcommand} found by the launcher on the classpath.
 */
package dev.layout.topology.cli;
