/**
 * The {@code layout} command line, pure JDK: {@link dev.layout.cli.LayoutCli} dispatches to {@link
 * dev.layout.cli.Subcommand}s found with {@code ServiceLoader}, so each module adds its own commands
 * (core: describe, pack, conform; {@code normalize} from {@code dev.layout.normalize.cli}). {@link
 * dev.layout.cli.Options} parses their options, {@link dev.layout.cli.InputFiles} checks the files
 * they are given. Every command is a class {@code XxxCommand implements Subcommand} in a {@code cli}
 * package (checked by the module's architecture test).
 */
package dev.layout.cli;
