package dev.layout.bench.cli;

import dev.layout.bench.GraphBenchMain;
import dev.layout.bench.PackModes;
import dev.layout.bench.layouts.FirstCallsBenchmark;
import dev.layout.bench.layouts.LayoutsBenchmark;
import dev.layout.bench.sweep.SweepCommand;
import dev.layout.cli.Subcommand;
import dev.layout.spark.grid.HaloBenchmark;
import dev.layout.transport.PingPongBenchmark;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * {@code layout bench}: the benchmarks of every module, one mode each; this class only dispatches.
 * {@code type} and {@code pack}: {@link PackModes}; {@code sweep}: {@link SweepCommand}; {@code
 * layouts}: {@link LayoutsBenchmark}; {@code first-calls}: {@link FirstCallsBenchmark}; {@code
 * pingpong}: {@link PingPongBenchmark}; {@code graph}: {@link GraphBenchMain}; {@code halo}: {@link
 * HaloBenchmark}; {@code io}: {@link dev.layout.bench.io.CollectiveIoBenchmark}; {@code dswrite}: {@link
 * dev.layout.bench.io.DataSourceWriteBenchmark}.
 */
public final class BenchCommand implements Subcommand {
    @Override
    public String name() {
        return "bench";
    }

    @Override
    public String summary() {
        return "benchmarks: one type (bench type), the Ross suite vs hand-written loops (bench pack), the layout sweep vs MPICH (bench sweep), drawn application layouts vs hand loops (bench layouts), the first calls on layouts not met before (bench first-calls), ping-pong (bench pingpong), graphs (bench graph), the halo exchange on Spark (bench halo), collective I/O (bench io), the fileview DataSource's write (bench dswrite)";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        if (args.length == 0 || args[0].equals("--help")) {
            out.println(
                    "usage: layout bench type --type \"<layout notation>\" | --type-file PATH [--count N] [--target heap|direct|offheap] [--seconds S]");
            out.println(
                    "       layout bench pack [--quick] [--case NAME,...] [--target heap,direct,offheap] [--trials N] [--slice-ms MS] [--forks N] [--out DIR]");
            out.println(
                    "       layout bench sweep [--quick] [--native] [--rounds N] [--out DIR]   (block widths 1..4096 x strides x shapes: engine vs hand loops vs MPICH)");
            out.println(
                    "       layout bench layouts [--seed S] [--layouts N] [--bytes B] [--target heap|direct|offheap]   (drawn application layouts: engine vs hand loops)");
            out.println(
                    "       layout bench first-calls [--seed S] [--layouts N] [--bytes B] [--calls C] [--skip K]   (the first calls on layouts the JVM has not met: engine vs a compiled hand loop)");
            out.println(
                    "       layout bench pingpong [--quick] [--reps N]   (two JVMs over loopback TCP: pack vs gather vs adaptive)");
            out.println(
                    "       layout bench graph [--quick] [--rounds N]     (AutoLink vs Kryo 5 vs Java serialization, child JVM)");
            out.println(
                    "       layout bench halo [--quick] [--iterations N] [--shuffle-iterations N] [--block N]   (2D halo exchange: Spark barrier vs shuffle vs 4 JVMs)");
            out.println(
                    "       layout bench io [--quick] [--reps N] [--mb M]   (collective writeAll/readAll vs one stream, MiniDFS and local)\n"
                            + "       layout bench dswrite [--quick] [--reps N] [--mb M]   (the fileview DataSource's write, local and MiniDFS)");
            return args.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        return switch (args[0]) {
            case "type" -> PackModes.type(rest, out);
            case "pack" -> PackModes.pack(rest, out);
            case "sweep" -> sweep(rest, out);
            case "layouts" -> LayoutsBenchmark.run(rest, out);
            case "first-calls" -> FirstCallsBenchmark.run(rest, out);
            case "pingpong" -> PingPongBenchmark.run(rest, out, err);
            case "graph" -> GraphBenchMain.run(rest, out);
            case "halo" -> halo(rest, out);
            case "io" -> dev.layout.bench.io.CollectiveIoBenchmark.run(rest, out);
            case "dswrite" -> dev.layout.bench.io.DataSourceWriteBenchmark.run(rest, out);
            default ->
                throw new IllegalArgumentException(
                        "bench: unknown mode '" + args[0]
                                + "' (expected: type, pack, sweep, layouts, first-calls, pingpong, graph, halo, io or dswrite)");
        };
    }

    private static int sweep(String[] args, PrintStream out) throws IOException {
        try {
            return SweepCommand.run(args, out, PackModes.resultsDir());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("bench sweep: interrupted", e);
        }
    }

    private static int halo(String[] args, PrintStream out) throws IOException {
        try {
            return HaloBenchmark.run(args, out);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("bench halo: " + e.getMessage(), e);
        }
    }
}
