package dev.layout.bench;

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
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/** Writes a suite run as {@code RESULTS.md} (one table plus machine and JVM) and a PNG bar chart of engine/manual per row. */
public final class Results {
    private Results() {}

    public static final String MARKDOWN = "RESULTS.md";
    public static final String CHART = "results.png";

    /** Writes both files into {@code dir}. */
    public static void write(Path dir, List<PackSuite.Row> rows, String mode) throws IOException {
        Files.createDirectories(dir);
        StringBuilder md = new StringBuilder();
        md.append("# Pack suite results (engine vs hand-written loops)\n\n");
        int forks = rows.isEmpty() ? 1 : rows.get(0).forks();
        md.append("Written by `bin/layout bench pack")
                .append(mode.equals("quick") ? " --quick" : "")
                .append(forks > 1 ? " --forks " + forks : "")
                .append("` on ")
                .append(Instant.now())
                .append(".\n\n");
        md.append("- Machine: ").append(Meter.machine()).append('\n');
        md.append("- JVM: ").append(Meter.jvm()).append('\n');
        md.append(
                "- Layouts: `benchmarks/src/main/java/dev/layout/dataloop/RossCase.java` (Ross, Miller, Gropp 2003 suite as in "
                        + "`shared/bench/ross-suite.md`, plus application layouts). MB/s are 10^6 packed bytes per second of the measuring thread's time ("
                        + Meter.clock() + "), medians over short slices; "
                        + "engine/manual is the median of the ratios of adjacent engine and manual slices (pairs alternate which runs first), so drift "
                        + "in the machine's memory speed cancels within a pair; the ceiling (best slice) is one bulk copy of the same byte count. The engine reuses one `Segment` (seek(0), then pack or unpack the whole "
                        + "stream); `engine alloc B/op` is what the engine allocated per operation in steady state.\n");
        if (forks > 1) {
            md.append("- Each row is the median over ")
                    .append(forks)
                    .append(" JVMs that ran the suite one after another (the JIT compiles "
                            + "each JVM's code differently, so one JVM is one draw of a row's ratio); `lowest-highest` is the range of the JVMs' engine/manual, "
                            + "the ceiling the best and the allocation the most any of them saw.\n");
        }
        md.append(
                "- The machine may be shared (a VM; other tenants share memory bandwidth and cache): compare ratios within this run, never absolute numbers across runs.\n\n");
        PackSuite.Row w = PackSuite.worst(rows);
        if (w != null) {
            md.append(String.format(Locale.ROOT, "min engine/manual: %.2f (%s)%n%n", w.ratio(), w.label()));
        }
        md.append("| test | op | target | bytes | manual MB/s | engine MB/s | engine/manual |")
                .append(forks > 1 ? " lowest-highest |" : "")
                .append(" ceiling MB/s | engine alloc B/op |\n");
        md.append("|---|---|---|---:|---:|---:|---:|")
                .append(forks > 1 ? "---:|" : "")
                .append("---:|---:|\n");
        for (PackSuite.Row r : rows) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %d | %.1f | %.1f | %.2f |",
                    r.test(),
                    r.op(),
                    r.target(),
                    r.bytes(),
                    r.manual(),
                    r.engine(),
                    r.ratio()));
            if (forks > 1) {
                md.append(String.format(Locale.ROOT, " %.2f-%.2f |", r.ratioLow(), r.ratioHigh()));
            }
            md.append(String.format(Locale.ROOT, " %.1f | %d |%n", r.ceiling(), r.engineAllocPerOp()));
        }
        md.append("\n![engine/manual per row](").append(CHART).append(")\n");
        Path tmp = dir.resolve(MARKDOWN + ".tmp");
        Files.writeString(tmp, md.toString(), StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(MARKDOWN), StandardCopyOption.REPLACE_EXISTING);
        chart(dir.resolve(CHART), rows);
    }

    /** A horizontal bar per row: engine/manual, with the 0.95 target and 1.0 marked. */
    static void chart(Path file, List<PackSuite.Row> rows) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int bar = 14;
        int left = 330;
        int plot = 600;
        int top = 50;
        int w = left + plot + 80;
        int h = top + rows.size() * bar + 50;
        double max = 1.5;
        for (PackSuite.Row r : rows) {
            max = Math.max(max, Math.ceil(r.ratioHigh() * 4) / 4);
        }
        max = Math.min(max, 4.0);
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        int forks = rows.isEmpty() ? 1 : rows.get(0).forks();
        g.drawString("engine / manual throughput per row (>= 0.95 is the target; 1.0 = hand-written speed)", 10, 20);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        g.drawString(
                Meter.machine() + "; " + Meter.jvm()
                        + (forks > 1 ? "; each bar the median of " + forks + " JVMs, whisker: lowest-highest" : ""),
                10,
                36);
        for (int i = 0; i < rows.size(); i++) {
            PackSuite.Row r = rows.get(i);
            int y = top + i * bar;
            double v = Math.min(r.ratio(), max);
            int len = (int) Math.round(v / max * plot);
            Color c = r.ratio() >= 0.95
                    ? (r.op().equals("pack") ? new Color(0x2E7D32) : new Color(0x66BB6A))
                    : new Color(0xC62828);
            g.setColor(c);
            g.fillRect(left, y + 2, len, bar - 4);
            g.setColor(Color.BLACK);
            g.drawString(r.label(), 6, y + bar - 3);
            int textX = left + len + 4;
            if (r.forks() > 1) {
                // The range over the JVMs, as a whisker across the bar's middle.
                int lo = left + (int) Math.round(Math.min(r.ratioLow(), max) / max * plot);
                int hi = left + (int) Math.round(Math.min(r.ratioHigh(), max) / max * plot);
                g.drawLine(lo, y + bar / 2, hi, y + bar / 2);
                g.drawLine(lo, y + 3, lo, y + bar - 3);
                g.drawLine(hi, y + 3, hi, y + bar - 3);
                textX = Math.max(textX, hi + 4);
            }
            g.drawString(String.format(Locale.ROOT, "%.2f", r.ratio()), textX, y + bar - 3);
        }
        int yEnd = top + rows.size() * bar;
        for (double mark : new double[] {0.95, 1.0}) {
            int x = left + (int) Math.round(mark / max * plot);
            g.setColor(mark == 1.0 ? Color.BLUE : Color.GRAY);
            g.setStroke(
                    new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 3f}, 0f));
            g.drawLine(x, top - 4, x, yEnd);
            g.drawString(String.format(Locale.ROOT, "%.2f", mark), x - 10, yEnd + 14);
        }
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1f));
        g.drawLine(left, top - 4, left, yEnd);
        g.drawString("0", left - 3, yEnd + 14);
        g.drawString(String.format(Locale.ROOT, "%.2f", max), left + plot - 10, yEnd + 14);
        g.dispose();
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        ImageIO.write(img, "png", tmp.toFile());
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
}
