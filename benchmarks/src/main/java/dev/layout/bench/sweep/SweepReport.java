package dev.layout.bench.sweep;

import dev.layout.bench.Meter;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.imageio.ImageIO;

/** The sweep's rows: the table lines, the two summary lines, {@code SWEEP.md} and the chart. */
public final class SweepReport {
    private SweepReport() {}

    public static final String MARKDOWN = "SWEEP.md";
    public static final String CHART = "sweep.png";

    /** The targets: engine/MPICH at least 1, engine/hand at least 0.95. */
    static final double MPICH_TARGET = 1.0;

    static final double HAND_TARGET = 0.95;

    /**
     * One measured item: the best hand loop ({@code handKind} "copy", "words" or "elements"), the engine
     * and MPICH (NaN when not measured), MB/s medians over slices; {@code vsHand} and {@code vsMpich}
     * the engine's ratios to them, estimated from adjacent pairs ({@link Estimate}).
     */
    public record Row(
            SweepPoint point,
            String target,
            String op,
            double hand,
            String handKind,
            double engine,
            long alloc,
            double mpich,
            Estimate vsHand,
            Estimate vsMpich) {
        public String label() {
            return point.label() + " " + target + " " + op;
        }

        public double ratio() {
            return vsHand.median();
        }

        public double engineOverMpich() {
            return vsMpich.median();
        }

        boolean measuredMpich() {
            return vsMpich.pairs() > 0;
        }

        Estimate.Status handStatus() {
            return vsHand.against(HAND_TARGET);
        }

        Estimate.Status mpichStatus() {
            return vsMpich.against(MPICH_TARGET);
        }
    }

    public static String header(boolean mpich) {
        return String.format(
                        Locale.ROOT,
                        "%-14s %5s %5s %6s %9s %-7s %-6s %10s %-8s %10s %8s %-14s %-10s",
                        "shape",
                        "elem",
                        "block",
                        "stride",
                        "bytes",
                        "target",
                        "op",
                        "hand MB/s",
                        "hand",
                        "engine",
                        "eng/hand",
                        "90%",
                        ">=0.95")
                + (mpich
                        ? String.format(Locale.ROOT, " %10s %9s %-14s %-10s", "mpich MB/s", "eng/mpich", "90%", ">=1")
                        : "");
    }

    /** A row's columns up to eng/hand, in table order. */
    private static Object[] cells(Row r) {
        SweepPoint p = r.point();
        return new Object[] {
            p.shape().label(),
            p.elemBytes(),
            p.blockBytes(),
            p.stride(),
            p.packedBytes(),
            r.target(),
            r.op(),
            r.hand(),
            r.handKind(),
            r.engine(),
            r.ratio(),
            interval(r.vsHand()),
            r.handStatus().label()
        };
    }

    /** {@code min engine/WHAT: X (POINT; 90% [LO,HI], STATUS)} for row r's estimate e against WHAT. */
    private static String minLine(String what, Row r, Estimate e, Estimate.Status status) {
        return String.format(
                Locale.ROOT,
                "min engine/%s: %.2f (%s; 90%% %s, %s)",
                what,
                e.median(),
                r.label(),
                interval(e),
                status.label());
    }

    private static String interval(Estimate e) {
        return String.format(Locale.ROOT, "[%.2f,%.2f]", e.lo(), e.hi());
    }

    public static String format(Row r, boolean mpich) {
        String s = String.format(
                Locale.ROOT, "%-14s %5d %5d %6d %9d %-7s %-6s %10.1f %-8s %10.1f %8.2f %-14s %-10s", cells(r));
        return mpich
                ? s
                        + String.format(
                                Locale.ROOT,
                                " %10.1f %9.2f %-14s %-10s",
                                r.mpich(),
                                r.engineOverMpich(),
                                interval(r.vsMpich()),
                                r.mpichStatus().label())
                : s;
    }

    /**
     * {@code min engine/mpich: X (POINT; ...)} and {@code min engine/hand: Y (POINT; ...)} (the lowest
     * medians, with their intervals and status; the first says when MPICH was not measured), then per
     * target how many items met it, missed it, or stayed unresolved.
     */
    public static List<String> summary(List<Row> rows) {
        Row h = null;
        Row m = null;
        for (Row r : rows) {
            if (h == null || r.ratio() < h.ratio()) {
                h = r;
            }
            if (r.measuredMpich() && (m == null || r.engineOverMpich() < m.engineOverMpich())) {
                m = r;
            }
        }
        List<String> out = new ArrayList<>();
        out.add(
                m == null
                        ? "min engine/mpich: not measured (run with --native)"
                        : minLine("mpich", m, m.vsMpich(), m.mpichStatus()));
        out.add(h == null ? "min engine/hand: no rows" : minLine("hand", h, h.vsHand(), h.handStatus()));
        if (m != null) {
            out.add("engine >= MPICH: "
                    + counts(rows.stream().map(Row::mpichStatus).toList()));
        }
        out.add("engine >= 0.95 hand: "
                + counts(rows.stream().map(Row::handStatus).toList()));
        return out;
    }

    private static String counts(List<Estimate.Status> s) {
        Map<Estimate.Status, Long> c = new java.util.EnumMap<>(Estimate.Status.class);
        for (Estimate.Status x : s) {
            c.merge(x, 1L, Long::sum);
        }
        return String.format(
                Locale.ROOT,
                "met %d, missed %d, unresolved %d of %d",
                c.getOrDefault(Estimate.Status.MET, 0L),
                c.getOrDefault(Estimate.Status.MISSED, 0L),
                c.getOrDefault(Estimate.Status.UNRESOLVED, 0L),
                s.size());
    }

    /** Writes {@code SWEEP.md} and the chart into {@code dir}. */
    static void write(Path dir, List<Row> rows, String command, String mpichVersion, String rounds) throws IOException {
        Files.createDirectories(dir);
        boolean mpich = rows.stream().anyMatch(Row::measuredMpich);
        StringBuilder md = new StringBuilder("# Sweep: engine vs hand loops and MPICH MPI_Pack\n\n");
        md.append("Written by `")
                .append(command)
                .append("` on ")
                .append(Instant.now())
                .append(".\n\n");
        md.append("- Machine: ")
                .append(Meter.machine())
                .append("; shared with other work while measured (compare ratios within this run)\n");
        md.append("- JVM: ").append(Meter.jvm()).append('\n');
        md.append("- MPICH: ")
                .append(
                        mpich
                                ? mpichVersion + " (Debian package mpich, `mpicc -O2`, singleton process"
                                        + (Meter.hugePages()
                                                ? "; malloc on transparent huge pages as the JVM's heap"
                                                        + (Meter.mallocHugePages() ? " and malloc" : "")
                                                        + ", `GLIBC_TUNABLES="
                                                        + NativeSweep.Server.HUGE_PAGES_TUNABLE + "`)"
                                                : ")")
                                : "not measured")
                .append('\n');
        md.append("- Rounds: ")
                .append(rounds)
                .append(
                        "; each round a fresh JVM" + (mpich ? " beside a fresh native process" : "")
                                + ". Per item and pair, the best hand loop's, the engine's"
                                + (mpich ? " and MPICH's" : "")
                                + " slices run next to each other (which goes first rotates); pairs of all rounds are pooled.\n");
        md.append(
                "- hand: the best of the per-block bulk copy (`copy`), the plain word loop (`words`: 8-byte words, then a 4-, 2-, 1-byte tail) and the element loop (`elements`: one move per float64, float32 or byte); "
                        + "MB/s are 10^6 packed bytes per second of the measuring thread's CPU time, medians over slices.\n");
        md.append(
                "- eng/hand and eng/mpich: the median of the per-pair ratios, with a distribution-free 90% interval for it (order statistics of the pairs); "
                        + "`met` when the whole interval is at or above the target (0.95 of hand, 1.0 of MPICH), `missed` when it is below, `unresolved` when it straddles the target after the time budget. "
                        + "Items that straddle get more pairs in further rounds while the budget lasts.\n");
        md.append(
                "- Layouts: `benchmarks/src/main/java/dev/layout/bench/sweep/SweepPoint.java`; MPICH side `benchmarks/native/sweep.c` "
                        + "(MPICH runs on malloc'd memory whatever the engine's target).\n\n");
        for (String s : summary(rows)) {
            md.append(s).append("\n\n");
        }
        md.append("![ratio against block width](").append(CHART).append(")\n\n");
        md.append(
                        "| shape | elem | block | stride | bytes | target | op | hand MB/s | hand | engine MB/s | eng/hand | 90% | >=0.95 |")
                .append(mpich ? " mpich MB/s | eng/mpich | 90% | >=1 |" : "")
                .append(" pairs |\n|---|---:|---:|---:|---:|---|---|---:|---|---:|---:|---|---|")
                .append(mpich ? "---:|---:|---|---|" : "")
                .append("---:|\n");
        for (Row r : rows) {
            md.append(String.format(
                    Locale.ROOT, "| %s | %d | %d | %d | %d | %s | %s | %.1f | %s | %.1f | %.2f | %s | %s |", cells(r)));
            if (mpich) {
                md.append(String.format(
                        Locale.ROOT,
                        " %.1f | %.2f | %s | %s |",
                        r.mpich(),
                        r.engineOverMpich(),
                        interval(r.vsMpich()),
                        r.mpichStatus().label()));
            }
            md.append(' ').append(r.vsHand().pairs()).append(" |\n");
        }
        Files.writeString(dir.resolve(MARKDOWN), md.toString(), StandardCharsets.UTF_8);
        chart(dir.resolve(CHART), rows, mpich);
    }

    /**
     * Per stride class, the lowest ratio at each block width over every row of that width and class
     * (shapes, elements, targets, directions): engine/hand on the left, engine/mpich on the right.
     */
    static Map<String, TreeMap<Long, Double>> lowest(List<Row> rows, boolean mpich) {
        Map<String, TreeMap<Long, Double>> lines = new TreeMap<>();
        for (Row r : rows) {
            double v = mpich ? r.engineOverMpich() : r.ratio();
            if (Double.isNaN(v)) {
                continue;
            }
            lines.computeIfAbsent(r.point().strideClass(), k -> new TreeMap<>())
                    .merge(r.point().blockBytes(), v, Math::min);
        }
        return lines;
    }

    private static void chart(Path file, List<Row> rows, boolean mpich) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int panelW = 520;
        int panelH = 340;
        int panels = mpich ? 2 : 1;
        BufferedImage img = new BufferedImage(panels * (panelW + 70) + 30, panelH + 110, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        Color[] colors = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c)};
        for (int k = 0; k < panels; k++) {
            boolean m = k == 1;
            Map<String, TreeMap<Long, Double>> lines = lowest(rows, m);
            double max = 2;
            for (TreeMap<Long, Double> l : lines.values()) {
                for (double v : l.values()) {
                    max = Math.max(max, Math.min(8, Math.ceil(v)));
                }
            }
            int x0 = 60 + k * (panelW + 70);
            int y0 = 40;
            double maxLog = Math.log(4096) / Math.log(2);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
            g.drawString((m ? "engine / MPICH MPI_Pack" : "engine / best hand loop") + ", lowest per width", x0, 25);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            g.drawRect(x0, y0, panelW, panelH);
            for (int t = 0; t <= 12; t += 2) {
                int x = x0 + (int) (t / maxLog * panelW);
                g.drawString(Long.toString(1L << t), x - 8, y0 + panelH + 15);
            }
            g.drawString("block width (bytes, log scale)", x0 + panelW / 2 - 80, y0 + panelH + 32);
            for (double v = 0; v <= max; v += max > 4 ? 1 : 0.5) {
                int y = y0 + panelH - (int) (v / max * panelH);
                g.drawString(String.format(Locale.ROOT, "%.1f", v), x0 - 30, y + 4);
            }
            for (double ref : new double[] {0.95, 1.0}) {
                int y = y0 + panelH - (int) (ref / max * panelH);
                g.setColor(Color.GRAY);
                g.setStroke(
                        new BasicStroke(1, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {4, 4}, 0));
                g.drawLine(x0, y, x0 + panelW, y);
            }
            int c = 0;
            for (Map.Entry<String, TreeMap<Long, Double>> e : lines.entrySet()) {
                g.setColor(colors[c % colors.length]);
                g.setStroke(new BasicStroke(1.5f));
                int px = -1;
                int py = -1;
                for (Map.Entry<Long, Double> pt : e.getValue().entrySet()) {
                    int x = x0 + (int) (Math.log(pt.getKey()) / Math.log(2) / maxLog * panelW);
                    int y = y0 + panelH - (int) (Math.min(pt.getValue(), max) / max * panelH);
                    if (px >= 0) {
                        g.drawLine(px, py, x, y);
                    }
                    g.fillOval(x - 2, y - 2, 5, 5);
                    px = x;
                    py = y;
                }
                g.drawString("stride " + e.getKey(), x0 + 10 + c * 140, y0 + panelH + 55);
                c++;
            }
        }
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }
}
