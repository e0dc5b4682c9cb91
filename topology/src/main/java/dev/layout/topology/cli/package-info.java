/**
 * The {@code topo} command line of the topology module ({@code bin/layout topo neighbors ...}).
 * {@link dev.layout.topology.cli.TopoCommand} parses its arguments and prints; it is plain JDK so
 * that the {@code Subcommand} SPI of layout-core can wrap it without this module depending on the
 * launcher.
 */
package dev.layout.topology.cli;
