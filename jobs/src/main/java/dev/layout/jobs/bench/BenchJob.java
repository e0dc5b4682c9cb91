package dev.layout.jobs.bench;

import dev.layout.cli.Subcommand;
import dev.layout.jobs.JobOptions;
import dev.layout.jobs.SparkJobs;
import dev.layout.normalize.CostModel;
import dev.layout.normalize.DisplacementSequence;
import dev.layout.normalize.Normalizer;
import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.ExchangeMode;
import dev.layout.spark.grid.HaloExchange;
import dev.layout.spark.grid.Kernels;
import dev.layout.spark.grid.Stencil;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * {@code layout-submit bench}: the project's benchmarks in one run — the pack suite (engine vs
 * hand-written loops), normalizer reconstruction times, TCP ping-pong (pack vs gather vs adaptive)
 * and the halo exchange barrier vs shuffle on the Spark session — writing {@code RESULTS.md} and
 * PNG charts to {@code --out}. Ratios within the run are what to compare; the machine and JVM are
 * recorded.
 */
public final class BenchJob {
    private BenchJob() {}

    static JobOptions options() {
        return new JobOptions(
                "bench",
                List.of(
                        new JobOptions.Option("quick", "true", "true: short runs (minutes); false: the full suites"),
                        new JobOptions.Option("grid", "1024x1024", "global grid of the halo benchmark (2D 9-point)"),
                        new JobOptions.Option(
                                "steps",
                                "50",
                                "iterations per halo mode (the per-iteration time includes the stage launch and, in barrier mode, the ~1 s rendezvous)"),
                        new JobOptions.Option(
                                "procs", "", "process grid of the halo benchmark (default: balanced over the slots)"),
                        new JobOptions.Option("parts", "pack,normalizer,pingpong,halo", "which benchmarks to run"),
                        new JobOptions.Option("out", "bench-out", "output directory")));
    }

    public static void main(String[] args) {
        System.exit(SparkJobs.run("bench", options(), args, BenchJob::run));
    }

    static int run(JobOptions o) throws Exception {
        boolean quick = o.getBoolean("quick");
        List<String> parts = List.of(o.get("parts").split(","));
        for (String p : parts) {
            if (!List.of("pack", "normalizer", "pingpong", "halo").contains(p)) {
                throw new IllegalArgumentException(
                        "bench: --parts " + p + " (expected: pack, normalizer, pingpong, halo)");
            }
        }
        Path out = SparkJobs.outDir(o);
        StringBuilder md = new StringBuilder("# layout benchmarks\n\n");
        md.append("- Machine: ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cpus; JVM ")
                .append(System.getProperty("java.vm.name"))
                .append(' ')
                .append(System.getProperty("java.version"))
                .append("\n- Mode: ")
                .append(quick ? "quick" : "full")
                .append("\n\n");
        if (parts.contains("pack")) {
            Subcommand bench = benchCommand();
            String text = capture(ps -> bench.run(
                    quick
                            ? new String[] {
                                "pack", "--quick", "--out", out.resolve("pack").toString()
                            }
                            : new String[] {"pack", "--out", out.resolve("pack").toString()},
                    ps,
                    System.err));
            md.append(
                            "## Pack suite (engine vs hand-written loops)\n\nTable and chart: `pack/RESULTS.md`, `pack/results.png`.\n\n```\n")
                    .append(lastLines(text, 1))
                    .append("```\n\n");
        }
        if (parts.contains("normalizer")) {
            md.append(
                    "## Normalizer: optimal reconstruction time\n\n| n | regular ms | irregular ms |\n|---:|---:|---:|\n");
            Normalizer norm = Normalizer.of(CostModel.defaults());
            for (int n : quick
                    ? new int[] {1_000, 10_000, 100_000, 1_000_000}
                    : new int[] {1_000, 10_000, 100_000, 1_000_000, 4_000_000}) {
                long[] regular = new long[n];
                long[] irregular = new long[n];
                SplittableRandom r = new SplittableRandom(n);
                for (int i = 0; i < n; i++) {
                    regular[i] = 64L * (i / 8) + 2L * (i % 8);
                    irregular[i] = r.nextLong(1L << 40);
                }
                md.append(String.format(
                        Locale.ROOT, "| %d | %.2f | %.2f |%n", n, time(norm, regular), time(norm, irregular)));
            }
            md.append('\n');
        }
        if (parts.contains("pingpong")) {
            Subcommand bench = benchCommand(); // ping-pong lives in the benchmarks module, behind the bench command
            String text = capture(ps -> bench.run(
                    quick ? new String[] {"pingpong", "--quick"} : new String[] {"pingpong"}, ps, System.err));
            Files.writeString(out.resolve("pingpong.txt"), text);
            md.append("## Ping-pong over TCP (pack vs gather vs adaptive)\n\nFull table: `pingpong.txt`.\n\n```\n")
                    .append(lastLines(text, 3))
                    .append("```\n\n");
        }
        if (parts.contains("halo")) {
            int[] grid = o.getDims("grid", 2, 2);
            int steps = (int) o.getLong("steps", 1, 1_000_000);
            SparkSession spark = SparkJobs.session("layout bench");
            try {
                JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
                int[] procs = SparkJobs.processGrid(o, jsc, 2);
                DistributedGrid dg = DistributedGrid.of(grid, procs, 1, new boolean[] {false, false});
                double[] ms = new double[2];
                long[] bytes = new long[2];
                ExchangeMode[] modes = {ExchangeMode.BARRIER, ExchangeMode.SHUFFLE};
                for (int m = 0; m < 2; m++) {
                    HaloExchange.Result r = HaloExchange.of(dg, Stencil.NINE_POINT)
                            .mode(modes[m])
                            .run(
                                    dg.parallelize(jsc, at -> at[0] < 0 ? 1.0 : 0.0),
                                    Kernels.heat(Stencil.NINE_POINT, 1.0),
                                    steps);
                    r.blocks().count();
                    ms[m] = r.metrics().millisPerIteration();
                    bytes[m] = r.metrics().bytes();
                }
                md.append(String.format(
                        Locale.ROOT,
                        "## Halo exchange, 2D 9-point, %dx%d over %dx%d ranks, %d steps%n%n",
                        grid[0],
                        grid[1],
                        procs[0],
                        procs[1],
                        steps));
                md.append("| mode | ms/iteration | bytes exchanged |\n|---|---:|---:|\n");
                md.append(String.format(
                        Locale.ROOT,
                        "| barrier | %.2f | %d |%n| shuffle | %.2f | %d |%n%nshuffle/barrier: %.1fx%n%n",
                        ms[0],
                        bytes[0],
                        ms[1],
                        bytes[1],
                        ms[1] / ms[0]));
                bars(List.of("barrier", "shuffle"), ms, "ms per iteration", out.resolve("halo.png"));
            } finally {
                spark.stop();
            }
        }
        Files.writeString(out.resolve("RESULTS.md"), md.toString());
        System.out.print(md);
        System.out.println("bench: wrote " + out.resolve("RESULTS.md"));
        return 0;
    }

    private static double time(Normalizer norm, long[] disps) {
        DisplacementSequence x = DisplacementSequence.of(disps);
        double best = Double.MAX_VALUE;
        for (int k = 0; k < 3; k++) {
            long t0 = System.nanoTime();
            norm.reconstruct(x);
            best = Math.min(best, (System.nanoTime() - t0) / 1e6);
        }
        return best;
    }

    interface Body {
        int run(PrintStream out) throws Exception;
    }

    /** Runs a benchmark printing into a buffer (echoed to stdout) and returns its text. */
    /**
     * The benchmarks module's {@code bench} command, found like every {@code layout} command: jobs
     * does not compile against benchmarks (it only ships it, for this job).
     */
    private static Subcommand benchCommand() {
        for (Subcommand c : ServiceLoader.load(Subcommand.class)) {
            if (c.name().equals("bench")) {
                return c;
            }
        }
        throw new IllegalStateException("bench: no bench command on the classpath (expected: the benchmarks module)");
    }

    private static String capture(Body body) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            int code = body.run(ps);
            if (code != 0) {
                throw new IllegalStateException(
                        "bench: a benchmark exited with " + code + ":\n" + buf.toString(StandardCharsets.UTF_8));
            }
        }
        String text = buf.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        return text;
    }

    private static String lastLines(String text, int n) {
        String[] lines = text.split("\n");
        StringBuilder sb = new StringBuilder();
        for (int i = Math.max(0, lines.length - n); i < lines.length; i++) {
            sb.append(lines[i]).append('\n');
        }
        return sb.toString();
    }

    /** A minimal bar chart. */
    static void bars(List<String> labels, double[] values, String title, Path png) throws java.io.IOException {
        int w = 480;
        int h = 300;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        double max = 0;
        for (double v : values) {
            max = Math.max(max, v);
        }
        int bw = (w - 80) / values.length;
        List<Color> colors = new ArrayList<>(List.of(new Color(0x2b6cb0), new Color(0xc53030), new Color(0x2f855a)));
        for (int i = 0; i < values.length; i++) {
            int bh = max == 0 ? 0 : (int) ((h - 80) * values[i] / max);
            g.setColor(colors.get(i % colors.size()));
            g.fillRect(50 + i * bw + 10, h - 40 - bh, bw - 20, bh);
            g.setColor(Color.BLACK);
            g.drawString(labels.get(i) + String.format(Locale.ROOT, " %.1f", values[i]), 50 + i * bw + 10, h - 20);
        }
        g.drawString(title, 10, 20);
        g.dispose();
        ImageIO.write(img, "png", png.toFile());
    }
}
