package dev.layout.jobs.life;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Portable bitmaps: reads P1 (plain) and P4 (raw), writes P1. 1 = black = live. A file that is not
 * a PBM is an {@link IllegalArgumentException} naming the file and the offset (bad input, exit 2);
 * an {@link IOException} is a failure to read or write.
 */
public final class Pbm {
  /** A board read from a PBM file. */
  public record Board(int rows, int cols, boolean[] cells) {}

  private Pbm() {}

  public static Board read(Path path) throws IOException {
    return parse(Files.readAllBytes(path), path.toString());
  }

  /**
   * The board in {@code b}; {@code path} names it in messages. The header's size is checked against
   * the data's length before the board is allocated.
   */
  public static Board parse(byte[] b, String path) {
    int[] pos = {0};
    String magic = token(b, pos, path);
    if (!magic.equals("P1") && !magic.equals("P4")) {
      throw new IllegalArgumentException(path + ": magic " + magic + " at offset 0 (expected: P1 or P4)");
    }
    int cols = positive(token(b, pos, path), "width", path);
    int rows = positive(token(b, pos, path), "height", path);
    long size = (long) rows * cols;
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(path + ": " + magic + " " + cols + " x " + rows + " = " + size + " cells (expected: at most "
          + (Integer.MAX_VALUE - 8) + ")");
    }
    long data = b.length - pos[0] - 1L;
    long needed = magic.equals("P1") ? size : (long) ((cols + 7) / 8) * rows;
    if (data < needed) {
      throw new IllegalArgumentException(path + ": " + magic + " " + cols + " x " + rows + " needs " + (magic.equals("P1") ? "at least " : "")
          + needed + " data bytes, the file has " + Math.max(0, data) + " after the header");
    }
    boolean[] cells = new boolean[(int) size];
    if (magic.equals("P1")) {
      int k = 0;
      while (k < cells.length) {
        if (pos[0] >= b.length) {
          throw new IllegalArgumentException(path + ": " + k + " of " + cells.length + " cells before end of file");
        }
        byte c = b[pos[0]++];
        if (c == '#') {
          while (pos[0] < b.length && b[pos[0]] != '\n') {
            pos[0]++;
          }
        } else if (c == '0' || c == '1') {
          cells[k++] = c == '1';
        } else if (!Character.isWhitespace(c)) {
          throw new IllegalArgumentException(path + ": byte '" + (char) c + "' at offset " + (pos[0] - 1) + " (expected: 0 or 1)");
        }
      }
    } else {
      pos[0]++; // the single whitespace after the header
      int rowBytes = (cols + 7) / 8;
      if ((long) pos[0] + (long) rowBytes * rows > b.length) {
        throw new IllegalArgumentException(path + ": P4 data of " + (b.length - pos[0]) + " bytes (expected: " + (long) rowBytes * rows + ")");
      }
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          int byteAt = pos[0] + i * rowBytes + j / 8;
          cells[i * cols + j] = ((b[byteAt] >> (7 - j % 8)) & 1) == 1;
        }
      }
    }
    return new Board(rows, cols, cells);
  }

  /** Writes {@code cells} as a plain (P1) bitmap to {@code out}. */
  public static void writeP1(boolean[] cells, int rows, int cols, OutputStream out) throws IOException {
    BufferedOutputStream o = new BufferedOutputStream(out);
    o.write(("P1\n" + cols + " " + rows + "\n").getBytes(StandardCharsets.US_ASCII));
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        o.write(cells[i * cols + j] ? '1' : '0');
        o.write(j + 1 < cols ? ' ' : '\n');
      }
    }
    o.flush();
  }

  private static String token(byte[] b, int[] pos, String path) {
    while (pos[0] < b.length && (Character.isWhitespace(b[pos[0]]) || b[pos[0]] == '#')) {
      if (b[pos[0]] == '#') {
        while (pos[0] < b.length && b[pos[0]] != '\n') {
          pos[0]++;
        }
      } else {
        pos[0]++;
      }
    }
    int start = pos[0];
    while (pos[0] < b.length && !Character.isWhitespace(b[pos[0]])) {
      pos[0]++;
    }
    if (start == pos[0]) {
      throw new IllegalArgumentException(path + ": header ends at offset " + start + " (expected: magic, width, height)");
    }
    return new String(b, start, pos[0] - start, StandardCharsets.US_ASCII);
  }

  private static int positive(String s, String what, String path) {
    try {
      int v = Integer.parseInt(s);
      if (v < 1) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(path + ": " + what + " '" + s + "' (expected: a positive integer)");
    }
  }
}
