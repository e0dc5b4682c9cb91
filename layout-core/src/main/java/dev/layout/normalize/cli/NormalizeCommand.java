package dev.layout.normalize.cli;

import dev.layout.cli.InputFiles;
import dev.layout.cli.Subcommand;
import dev.layout.datatype.Datatype;
import dev.layout.normalize.CostModel;
import dev.layout.normalize.DisplacementSequence;
import dev.layout.normalize.Normalizer;
import dev.layout.normalize.TypePath;
import dev.layout.notation.LayoutParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * {@code bin/layout normalize}: the command line of the normalizer ({@link #run(String[],
 * PrintStream, PrintStream)} returns the exit status).
 *
 * <pre>
 * layout normalize [--model storage|processing] [--kcon A --kvec B --kidx C]
 *                  [--ccon D --cvec E --cidx F] [--conf FILE] (--disps=LIST | --input FILE)
 * </pre>
 *
 * <ul>
 *   <li>{@code --disps=2,4,6,8}: prints the least-cost path in the paper's notation followed by
 *       {@code " cost=N"} on one line (the last line of output).
 *   <li>{@code --input FILE}: FILE holds one comma-separated displacement list per line; prints one
 *       line {@code <path> cost=N} per non-blank input line, in order.
 *   <li>Options take their value as {@code --opt=value} or {@code --opt value}; values may start
 *       with {@code -} ({@code --disps=-3,5,7}, {@code --disps -3,5,7}).
 *   <li>Constants not given come from {@code --conf FILE} (a {@code normalizer.properties}) if
 *       given, else from {@code normalizer.properties} in {@code $LAYOUT_CONF} or {@code ./conf} if
 *       there is one (the repository's {@code conf/normalizer.properties} holds {@link
 *       CostModel#DEFAULTS}), else from {@link CostModel#DEFAULTS}.
 *   <li>Exit status: 0 on success; 2 for bad arguments or input ({@code layout: error: <message>});
 *       1 if a file cannot be read.
 * </ul>
 */
public final class NormalizeCommand implements Subcommand {

    private static final Set<String> OPTIONS =
            Set.of("model", "kcon", "kvec", "kidx", "ccon", "cvec", "cidx", "disps", "input", "conf", "type");

    private final Path confDir;

    /** The command reading {@code normalizer.properties} from {@code $LAYOUT_CONF}, or {@code ./conf}. */
    public NormalizeCommand() {
        this(Path.of(
                System.getenv("LAYOUT_CONF") == null
                                || System.getenv("LAYOUT_CONF").isBlank()
                        ? "conf"
                        : System.getenv("LAYOUT_CONF")));
    }

    NormalizeCommand(Path confDir) {
        this.confDir = confDir;
    }

    @Override
    public String name() {
        return "normalize";
    }

    @Override
    public String summary() {
        return "least-cost con/vec/idx path of a displacement list (--disps, --input) or normalized type (--type)";
    }

    /** The usage text. */
    public static String usage() {
        return String.join(
                "\n",
                "usage: layout normalize [--model storage|processing] [--kcon A --kvec B --kidx C]",
                "                        [--ccon D --cvec E --cidx F] [--conf FILE]",
                "                        (--disps=LIST | --input FILE)",
                "  --disps=2,4,6,8   prints '<least-cost path> cost=N'",
                "  --input FILE      one comma-separated displacement list per line; one output line each",
                "  --type TEXT       normalizes a datatype in layout notation (needs dev.layout.datatype)");
    }

    /**
     * Runs {@code layout normalize} with {@code args} (without the subcommand name).
     *
     * @return the exit status: 0 success, 1 I/O error, 2 bad arguments or input
     */
    @Override
    public int run(String[] args, PrintStream out, PrintStream err) {
        try {
            Map<String, String> opts = parse(args);
            if (opts.containsKey("help")) {
                out.println(usage());
                return 0;
            }
            CostModel model = model(opts);
            int modes = (opts.containsKey("disps") ? 1 : 0)
                    + (opts.containsKey("input") ? 1 : 0)
                    + (opts.containsKey("type") ? 1 : 0);
            if (modes != 1) {
                throw new IllegalArgumentException(
                        "normalize: exactly one of --disps, --input, --type (expected: one, got " + modes + ")");
            }
            Normalizer normalizer = Normalizer.of(model);
            if (opts.containsKey("disps")) {
                out.println(line(normalizer, DisplacementSequence.parse(opts.get("disps"))));
            } else if (opts.containsKey("input")) {
                Path file;
                try {
                    file = InputFiles.readable("normalize: --input", opts.get("input"));
                } catch (IOException e) {
                    err.println("layout: error: " + e.getMessage());
                    return 1;
                }
                try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    String text;
                    int lineNo = 0;
                    StringBuilder buf = new StringBuilder();
                    while ((text = r.readLine()) != null) {
                        lineNo++;
                        if (text.isBlank()) {
                            continue;
                        }
                        DisplacementSequence x;
                        try {
                            x = DisplacementSequence.parse(text);
                        } catch (IllegalArgumentException e) {
                            throw new IllegalArgumentException(file + ":" + lineNo + ": " + e.getMessage());
                        }
                        buf.append(line(normalizer, x)).append('\n');
                        if (buf.length() > 1 << 16) {
                            out.print(buf);
                            buf.setLength(0);
                        }
                    }
                    out.print(buf);
                } catch (IOException e) {
                    err.println("layout: error: " + file + ": cannot read (" + e.getMessage() + ")");
                    return 1;
                }
            } else {
                Datatype t = LayoutParser.parse(opts.get("type"));
                Normalizer.Report r = normalizer.report(t);
                out.println(r.after());
                out.println("cost before=" + r.costBefore() + " after=" + r.costAfter() + " model="
                        + normalizer.model().name());
            }
            out.flush();
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("layout: error: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("layout: error: " + e.getMessage());
            return 1;
        }
    }

    /** {@code <path> cost=N} for x under the normalizer's model. */
    static String line(Normalizer normalizer, DisplacementSequence x) {
        TypePath p = normalizer.reconstruct(x);
        return p + " cost=" + p.cost(normalizer.model());
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                opts.put("help", "");
                continue;
            }
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("normalize: argument '" + a + "' (expected: an option --name)");
            }
            String name;
            String value;
            int eq = a.indexOf('=');
            if (eq >= 0) {
                name = a.substring(2, eq);
                value = a.substring(eq + 1);
            } else {
                name = a.substring(2);
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("normalize: option --" + name + " (expected: a value)");
                }
                value = args[++i];
            }
            if (!OPTIONS.contains(name)) {
                throw new IllegalArgumentException("normalize: unknown option --" + name + " (expected: one of "
                        + new java.util.TreeSet<>(OPTIONS) + ")");
            }
            if (opts.put(name, value) != null) {
                throw new IllegalArgumentException("normalize: option --" + name + " given twice (expected: once)");
            }
        }
        return opts;
    }

    private CostModel model(Map<String, String> opts) throws IOException {
        Properties props = new Properties(CostModel.DEFAULTS);
        Path fallback = confDir.resolve("normalizer.properties");
        if (opts.containsKey("conf") || Files.isRegularFile(fallback)) {
            Path conf =
                    opts.containsKey("conf") ? InputFiles.readable("normalize: --conf", opts.get("conf")) : fallback;
            try (var r = Files.newBufferedReader(conf, StandardCharsets.UTF_8)) {
                props.load(r);
            } catch (IOException e) {
                throw new IOException(conf + ": cannot read (" + e.getMessage() + ")", e);
            }
        }
        String name = opts.getOrDefault("model", props.getProperty(CostModel.PREFIX + "model"));
        String model = name.strip().toLowerCase(java.util.Locale.ROOT);
        if (!model.equals("storage") && !model.equals("processing")) {
            throw new IllegalArgumentException("normalize: --model " + name + " (expected: storage or processing)");
        }
        for (String k : new String[] {"kcon", "kvec", "kidx", "ccon", "cvec", "cidx"}) {
            if (opts.containsKey(k)) {
                if (model.equals("storage") && k.startsWith("c")) {
                    throw new IllegalArgumentException(
                            "normalize: option --" + k + " (expected: only with --model processing)");
                }
                String v = opts.get(k);
                try {
                    if (Long.parseLong(v.strip()) < 0) {
                        throw new NumberFormatException();
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("normalize: --" + k + " " + v + " (expected: an integer >= 0)");
                }
                props.setProperty(CostModel.PREFIX + model + "." + k, v.strip());
            }
        }
        return CostModel.fromProperties(props, model);
    }
}
