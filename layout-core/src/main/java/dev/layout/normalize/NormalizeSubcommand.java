package dev.layout.normalize;

import dev.layout.cli.Subcommand;
import java.io.PrintStream;

/** Registers {@link NormalizeCommand} as {@code layout normalize}. */
public final class NormalizeSubcommand implements Subcommand {
  @Override
  public String name() {
    return "normalize";
  }

  @Override
  public String summary() {
    return "least-cost con/vec/idx path of a displacement list (--disps, --input) or normalized type (--type)";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) {
    return NormalizeCommand.run(args, out, err);
  }
}
