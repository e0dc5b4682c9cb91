/** The {@code layout fileview} command: {@link dev.layout.fileview.cli.FileViewCommand}. */
package dev.layout.fileview.cli;
