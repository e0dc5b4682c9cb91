package dev.layout.spark.grid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.normalize.Normalizer;
import dev.layout.notation.LayoutParser;
import dev.layout.notation.LayoutPrinter;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The halo plan ships descriptors never larger than the given region types, describing the same regions. */
class HaloPlanTest {

    static Stream<Arguments> plans() {
        return Stream.of(
                Arguments.of(new int[] {24, 20}, new int[] {2, 1}, false, Stencil.NINE_POINT),
                Arguments.of(new int[] {512, 512}, new int[] {2, 2}, false, Stencil.NINE_POINT),
                Arguments.of(new int[] {4096, 8192}, new int[] {2, 1}, false, Stencil.FIVE_POINT),
                Arguments.of(new int[] {100, 130}, new int[] {3, 3}, true, Stencil.NINE_POINT),
                Arguments.of(
                        new int[] {6, 5, 7},
                        new int[] {2, 1, 1},
                        true,
                        Stencil.TWENTY_SEVEN_POINT), // 4888 -> 5620 bytes before
                Arguments.of(new int[] {32, 30, 28}, new int[] {2, 2, 1}, false, Stencil.SEVEN_POINT),
                Arguments.of(new int[] {64, 64, 64}, new int[] {2, 2, 2}, true, Stencil.TWENTY_SEVEN_POINT),
                // the grids of the halo exchange's integration tests (GridCases) over 4 ranks
                Arguments.of(new int[] {13, 10}, new int[] {2, 2}, false, Stencil.FIVE_POINT),
                Arguments.of(new int[] {16, 12}, new int[] {2, 2}, false, Stencil.NINE_POINT),
                Arguments.of(new int[] {6, 7, 5}, new int[] {2, 2, 1}, false, Stencil.SEVEN_POINT),
                Arguments.of(new int[] {6, 5, 7}, new int[] {2, 2, 1}, true, Stencil.TWENTY_SEVEN_POINT),
                Arguments.of(new int[] {16, 16}, new int[] {2, 2}, true, Stencil.NINE_POINT),
                Arguments.of(new int[] {12, 20}, new int[] {1, 4}, false, Stencil.NINE_POINT));
    }

    @ParameterizedTest(name = "{0} over {1}, periodic {2}, {3}")
    @MethodSource("plans")
    void shippedDescriptorsAreNeverLargerAndDescribeTheGivenRegions(
            int[] size, int[] procs, boolean periodic, Stencil stencil) {
        boolean[] per = new boolean[size.length];
        java.util.Arrays.fill(per, periodic);
        DistributedGrid grid = DistributedGrid.of(size, procs, 1, per);
        HaloPlan plan = HaloPlan.of(grid, stencil, Normalizer.defaults());
        long[] bytes = plan.descriptorBytes();
        assertThat(bytes[1]).as("bytes shipped vs given").isLessThanOrEqualTo(bytes[0]);
        java.util.List<int[]> offsets = stencil.blockOffsets();
        for (int r = 0; r < grid.ranks(); r++) {
            for (int j = 0; j < plan.slots(); j++) {
                String shipped = plan.sendDescriptor(r, j);
                if (shipped == null) {
                    continue;
                }
                Datatype given = grid.haloSendType(r, offsets.get(j));
                Datatype arrived = LayoutParser.parse(shipped);
                assertThat(shipped.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                        .isLessThanOrEqualTo(
                                LayoutPrinter.print(given).getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
                assertThat(arrived.byteSize()).isEqualTo(given.byteSize());
                assertThat(arrived.extent()).isEqualTo(given.extent());
                assertThat(arrived.lb()).isEqualTo(given.lb());
            }
        }
    }
}
