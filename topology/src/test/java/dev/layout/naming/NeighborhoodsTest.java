package dev.layout.naming;

import static dev.layout.naming.CartesianNaming.PROC_NULL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class NeighborhoodsTest {

    private static String render(List<int[]> offsets) {
        StringBuilder sb = new StringBuilder();
        for (int[] v : offsets) {
            sb.append(sb.length() == 0 ? "" : " ")
                    .append('(')
                    .append(Neighborhoods.formatOffset(v))
                    .append(')');
        }
        return sb.toString();
    }

    @Test
    void twoDimensionalChebyshevOrderIsThatOfTheSpec() {
        assertThat(render(Neighborhoods.offsets(2, Metric.CHEBYSHEV, 1, 1)))
                .isEqualTo("(-1,-1) (0,-1) (1,-1) (-1,0) (1,0) (-1,1) (0,1) (1,1)");
    }

    @Test
    void shadowZeroKeepsTheRankItself() {
        assertThat(render(Neighborhoods.offsets(1, Metric.CHEBYSHEV, 0, 1))).isEqualTo("(-1) (0) (1)");
    }

    @Test
    void manhattanDepthOneIsD2Q5AndAxisAgrees() {
        assertThat(render(Neighborhoods.offsets(2, Metric.MANHATTAN, 1, 1))).isEqualTo("(0,-1) (-1,0) (1,0) (0,1)");
        assertThat(render(Neighborhoods.offsets(2, Metric.AXIS, 1, 1)))
                .isEqualTo(render(Neighborhoods.offsets(2, Metric.MANHATTAN, 1, 1)));
        assertThat(Neighborhoods.offsets(3, Metric.MANHATTAN, 0, 1)).hasSize(7); // D3Q7
        assertThat(Neighborhoods.offsets(3, Metric.CHEBYSHEV, 0, 1)).hasSize(27); // D3Q27
    }

    @Test
    void manhattanDepthTwoIsTheFullBallNotTheStar() {
        List<int[]> ball = Neighborhoods.offsets(2, Metric.MANHATTAN, 1, 2);
        assertThat(ball).hasSize(12);
        assertThat(ball).anySatisfy(v -> assertThat(v).containsExactly(1, 1));
        List<int[]> star = Neighborhoods.offsets(2, Metric.AXIS, 1, 2);
        assertThat(star).hasSize(8);
        assertThat(star).noneSatisfy(v -> assertThat(v).containsExactly(1, 1));
    }

    @Test
    void periodicCountsFollowTheFormulas() {
        assertThat(Neighborhoods.periodicCount(2, Metric.CHEBYSHEV, 1, 1)).isEqualTo(8);
        assertThat(Neighborhoods.periodicCount(3, Metric.CHEBYSHEV, 1, 1)).isEqualTo(26);
        assertThat(Neighborhoods.periodicCount(2, Metric.CHEBYSHEV, 2, 3)).isEqualTo(49 - 9);
        assertThat(Neighborhoods.periodicCount(2, Metric.MANHATTAN, 1, 2)).isEqualTo(12);
        assertThat(Neighborhoods.periodicCount(3, Metric.MANHATTAN, 0, 2)).isEqualTo(25);
        assertThat(Neighborhoods.periodicCount(3, Metric.AXIS, 0, 2)).isEqualTo(13);
    }

    @Test
    void bordersOfANonPeriodicGridGiveProcNull() {
        CartesianNaming grid = CartesianNaming.of(new int[] {4, 4}, new boolean[] {true, false}, RankOrder.C);
        List<Neighborhoods.Neighbor> n = Neighborhoods.on(grid).neighbors(4, Metric.CHEBYSHEV, 1, 1);
        // rank 4 = (1,0): dimension 1 is not periodic, so every offset with -1 there falls off
        assertThat(n)
                .extracting(Neighborhoods.Neighbor::toString)
                .containsExactly("-1,-1 null", "0,-1 null", "1,-1 null", "-1,0 0", "1,0 8", "-1,1 1", "0,1 5", "1,1 9");
        assertThat(Neighborhoods.on(grid).neighborsCount(4, Metric.CHEBYSHEV, 1, 1))
                .isEqualTo(5);
        assertThat(Neighborhoods.on(grid).neighborRanks(4, Metric.CHEBYSHEV, 1, 1))
                .containsExactly(0, 8, 1, 5, 9);
        assertThat(Neighborhoods.on(grid).neighborRanks(0, Metric.CHEBYSHEV, 1, 1))
                .doesNotContain(PROC_NULL);
    }

    @Test
    void rejectsInvertedRange() {
        assertThatThrownBy(() -> Neighborhoods.offsets(2, Metric.CHEBYSHEV, 2, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("neighbors: depth 1 (expected: >= shadow 2)");
        assertThatThrownBy(() -> Neighborhoods.offsets(2, Metric.CHEBYSHEV, -1, 1))
                .hasMessage("neighbors: shadow -1 (expected: >= 0)");
    }
}
