package dev.layout.jobs.life;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RleTest {
    static final String GLIDER = """
      #N Glider
      #O Richard K. Guy
      #C The smallest, most common, and first discovered spaceship.
      x = 3, y = 3, rule = B3/S23
      bob$2bo$3o!
      """;

    static final String GOSPER_GUN = """
      #N Gosper glider gun
      #O Bill Gosper
      #C A true period 30 glider gun.
      x = 36, y = 9, rule = B3/S23
      24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b
      obo$10bo5bo7bo$11bo3bo$12b2o!
      """;

    /** The board an initial description gives, cell by cell as the executors make it. */
    static boolean[] cells(LifeJob.Initial init) {
        boolean[] b = new boolean[init.rows() * init.cols()];
        for (int i = 0; i < init.rows(); i++) {
            for (int j = 0; j < init.cols(); j++) {
                b[i * init.cols() + j] = init.cells().at(new int[] {i, j}) != 0;
            }
        }
        return b;
    }

    static List<int[]> live(Pbm.Board b) {
        List<int[]> out = new ArrayList<>();
        for (int k = 0; k < b.cells().length; k++) {
            if (b.cells()[k]) {
                out.add(new int[] {k / b.cols(), k % b.cols()});
            }
        }
        return out;
    }

    @Test
    void gliderIsReadCellForCellAndCrossesTheTorus() {
        Pbm.Board g = Rle.parse(GLIDER, "glider.rle");
        assertThat(g.rows()).isEqualTo(3);
        assertThat(g.cols()).isEqualTo(3);
        assertThat(live(g))
                .containsExactly(
                        new int[] {0, 1}, new int[] {1, 2}, new int[] {2, 0}, new int[] {2, 1}, new int[] {2, 2});
    }

    @Test
    void gosperGunOnAGridRegrowsEveryThirtyGenerationsAndEmitsAGliderGoingSouthEast(@TempDir Path dir)
            throws IOException {
        Path file = dir.resolve("gosper.rle");
        Files.writeString(file, GOSPER_GUN);
        LifeJob.Initial board = LifeJob.initialBoard(
                LifeJob.options().parse(new String[] {"--grid", "40x60", "--init", "rle:" + file}));
        assertThat(board.rows()).isEqualTo(40);
        assertThat(board.cols()).isEqualTo(60);
        boolean[] gun = cells(board);
        assertThat(SequentialLife.live(gun)).isEqualTo(36);
        assertThat(gun[4 * 60])
                .as("top-left placement: the block at rows 4-5, columns 0-1")
                .isTrue();
        assertThat(gun[24]).as("the single cell of row 0 at column 24").isTrue();

        boolean[] b = gun;
        for (int g = 0; g < 30; g++) {
            b = SequentialLife.step(b, 40, 60, false);
        }
        boolean[] glider = new boolean[b.length];
        for (int k = 0; k < b.length; k++) {
            if (gun[k]) {
                assertThat(b[k]).as("gun cell %d after one period", k).isTrue();
            }
            glider[k] = b[k] && !gun[k];
        }
        assertThat(SequentialLife.live(glider)).as("one glider beside the gun").isEqualTo(5);
        boolean[] moved = glider;
        for (int g = 0; g < 4; g++) {
            moved = SequentialLife.step(moved, 40, 60, false);
        }
        for (int k = 0; k < glider.length; k++) {
            if (glider[k]) {
                assertThat(moved[k + 60 + 1])
                        .as("glider cell %d one row down and one column right after 4 generations", k)
                        .isTrue();
            }
        }
        assertThat(SequentialLife.live(moved)).isEqualTo(5);
    }

    @Test
    void oldRuleNotationLowerCaseCommentsLineBreaksAndTrailingTextAreAccepted() {
        Pbm.Board g =
                Rle.parse("# a comment\n\nx=3,y=3,rule=23/3\n#C inside\nb\no\nb$2\nbo$ 3o! trailing words\n", "g.rle");
        assertThat(g.cells()).isEqualTo(Rle.parse(GLIDER, "glider.rle").cells());
        assertThat(Rle.parse("x = 2, y = 1, rule = b3/s23\r\n2o!\r\n", "crlf.rle")
                        .cells())
                .containsExactly(true, true);
        assertThat(Rle.parse("x = 4, y = 3\n$$3bo!", "short.rle").cells())
                .containsExactly(false, false, false, false, false, false, false, false, false, false, false, true);
    }

    @Test
    void malformedFilesNameLineColumnExpectedAndFound() {
        assertThatThrownBy(() -> Rle.parse("bob$2bo$3o!", "g.rle"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("g.rle: line 1, column 1: expected a header 'x = M, y = N, rule = B3/S23', found 'b'");
        assertThatThrownBy(() -> Rle.parse("x = 3 y = 3\nbob$2bo$3o!", "g.rle"))
                .hasMessage("g.rle: line 1, column 7: expected ',' after x, found 'y'");
        assertThatThrownBy(() -> Rle.parse("x = 3, y = 3\nbob$2bx$3o!", "g.rle"))
                .hasMessage("g.rle: line 2, column 7: expected b, o, $, ! or a run count, found 'x'");
        assertThatThrownBy(() -> Rle.parse("x = 3, y = 3\nbob$2.$3o!", "g.rle"))
                .hasMessage("g.rle: line 2, column 6: expected b, o, $ or ! after the run count 2, found '.'");
        assertThatThrownBy(() -> Rle.parse("x = 3, y = 3\nbo2o!", "g.rle"))
                .hasMessage("g.rle: line 2, column 4: expected at most x = 3 cells in row 1, found 4 cells");
        assertThatThrownBy(() -> Rle.parse("x = 3, y = 2\nbo$bo$bo!", "g.rle"))
                .hasMessage("g.rle: line 2, column 8: expected at most y = 2 rows, found a live cell in row 3");
        assertThatThrownBy(() -> Rle.parse("x = 3, y = 3\nbob$2bo$3o", "g.rle"))
                .hasMessage("g.rle: line 2, column 11: expected '!' at the end of the pattern, found end of file");
        assertThatThrownBy(() -> Rle.parse("x=3,y=3\n0o!", "g.rle"))
                .hasMessage("g.rle: line 2, column 1: expected a run count >= 1, found 0");
        assertThatThrownBy(() -> Rle.parse("x = 0, y = 3\n!", "g.rle"))
                .hasMessage("g.rle: line 1, column 5: expected a size >= 1 for x, found 0");
        assertThatThrownBy(() -> Rle.parse("# only a comment\n", "g.rle"))
                .hasMessage(
                        "g.rle: line 2, column 1: expected a header 'x = M, y = N, rule = B3/S23', found end of file");
    }

    @Test
    void aRuleOtherThanConwaysIsRefused() {
        assertThatThrownBy(() -> Rle.parse("x = 3, y = 3, rule = B36/S23\nbob$2bo$3o!", "highlife.rle"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "highlife.rle: line 1, column 22: expected rule B3/S23 (Conway's Life, the only rule of this job), found 'B36/S23'");
        assertThatThrownBy(() -> Rle.parse("x = 3, y = 3, rule = B3/S23:T20,20\n3o!", "torus.rle"))
                .hasMessageContaining("found 'B3/S23:T20,20'");
    }

    @Test
    void aPatternLargerThanTheGridIsRefusedWithBothSizes(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("gosper.rle");
        Files.writeString(file, GOSPER_GUN);
        assertThatThrownBy(() -> LifeJob.initialBoard(
                        LifeJob.options().parse(new String[] {"--grid", "20x20", "--init", "rle:" + file})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "life: --init rle:" + file
                                + ": pattern of x = 36, y = 9 does not fit the 20x20 board (expected: a board of at least 9x36)");
        assertThatThrownBy(() -> LifeJob.initialBoard(
                        LifeJob.options().parse(new String[] {"--init", "rle:" + dir.resolve("missing.rle")})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("life: --init " + dir.resolve("missing.rle") + ": no such file");
        assertThatThrownBy(() -> LifeJob.initialBoard(LifeJob.options().parse(new String[] {"--init", "png:x"})))
                .hasMessage("life: --init png:x (expected: random:SEED:DENSITY, pbm:PATH or rle:PATH)");
    }

    @Test
    void aPatternLargerThanTheBoardIsRefusedFromItsHeaderBeforeAllocation() {
        assertThatThrownBy(() -> Rle.parse("x = 46340, y = 46340\n!", "big.rle", 256, 256))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "big.rle: pattern of x = 46340, y = 46340 does not fit the 256x256 board (expected: a board of at least 46340x46340)");
    }

    @Test
    void aPatternThatFitsTheBoardButNotTheDriverIsRefusedFromItsHeader() {
        assertThatThrownBy(() -> Rle.parse("x = 2048, y = 1024\n!", "wide.rle", 65536, 65536))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "wide.rle: pattern 2048x1024 = 2097152 cells (expected: at most 1048576 cells; RLE is read on the driver,"
                                + " use a P4 board for larger patterns)");
    }
}
