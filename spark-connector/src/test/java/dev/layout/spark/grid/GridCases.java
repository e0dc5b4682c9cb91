package dev.layout.spark.grid;

import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** The grids both the in-process loop test and the Spark ITs run. */
final class GridCases {
    private GridCases() {}

    static GridFunction hot() {
        return x -> {
            double v = 0;
            for (int a = 0; a < x.length; a++) {
                v = v * 31 + x[a];
            }
            return (x[0] < 0 ? 100.0 : 0.0) + Math.sin(v) * 10;
        };
    }

    /** A glider and a blinker (and a row on the border, to cross the periodic wrap). */
    static GridFunction lifeStart(int rows, int cols) {
        return x -> {
            int i = Math.floorMod(x[0], rows);
            int j = Math.floorMod(x[1], cols);
            boolean glider = (i == 1 && j == 2) || (i == 2 && j == 3) || (i == 3 && (j >= 1 && j <= 3));
            boolean blinker = i == rows / 2 && j >= cols / 2 - 1 && j <= cols / 2 + 1;
            boolean edge = i == 0 && j >= cols - 2 || i == rows - 1 && j < 2;
            return glider || blinker || edge ? 1.0 : 0.0;
        };
    }

    /** name, grid, stencil, kernel, init, iterations. */
    static Stream<Arguments> cases(int ranks) {
        return Stream.of(
                Arguments.of(
                        "heat 5-point 2D uneven",
                        DistributedGrid.create(new int[] {13, 10}, ranks, 1, new boolean[] {false, false}),
                        Stencil.FIVE_POINT,
                        Kernels.heat(Stencil.FIVE_POINT, 0.5),
                        hot(),
                        12),
                Arguments.of(
                        "heat 9-point 2D",
                        DistributedGrid.create(new int[] {16, 12}, ranks, 1, new boolean[] {false, false}),
                        Stencil.NINE_POINT,
                        Kernels.heat(Stencil.NINE_POINT, 0.5),
                        hot(),
                        12),
                Arguments.of(
                        "heat 9-point 2D periodic, ghost 2",
                        DistributedGrid.create(new int[] {9, 11}, ranks, 2, new boolean[] {true, false}),
                        Stencil.NINE_POINT,
                        Kernels.heat(Stencil.NINE_POINT, 0.3),
                        hot(),
                        7),
                Arguments.of(
                        "heat 7-point 3D",
                        DistributedGrid.create(new int[] {6, 7, 5}, ranks, 1, new boolean[] {false, false, false}),
                        Stencil.SEVEN_POINT,
                        Kernels.heat(Stencil.SEVEN_POINT, 0.5),
                        hot(),
                        6),
                Arguments.of(
                        "heat 27-point 3D periodic",
                        DistributedGrid.create(new int[] {6, 5, 7}, ranks, 1, new boolean[] {true, true, true}),
                        Stencil.TWENTY_SEVEN_POINT,
                        Kernels.heat(Stencil.TWENTY_SEVEN_POINT, 0.5),
                        hot(),
                        6),
                Arguments.of(
                        "life torus",
                        DistributedGrid.create(new int[] {16, 16}, ranks, 1, new boolean[] {true, true}),
                        Stencil.NINE_POINT,
                        Kernels.life(),
                        lifeStart(16, 16),
                        30),
                Arguments.of(
                        "life fixed border, 1D process grid",
                        DistributedGrid.of(new int[] {12, 20}, new int[] {1, ranks}, 1, new boolean[] {false, false}),
                        Stencil.NINE_POINT,
                        Kernels.life(),
                        (GridFunction) x -> x[0] < 0 || x[1] < 0 || x[0] >= 12 || x[1] >= 20
                                ? 0.0
                                : lifeStart(12, 20).at(x),
                        25));
    }

    /** Every case of {@link #cases} in every {@link ExchangeMode}: name, mode, grid, stencil, kernel, init, iterations. */
    static Stream<Arguments> casesInBothModes(int ranks) {
        return cases(ranks).flatMap(a -> Stream.of(ExchangeMode.values()).map(m -> {
            Object[] x = a.get();
            return Arguments.of(x[0], m, x[1], x[2], x[3], x[4], x[5]);
        }));
    }
}
