package dev.layout.topology.cli;

import dev.layout.cli.Subcommand;
import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Metric;
import dev.layout.naming.Neighborhoods;
import dev.layout.naming.RankOrder;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code topo neighbors --dims 4,4 --periods 1,0 --metric chebyshev --shadow 1 --depth 1 --rank 5
 * [--order C|F]}: prints one neighbour per line in generation order as {@code OFFSET RANK}, OFFSET
 * the comma-separated relative coordinates, RANK the neighbour's rank in the chosen order (default
 * C) or {@code null} where it falls off a non-periodic border.
 *
 * <p>Exit codes follow the project's CLI rules: 0 on success (and for {@code --help}), 2 with one
 * line {@code layout: error: <message>} on bad arguments.
 */
public final class TopoCommand implements Subcommand {
    static final String USAGE = String.join(
            "\n",
            "usage: layout topo neighbors --dims D1,D2,... [--periods P1,P2,...] --metric chebyshev|manhattan|axis",
            "                             [--shadow S] [--depth K] --rank R [--order C|F]",
            "  prints one neighbour of rank R per line, in generation order, as 'OFFSET RANK'",
            "  (RANK null where the neighbour falls off a non-periodic border)",
            "  --dims      process grid extents",
            "  --periods   1 for a periodic dimension, 0 (default) for not",
            "  --metric    chebyshev (box), manhattan (diamond) or axis (along the axes only)",
            "  --shadow    width of the neighbourhood (default 1)",
            "  --depth     how many shells of width --shadow (default 1)",
            "  --rank      the rank whose neighbours are printed",
            "  --order     rank order of the grid: C (row-major, default) or F (column-major)");

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
        return run(List.of(args), out, err);
    }

    /** Runs {@code topo} with {@code args} (starting with the subcommand), returns the exit code. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.contains("--help") || args.contains("-h")) {
            out.println(USAGE);
            return 0;
        }
        try {
            if (args.isEmpty() || !args.get(0).equals("neighbors")) {
                throw new IllegalArgumentException("topo: subcommand " + (args.isEmpty() ? "missing" : args.get(0))
                        + " (expected: neighbors; layout topo --help)");
            }
            Map<String, String> opts = new HashMap<>();
            for (int i = 1; i < args.size(); i += 2) {
                String key = args.get(i);
                if (!key.startsWith("--") || i + 1 >= args.size()) {
                    throw new IllegalArgumentException(
                            "topo neighbors: argument " + key + " (expected: --option value)");
                }
                opts.put(key.substring(2), args.get(i + 1));
            }
            int[] dims = ints("dims", required(opts, "dims"));
            String periodText = opts.getOrDefault("periods", "0,".repeat(dims.length));
            int[] p = ints("periods", periodText);
            if (p.length != dims.length) {
                throw new IllegalArgumentException(
                        "topo neighbors: periods " + periodText + " (expected: " + dims.length + " values 0 or 1)");
            }
            boolean[] periods = new boolean[p.length];
            for (int i = 0; i < p.length; i++) {
                if (p[i] != 0 && p[i] != 1) {
                    throw new IllegalArgumentException(
                            "topo neighbors: periods[" + i + "] " + p[i] + " (expected: 0 or 1)");
                }
                periods[i] = p[i] == 1;
            }
            RankOrder order;
            String orderText = opts.getOrDefault("order", "C");
            try {
                order = RankOrder.valueOf(orderText);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("topo neighbors: order " + orderText + " (expected: C or F)");
            }
            Metric metric;
            String metricText = required(opts, "metric");
            try {
                metric = Metric.valueOf(metricText.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "topo neighbors: metric " + metricText + " (expected: chebyshev, manhattan or axis)");
            }
            int shadow = integer("shadow", opts.getOrDefault("shadow", "1"));
            int depth = integer("depth", opts.getOrDefault("depth", "1"));
            int rank = integer("rank", required(opts, "rank"));
            CartesianNaming naming = CartesianNaming.of(dims, periods, order);
            if (rank < 0 || rank >= naming.size()) {
                throw new IllegalArgumentException(
                        "topo neighbors: rank " + rank + " (expected: 0.." + (naming.size() - 1) + ")");
            }
            for (Neighborhoods.Neighbor n : Neighborhoods.on(naming).neighbors(rank, metric, shadow, depth)) {
                out.println(n);
            }
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("layout: error: " + e.getMessage());
            return 2;
        }
    }

    private static String required(Map<String, String> opts, String key) {
        String v = opts.get(key);
        if (v == null) {
            throw new IllegalArgumentException("topo neighbors: --" + key + " missing (expected: a value)");
        }
        return v;
    }

    private static int integer(String name, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("topo neighbors: " + name + " " + text + " (expected: an integer)");
        }
    }

    private static int[] ints(String name, String text) {
        String[] parts = text.split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = integer(name, parts[i]);
        }
        return out;
    }
}
