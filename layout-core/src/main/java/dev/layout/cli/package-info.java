/**
 * The {@code layout} command line, pure JDK: {@link dev.layout.cli.LayoutCli} dispatches to {@link
 * dev.layout.cli.Subcommand}s found with {@code ServiceLoader}, so each module adds its own commands
 * (core: describe, pack, conform). {@link dev.layout.cli.Options} parses their options.
 */
package dev.layout.cli;
