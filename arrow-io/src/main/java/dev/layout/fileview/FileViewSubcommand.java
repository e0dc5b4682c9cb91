package dev.layout.fileview;

import dev.layout.cli.Subcommand;
import java.io.PrintStream;

/** Registers {@link FileViewCommand} as {@code layout fileview}. */
public final class FileViewSubcommand implements Subcommand {
  @Override
  public String name() {
    return "fileview";
  }

  @Override
  public String summary() {
    return "read an array file through an MPI-IO style view: fileview read --file P --etype float64 --disp B --view \"<type>\" --out P";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) {
    return FileViewCommand.run(args, out, err);
  }
}
