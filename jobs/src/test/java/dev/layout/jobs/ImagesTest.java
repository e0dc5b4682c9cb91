package dev.layout.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** The heat map a person reads: the field scaled up, a title line above, a colour bar with its scale beside. */
class ImagesTest {
    @Test
    void aHeatMapHasTheFieldATitleAndAColourBarWithItsScale() throws Exception {
        int rows = 4;
        int cols = 8;
        double[] v = new double[rows * cols];
        for (int k = 0; k < v.length; k++) {
            v[k] = k;
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        Images.heatMap(v, rows, cols, "heat 4x8, 5-point, 3 steps", png);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png.toByteArray()));

        int scale = 512 / cols; // small grids are scaled up to about 512 pixels
        int w = cols * scale;
        int h = rows * scale;
        assertThat(img.getWidth()).isEqualTo(w + 12 + Images.BAR + Images.LABELS);
        assertThat(img.getHeight()).isEqualTo(h + Images.TITLE + 8);
        // the minimum is the bottom of the bar (blue), the maximum its top (yellow)
        assertThat(rgb(img, 0, Images.TITLE)).isEqualTo(Images.color(0)).isEqualTo(0x0000FF);
        assertThat(rgb(img, w - 1, Images.TITLE + h - 1))
                .isEqualTo(Images.color(1))
                .isEqualTo(0xFFFF00);
        int barX = w + 12;
        assertThat(rgb(img, barX + Images.BAR / 2, Images.TITLE)).isEqualTo(0xFFFF00);
        assertThat(rgb(img, barX + Images.BAR / 2, Images.TITLE + h - 1)).isEqualTo(0x0000FF);
        // words: the title line above the map, the scale's labels right of the bar
        assertThat(dark(img, 0, 0, w, Images.TITLE)).as("title pixels").isPositive();
        assertThat(dark(img, barX + Images.BAR + 4, Images.TITLE, img.getWidth(), img.getHeight()))
                .as("scale label pixels")
                .isPositive();
    }

    private static int rgb(BufferedImage img, int x, int y) {
        return img.getRGB(x, y) & 0xFFFFFF;
    }

    private static int dark(BufferedImage img, int x0, int y0, int x1, int y1) {
        int n = 0;
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                int c = rgb(img, x, y);
                if ((c >> 16 & 0xFF) < 128 && (c >> 8 & 0xFF) < 128 && (c & 0xFF) < 128) {
                    n++;
                }
            }
        }
        return n;
    }
}
