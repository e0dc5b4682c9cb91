package dev.layout.topology.cli;

import dev.layout.cli.Subcommand;
import java.io.PrintStream;
import java.util.List;

/** Registers {@link TopoCommand} as {@code layout topo}. */
public final class TopoSubcommand implements Subcommand {
  @Override
  public String name() {
    return "topo";
  }

  @Override
  public String summary() {
    return "Cartesian neighbourhoods: topo neighbors --dims 4,4 --periods 1,1 --metric chebyshev --shadow 1 --depth 1 --rank 5";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) {
    return TopoCommand.run(List.of(args), out, err);
  }
}
