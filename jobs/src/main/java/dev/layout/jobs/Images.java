package dev.layout.jobs;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * PNG pictures of the jobs, drawn from a thumbnail (at most 1024 x 1024 tile means, see {@code
 * dev.layout.spark.grid.Thumbnail}) so their size never depends on the grid: a heat map with a
 * title line and a colour bar with its scale, and a Life board in grey levels (the live fraction
 * of each tile).
 */
public final class Images {
    private Images() {}

    static final int TITLE = 22;
    static final int BAR = 18;
    static final int LABELS = 86;
    private static final int MISSING = 0x808080;

    /**
     * A heat map of {@code rows x cols} values (row-major) from blue (min) through red to yellow
     * (max) on a logarithmic scale (diffusion fronts span decades), scaled up so small grids stay
     * visible, under {@code title} and beside a colour bar labelled with the values at its ends,
     * middle and quarters.
     */
    public static void heatMap(double[] values, int rows, int cols, String title, OutputStream png) throws IOException {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        if (min > max) {
            min = 0;
            max = 1;
        }
        double lo = min;
        double span = max > min ? max - min : 1;
        int scale = Math.max(1, 512 / Math.max(rows, cols));
        int w = cols * scale;
        int h = rows * scale;
        BufferedImage img =
                new BufferedImage(w + 12 + BAR + LABELS, Math.max(h, 120) + TITLE + 8, BufferedImage.TYPE_INT_RGB);
        fill(img, 0xFFFFFF);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                double v = values[i * cols + j];
                int rgb = Double.isNaN(v) ? MISSING : color(position(v, lo, span));
                block(img, j * scale, TITLE + i * scale, scale, rgb);
            }
        }
        int barX = w + 12;
        int barH = Math.max(h, 120);
        for (int y = 0; y < barH; y++) {
            int rgb = color(1.0 - (double) y / (barH - 1));
            for (int x = 0; x < BAR; x++) {
                img.setRGB(barX + x, TITLE + y, rgb);
            }
        }
        text(img, g -> {
            g.drawString(title, 4, TITLE - 7);
            for (int q = 0; q <= 4; q++) {
                double t = 1.0 - q / 4.0;
                int y = TITLE + (int) Math.round((barH - 1) * (q / 4.0));
                g.drawLine(barX + BAR, y, barX + BAR + 3, y);
                g.drawString(
                        String.format(Locale.ROOT, "%.4g", value(t, lo, span)),
                        barX + BAR + 5,
                        Math.min(Math.max(y + 4, TITLE + 9), TITLE + barH));
            }
        });
        write(img, png);
    }

    /**
     * A board from the live fraction of each of {@code rows x cols} tiles (1 = all live, black), under
     * {@code title}.
     */
    public static void board(double[] liveFraction, int rows, int cols, String title, OutputStream png)
            throws IOException {
        int scale = Math.max(1, 512 / Math.max(rows, cols));
        BufferedImage img =
                new BufferedImage(Math.max(cols * scale, 200), rows * scale + TITLE, BufferedImage.TYPE_INT_RGB);
        fill(img, 0xFFFFFF);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                double f = liveFraction[i * cols + j];
                int grey = Double.isNaN(f) ? 0x80 : (int) Math.round(255 * (1 - Math.max(0, Math.min(1, f))));
                block(img, j * scale, TITLE + i * scale, scale, grey << 16 | grey << 8 | grey);
            }
        }
        text(img, g -> g.drawString(title, 4, TITLE - 7));
        write(img, png);
    }

    /** Where {@code v} falls on the colour scale, 0..1 (logarithmic above the minimum). */
    static double position(double v, double min, double span) {
        return Math.log1p(999 * (v - min) / span) / Math.log(1000);
    }

    /** The value at scale position {@code t} (the inverse of {@link #position}). */
    static double value(double t, double min, double span) {
        return min + span * (Math.pow(1000, t) - 1) / 999;
    }

    /** Blue-red-yellow colour ramp for t in [0, 1]. */
    static int color(double t) {
        t = Math.max(0, Math.min(1, t));
        int r = (int) Math.round(255 * Math.min(1, 2 * t));
        int g = (int) Math.round(255 * Math.max(0, 2 * t - 1));
        int b = (int) Math.round(255 * Math.max(0, 1 - 2 * t));
        return (r << 16) | (g << 8) | b;
    }

    private static void fill(BufferedImage img, int rgb) {
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                img.setRGB(x, y, rgb);
            }
        }
    }

    private static void block(BufferedImage img, int x, int y, int size, int rgb) {
        for (int a = 0; a < size; a++) {
            for (int b = 0; b < size; b++) {
                img.setRGB(x + b, y + a, rgb);
            }
        }
    }

    private interface Drawing {
        void draw(Graphics2D g);
    }

    /**
     * Draws text; a JVM without usable fonts (a minimal container) still gets the picture, without
     * its words.
     */
    private static void text(BufferedImage img, Drawing d) {
        System.setProperty("java.awt.headless", "true");
        try {
            Graphics2D g = img.createGraphics();
            try {
                g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
                g.setColor(Color.BLACK);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
                d.draw(g);
            } finally {
                g.dispose();
            }
        } catch (RuntimeException | LinkageError | InternalError e) {
            // no fonts: keep the picture
        }
    }

    private static void write(BufferedImage img, OutputStream png) throws IOException {
        if (!ImageIO.write(img, "png", png)) {
            throw new IOException("no PNG writer in this JVM");
        }
    }
}
