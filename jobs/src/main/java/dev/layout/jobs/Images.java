package dev.layout.jobs;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/** PNG output of the jobs: a heat map of a 2D field (or a 3D field's middle plane) and a board. */
public final class Images {
  private Images() {}

  /**
   * Writes {@code rows x cols} values (row-major) as a heat map from blue (min) through red to
   * yellow (max), on a logarithmic scale (diffusion fronts span decades), scaled up so small grids
   * stay visible.
   */
  public static void heatMap(double[] values, int rows, int cols, Path png) throws IOException {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    double span = max > min ? max - min : 1;
    int scale = Math.max(1, 512 / Math.max(rows, cols));
    BufferedImage img = new BufferedImage(cols * scale, rows * scale, BufferedImage.TYPE_INT_RGB);
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        int rgb = color(Math.log1p(999 * (values[i * cols + j] - min) / span) / Math.log(1000));
        for (int a = 0; a < scale; a++) {
          for (int b = 0; b < scale; b++) {
            img.setRGB(j * scale + b, i * scale + a, rgb);
          }
        }
      }
    }
    write(img, png);
  }

  /** Writes a board (true = live, drawn black) as a PNG. */
  public static void board(boolean[] live, int rows, int cols, Path png) throws IOException {
    int scale = Math.max(1, 512 / Math.max(rows, cols));
    BufferedImage img = new BufferedImage(cols * scale, rows * scale, BufferedImage.TYPE_INT_RGB);
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        int rgb = live[i * cols + j] ? 0x000000 : 0xFFFFFF;
        for (int a = 0; a < scale; a++) {
          for (int b = 0; b < scale; b++) {
            img.setRGB(j * scale + b, i * scale + a, rgb);
          }
        }
      }
    }
    write(img, png);
  }

  /** Blue-red-yellow colour ramp for t in [0, 1]. */
  static int color(double t) {
    t = Math.max(0, Math.min(1, t));
    int r = (int) Math.round(255 * Math.min(1, 2 * t));
    int g = (int) Math.round(255 * Math.max(0, 2 * t - 1));
    int b = (int) Math.round(255 * Math.max(0, 1 - 2 * t));
    return (r << 16) | (g << 8) | b;
  }

  private static void write(BufferedImage img, Path png) throws IOException {
    Path tmp = png.resolveSibling(png.getFileName() + ".tmp");
    if (!ImageIO.write(img, "png", tmp.toFile())) {
      throw new IOException("no PNG writer in this JVM for " + png);
    }
    Files.move(tmp, png, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }
}
