package dev.layout.jobs.life;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.fileview.FileView;
import dev.layout.memory.Memory;
import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.GridFiles;
import dev.layout.spark.grid.GridFunction;
import dev.layout.spark.io.CollectiveFile;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Portable bitmaps: reads P1 (plain, small boards, on the driver) and P4 (raw: {@link #p4Blocks},
 * each rank its block on its executor), writes P1 and P4. 1 = black = live. A file that is not
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

    /** The largest plain (P1) board, in cells: P1 is text, parsed on the driver, so it is for small boards only. */
    public static final long P1_MAX_CELLS = 1L << 20;

    /** The most header bytes (magic, width, height and comments) that {@link #header} needs to see. */
    public static final int HEADER_MAX = 64 * 1024;

    /**
     * A PBM file's header: its magic ({@code P1} or {@code P4}), size, and the offset of the first
     * data byte (for P4 the byte after the single whitespace that ends the header).
     */
    public record Header(String magic, int cols, int rows, long dataOffset) implements java.io.Serializable {
        public boolean raw() {
            return magic.equals("P4");
        }

        /** Bytes of one P4 row: 8 cells a byte, the first in the high bit, rows padded to a byte. */
        public int rowBytes() {
            return (cols + 7) / 8;
        }
    }

    /**
     * The header at the start of a PBM file of {@code fileLength} bytes ({@code head}: its first
     * bytes, at least the header), checked against the file's length before anything is allocated;
     * {@code path} names the file in messages.
     *
     * @throws IllegalArgumentException for a file that is not a PBM, a size that overflows, a P1
     *     board of more than {@link #P1_MAX_CELLS} cells, or too few data bytes
     */
    public static Header header(byte[] head, long fileLength, String path) {
        int[] pos = {0};
        String magic = token(head, pos, path);
        if (!magic.equals("P1") && !magic.equals("P4")) {
            throw new IllegalArgumentException(path + ": magic " + magic + " at offset 0 (expected: P1 or P4)");
        }
        int cols = positive(token(head, pos, path), "width", path);
        int rows = positive(token(head, pos, path), "height", path);
        long size = (long) rows * cols;
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(path + ": " + magic + " " + cols + " x " + rows + " = " + size
                    + " cells (expected: at most " + (Integer.MAX_VALUE - 8) + ")");
        }
        if (magic.equals("P1") && size > P1_MAX_CELLS) {
            throw new IllegalArgumentException(
                    path + ": P1 " + cols + " x " + rows + " = " + size + " cells (expected: at most " + P1_MAX_CELLS
                            + " in a plain PBM; use P4, the raw PBM, which the ranks read in parallel)");
        }
        long data = fileLength - pos[0] - 1L;
        long needed = magic.equals("P1") ? size : (long) ((cols + 7) / 8) * rows;
        if (data < needed) {
            throw new IllegalArgumentException(path + ": " + magic + " " + cols + " x " + rows + " needs "
                    + (magic.equals("P1") ? "at least " : "") + needed + " data bytes, the file has "
                    + Math.max(0, data) + " after the header");
        }
        return new Header(magic, cols, rows, magic.equals("P1") ? pos[0] : pos[0] + 1L);
    }

    /**
     * The board in {@code b} (a whole file); {@code path} names it in messages. The header's size is
     * checked against the data's length before the board is allocated.
     */
    public static Board parse(byte[] b, String path) {
        Header h = header(b, b.length, path);
        int rows = h.rows();
        int cols = h.cols();
        boolean[] cells = new boolean[rows * cols];
        int at = (int) h.dataOffset();
        if (!h.raw()) {
            int k = 0;
            while (k < cells.length) {
                if (at >= b.length) {
                    throw new IllegalArgumentException(
                            path + ": " + k + " of " + cells.length + " cells before end of file");
                }
                byte c = b[at++];
                if (c == '#') {
                    while (at < b.length && b[at] != '\n') {
                        at++;
                    }
                } else if (c == '0' || c == '1') {
                    cells[k++] = c == '1';
                } else if (!Character.isWhitespace(c)) {
                    throw new IllegalArgumentException(
                            path + ": byte '" + (char) c + "' at offset " + (at - 1) + " (expected: 0 or 1)");
                }
            }
        } else {
            int rowBytes = h.rowBytes();
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    cells[i * cols + j] = ((b[at + i * rowBytes + j / 8] >> (7 - j % 8)) & 1) == 1;
                }
            }
        }
        return new Board(rows, cols, cells);
    }

    /**
     * How each rank reads its block of a P4 board {@code h} on its executor: the bytes of its rows
     * and columns through a subarray view of the bit rows after the header (collectively, {@link
     * GridFiles#read(JavaSparkContext, DistributedGrid, GridFunction, CollectiveFile, GridFiles.RankRead, Duration)}),
     * then one cell per bit. Nothing of the board passes through the driver.
     */
    public static GridFiles.RankRead p4Blocks(DistributedGrid grid, Header h) {
        if (!h.raw() || grid.globalSize()[0] != h.rows() || grid.globalSize()[1] != h.cols()) {
            throw new IllegalArgumentException(
                    "pbm: " + h + " for grid " + grid + " (expected: P4 of the grid's size)");
        }
        return (world, file, block) -> {
            int rank = block.rank();
            int[] n = grid.blockSize(rank);
            int[] s = grid.blockStart(rank);
            int b0 = s[1] / 8;
            int nb = (s[1] + n[1] - 1) / 8 + 1 - b0;
            FileView view = new FileView(
                    h.dataOffset(),
                    Primitive.UINT8,
                    Datatype.subarray(
                            new long[] {h.rows(), h.rowBytes()},
                            new long[] {n[0], nb},
                            new long[] {s[0], b0},
                            Order.C,
                            Primitive.UINT8));
            byte[] bits = new byte[Math.multiplyExact(n[0], nb)];
            file.readAll(world, view, 0, Memory.ofArray(bits), 0, Datatype.contiguous(bits.length, Primitive.UINT8), 1);
            int g = block.ghost();
            for (int i = 0; i < n[0]; i++) {
                for (int j = 0; j < n[1]; j++) {
                    int col = s[1] + j;
                    boolean live = ((bits[i * nb + col / 8 - b0] >> (7 - col % 8)) & 1) == 1;
                    block.set(block.index(i + g, j + g), live ? 1.0 : 0.0);
                }
            }
        };
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

    /** Writes {@code cells} as a raw (P4) bitmap to {@code out}: 8 cells a byte, the first in the high bit, rows padded to a byte. */
    public static void writeP4(boolean[] cells, int rows, int cols, OutputStream out) throws IOException {
        BufferedOutputStream o = new BufferedOutputStream(out);
        o.write(("P4\n" + cols + " " + rows + "\n").getBytes(StandardCharsets.US_ASCII));
        byte[] row = new byte[(cols + 7) / 8];
        for (int i = 0; i < rows; i++) {
            java.util.Arrays.fill(row, (byte) 0);
            for (int j = 0; j < cols; j++) {
                if (cells[i * cols + j]) {
                    row[j / 8] |= (byte) (0x80 >> (j % 8));
                }
            }
            o.write(row);
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
            throw new IllegalArgumentException(
                    path + ": header ends at offset " + start + " (expected: magic, width, height)");
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
