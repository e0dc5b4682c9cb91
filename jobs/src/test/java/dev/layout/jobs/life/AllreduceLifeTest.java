package dev.layout.jobs.life;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.InProcessLauncher;
import dev.layout.spark.grid.DistributedGrid;
import dev.layout.spark.grid.GridBlock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The blocked sparse-allreduce Life against the sequential reference; ranks are threads over the in-process transport. */
class AllreduceLifeTest {

    /** rows, cols, process rows, process cols, torus, generations. */
    static Stream<Arguments> boards() {
        return Stream.of(
                Arguments.of(
                        12, 17, 1, 1, true, 15), // one block: every outside neighbour is the block itself (a self-loop)
                Arguments.of(12, 17, 1, 1, false, 15),
                Arguments.of(13, 11, 2, 1, true, 15), // a ring of 2 blocks: the neighbour above is also the one below
                Arguments.of(13, 11, 1, 2, false, 15),
                Arguments.of(16, 16, 2, 2, true, 20),
                Arguments.of(17, 19, 3, 3, true, 20), // uneven blocks
                Arguments.of(20, 23, 4, 3, true, 15), // a ring of 4: four colours
                Arguments.of(25, 22, 5, 2, true, 15), // a ring of 5: five colours
                Arguments.of(30, 17, 8, 2, true, 12), // a ring of 8
                Arguments.of(21, 20, 7, 1, true, 12),
                Arguments.of(18, 18, 3, 2, false, 15),
                Arguments.of(9, 40, 1, 5, false, 15),
                Arguments.of(6, 12, 6, 1, true, 15), // blocks one row high
                Arguments.of(5, 5, 5, 5, true, 10)); // one cell per process: Listing 7 itself
    }

    @ParameterizedTest(name = "{0}x{1} over {2}x{3}, torus {4}")
    @MethodSource("boards")
    void equalsTheSequentialBoardAndLiveCountsEveryGeneration(
            int rows, int cols, int pr, int pc, boolean torus, int generations) {
        DistributedGrid grid =
                DistributedGrid.of(new int[] {rows, cols}, new int[] {pr, pc}, 1, new boolean[] {torus, torus});
        boolean[] board = SequentialLife.random(rows, cols, 31L * rows + cols, 0.35);
        long[][] live = new long[grid.ranks()][generations];
        List<GridBlock> out = InProcessLauncher.run(
                grid.ranks(),
                Duration.ofSeconds(30),
                world -> AllreduceLife.iterate(
                        world,
                        grid,
                        grid.newBlock(
                                world.rank(), at -> inside(at, rows, cols) && board[at[0] * cols + at[1]] ? 1 : 0),
                        generations,
                        live[world.rank()],
                        n -> {}));
        double[] field = grid.assemble(out);
        boolean[] expect = board;
        for (int g = 0; g < generations; g++) {
            expect = SequentialLife.step(expect, rows, cols, torus);
            long sum = 0;
            for (long[] l : live) {
                sum += l[g];
            }
            assertThat(sum).as("live cells after generation %d", g + 1).isEqualTo(SequentialLife.live(expect));
        }
        boolean[] got = new boolean[field.length];
        for (int i = 0; i < field.length; i++) {
            got[i] = field[i] != 0;
        }
        assertThat(got).isEqualTo(expect);
    }

    private static boolean inside(int[] at, int rows, int cols) {
        return at[0] >= 0 && at[0] < rows && at[1] >= 0 && at[1] < cols;
    }

    @Test
    void blocksAtDistanceOneOrTwoGetDifferentColours() {
        for (boolean periodic : new boolean[] {false, true}) {
            for (int p = 1; p <= 64; p++) {
                int[] c = BoundaryIndex.colours(p, periodic);
                for (int b = 0; b < p; b++) {
                    for (int d = 1; d <= 2; d++) {
                        int other = periodic ? Math.floorMod(b + d, p) : b + d;
                        if (other < p && other != b) {
                            assertThat(c[other])
                                    .as("p %d periodic %s blocks %d and %d", p, periodic, b, other)
                                    .isNotEqualTo(c[b]);
                        }
                    }
                }
                assertThat(java.util.Arrays.stream(c).max().getAsInt())
                        .as("colours for p %d", p)
                        .isLessThan(p == 5 && periodic ? 5 : 4);
            }
        }
    }

    /** The claim the method rests on, checked cell by cell: a neighbour never writes at a reader's position but for that very cell. */
    @ParameterizedTest(name = "{0}x{1} over {2}x{3}, torus {4}")
    @MethodSource("boards")
    void aNeighbourWritesAtAReadersPositionOnlyForThatCell(
            int rows, int cols, int pr, int pc, boolean torus, int generations) {
        DistributedGrid grid =
                DistributedGrid.of(new int[] {rows, cols}, new int[] {pr, pc}, 1, new boolean[] {torus, torus});
        BoundaryIndex index = new BoundaryIndex(grid);
        for (int q = 0; q < grid.ranks(); q++) {
            Map<Integer, Integer> reads = new HashMap<>();
            int[] s = grid.blockStart(q);
            int[] n = grid.blockSize(q);
            for (int i = s[0]; i < s[0] + n[0]; i++) {
                for (int j = s[1]; j < s[1] + n[1]; j++) {
                    if (i == s[0] || i == s[0] + n[0] - 1 || j == s[1] || j == s[1] + n[1] - 1) {
                        assertThat(reads.put(index.of(i, j), i * cols + j))
                                .as("two edge cells of rank %d at one position", q)
                                .isNull();
                    }
                }
            }
            for (int p : AllreduceLife.neighbourRanks(grid, q)) {
                int[] ps = grid.blockStart(p);
                int[] pn = grid.blockSize(p);
                for (int i = ps[0] - 1; i <= ps[0] + pn[0]; i++) {
                    for (int j = ps[1] - 1; j <= ps[1] + pn[1]; j++) {
                        boolean inBlock = i >= ps[0] && i < ps[0] + pn[0] && j >= ps[1] && j < ps[1] + pn[1];
                        boolean onBoard = (torus || i >= 0 && i < rows) && (torus || j >= 0 && j < cols);
                        if (inBlock || !onBoard) {
                            continue;
                        }
                        int y = Math.floorMod(i, rows) * cols + Math.floorMod(j, cols);
                        Integer x = reads.get(index.of(Math.floorMod(i, rows), Math.floorMod(j, cols)));
                        if (x != null) {
                            assertThat(y)
                                    .as("rank %d writes cell %d where rank %d reads cell %d", p, y, q, x)
                                    .isEqualTo(x);
                        }
                    }
                }
            }
        }
    }
}
