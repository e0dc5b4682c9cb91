/** The {@code layout normalize} command: {@link dev.layout.normalize.cli.NormalizeCommand}. */
package dev.layout.normalize.cli;
