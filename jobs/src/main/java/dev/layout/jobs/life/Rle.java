package dev.layout.jobs.life;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads Life patterns in the run-length encoded format (RLE) of Golly and the LifeWiki:
 *
 * <pre>{@code
 * #N Glider
 * #C lines starting with '#' are comments (anywhere a line starts)
 * x = 3, y = 3, rule = B3/S23
 * bob$2bo$3o!
 * }</pre>
 *
 * The header gives the pattern's width {@code x} (columns) and height {@code y} (rows) and
 * optionally the rule; only Conway's Life is accepted ({@code B3/S23}, also written {@code 23/3},
 * any case). In the data, {@code b} is a dead cell, {@code o} a live one, {@code $} ends a row,
 * {@code !} ends the pattern (anything after it is ignored); each may be preceded by a run count.
 * Cells not given are dead. Whitespace and line breaks between items are ignored.
 *
 * <p>Malformed input is an {@link IllegalArgumentException} naming the file, line and column, what
 * was expected and what was found: {@code glider.rle: line 5, column 4: expected b, o, $, ! or a
 * run count, found 'x'}.
 */
public final class Rle {
    private Rle() {}

    /**
     * The pattern of an RLE file, {@code y} rows by {@code x} columns, row-major.
     *
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if it is not a B3/S23 RLE pattern
     */
    public static Pbm.Board read(Path path) throws IOException {
        return parse(
                Files.readString(path, StandardCharsets.ISO_8859_1),
                path.getFileName().toString());
    }

    /** The pattern in {@code text}; {@code source} names it in error messages. */
    public static Pbm.Board parse(String text, String source) {
        return new Parser(text, source, Integer.MAX_VALUE, Integer.MAX_VALUE).pattern();
    }

    /**
     * The pattern in {@code text}, which must fit a board of {@code rows x cols}: the header is
     * checked against that before the pattern is allocated.
     */
    public static Pbm.Board parse(String text, String source, int rows, int cols) {
        return new Parser(text, source, rows, cols).pattern();
    }

    private static final class Parser {
        private final String text;
        private final String source;
        private int pos;
        private int line = 1;
        private int lineStart;

        private final int maxRows;
        private final int maxCols;

        Parser(String text, String source, int maxRows, int maxCols) {
            this.text = text;
            this.source = source;
            this.maxRows = maxRows;
            this.maxCols = maxCols;
        }

        Pbm.Board pattern() {
            skipCommentsAndBlankLines();
            if (pos >= text.length()) {
                throw error("a header 'x = M, y = N, rule = B3/S23'", "end of file");
            }
            if (text.charAt(pos) != 'x') {
                throw error("a header 'x = M, y = N, rule = B3/S23'", found());
            }
            int cols = headerNumber("x");
            expectSymbol(',', "',' after x");
            int rows = headerNumber("y");
            skipSpaces();
            if (pos < text.length() && text.charAt(pos) == ',') {
                pos++;
                rule();
            }
            skipSpaces();
            if (pos < text.length() && text.charAt(pos) != '\n' && text.charAt(pos) != '\r') {
                throw error("the end of the header line", found());
            }
            if (rows > maxRows || cols > maxCols) {
                throw new IllegalArgumentException(
                        source + ": pattern of x = " + cols + ", y = " + rows + " does not fit the " + maxRows + "x"
                                + maxCols + " board (expected: a board of at least " + rows + "x" + cols + ")");
            }
            long cells = (long) rows * cols;
            if (cells > Pbm.P1_MAX_CELLS) {
                // the pattern is parsed and shipped from the driver, so it must stay small whatever the grid
                throw new IllegalArgumentException(source + ": pattern " + cols + "x" + rows + " = " + cells
                        + " cells (expected: at most " + Pbm.P1_MAX_CELLS
                        + " cells; RLE is read on the driver, use a P4 board for larger patterns)");
            }
            return data(rows, cols);
        }

        private Pbm.Board data(int rows, int cols) {
            boolean[] cells = new boolean[rows * cols];
            int row = 0;
            int col = 0;
            while (true) {
                skipWhitespaceAndComments();
                if (pos >= text.length()) {
                    throw error("'!' at the end of the pattern", "end of file");
                }
                int countLine = line;
                int countColumn = column();
                long count = 1;
                boolean counted = isDigit(text.charAt(pos));
                if (counted) {
                    count = 0;
                    while (pos < text.length() && isDigit(text.charAt(pos))) {
                        count = count * 10 + (text.charAt(pos) - '0');
                        if (count > Integer.MAX_VALUE) {
                            throw errorAt(
                                    countLine, countColumn, "a run count <= " + Integer.MAX_VALUE, "a longer number");
                        }
                        pos++;
                    }
                    if (count == 0) {
                        throw errorAt(countLine, countColumn, "a run count >= 1", "0");
                    }
                    skipWhitespaceAndComments();
                    if (pos >= text.length()) {
                        throw error("b, o, $ or ! after the run count " + count, "end of file");
                    }
                }
                char tag = text.charAt(pos);
                switch (tag) {
                    case 'b', 'o' -> {
                        if (col + count > cols) {
                            throw error("at most x = " + cols + " cells in row " + (row + 1), (col + count) + " cells");
                        }
                        if (tag == 'o') {
                            if (row >= rows) {
                                throw error("at most y = " + rows + " rows", "a live cell in row " + (row + 1));
                            }
                            for (int k = 0; k < count; k++) {
                                cells[row * cols + col + k] = true;
                            }
                        }
                        col += (int) count;
                    }
                    case '$' -> {
                        row = (int) Math.min(Integer.MAX_VALUE, row + count);
                        col = 0;
                    }
                    case '!' -> {
                        return new Pbm.Board(rows, cols, cells);
                    }
                    default ->
                        throw error(
                                counted ? "b, o, $ or ! after the run count " + count : "b, o, $, ! or a run count",
                                found());
                }
                pos++;
            }
        }

        private int headerNumber(String name) {
            skipSpaces();
            if (!text.startsWith(name, pos)) {
                throw error("'" + name + "'", found());
            }
            pos += name.length();
            expectSymbol('=', "'=' after " + name);
            skipSpaces();
            int start = pos;
            int c = column();
            long v = 0;
            while (pos < text.length() && isDigit(text.charAt(pos))) {
                v = v * 10 + (text.charAt(pos) - '0');
                if (v > Integer.MAX_VALUE) {
                    throw errorAt(line, c, "a size <= " + Integer.MAX_VALUE + " for " + name, "a longer number");
                }
                pos++;
            }
            if (pos == start) {
                throw error("a size for " + name, found());
            }
            if (v == 0) {
                throw errorAt(line, c, "a size >= 1 for " + name, "0");
            }
            return (int) v;
        }

        private void rule() {
            skipSpaces();
            if (!text.startsWith("rule", pos)) {
                throw error("'rule' or the end of the header line", found());
            }
            pos += 4;
            expectSymbol('=', "'=' after rule");
            skipSpaces();
            int c = column();
            int start = pos;
            while (pos < text.length() && !Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
            String rule = text.substring(start, pos);
            String r = rule.toUpperCase(Locale.ROOT);
            if (!r.equals("B3/S23") && !r.equals("23/3")) {
                throw errorAt(line, c, "rule B3/S23 (Conway's Life, the only rule of this job)", "'" + rule + "'");
            }
        }

        private void expectSymbol(char symbol, String what) {
            skipSpaces();
            if (pos >= text.length() || text.charAt(pos) != symbol) {
                throw error(what, found());
            }
            pos++;
        }

        private void skipSpaces() {
            while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
                pos++;
            }
        }

        private void skipCommentsAndBlankLines() {
            while (pos < text.length()) {
                char ch = text.charAt(pos);
                if (ch == '\n') {
                    newline();
                } else if (ch == ' ' || ch == '\t' || ch == '\r') {
                    pos++;
                } else if (ch == '#' && pos == lineStart) {
                    skipToEndOfLine();
                } else {
                    return;
                }
            }
        }

        private void skipWhitespaceAndComments() {
            while (pos < text.length()) {
                char ch = text.charAt(pos);
                if (ch == '\n') {
                    newline();
                } else if (Character.isWhitespace(ch)) {
                    pos++;
                } else if (ch == '#' && pos == lineStart) {
                    skipToEndOfLine();
                } else {
                    return;
                }
            }
        }

        private void skipToEndOfLine() {
            while (pos < text.length() && text.charAt(pos) != '\n') {
                pos++;
            }
        }

        private void newline() {
            pos++;
            line++;
            lineStart = pos;
        }

        private int column() {
            return pos - lineStart + 1;
        }

        private String found() {
            if (pos >= text.length()) {
                return "end of file";
            }
            char ch = text.charAt(pos);
            if (ch == '\n' || ch == '\r') {
                return "end of line";
            }
            return "'" + ch + "'";
        }

        private IllegalArgumentException error(String expected, String found) {
            return errorAt(line, column(), expected, found);
        }

        private IllegalArgumentException errorAt(int l, int c, String expected, String found) {
            return new IllegalArgumentException(
                    source + ": line " + l + ", column " + c + ": expected " + expected + ", found " + found);
        }

        private static boolean isDigit(char ch) {
            return ch >= '0' && ch <= '9';
        }
    }
}
