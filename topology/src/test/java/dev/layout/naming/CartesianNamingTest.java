package dev.layout.naming;

import static dev.layout.naming.CartesianNaming.PROC_NULL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CartesianNamingTest {

    private static final CartesianNaming TORUS_C =
            CartesianNaming.of(new int[] {4, 3}, new boolean[] {true, true}, RankOrder.C);
    private static final CartesianNaming MESH_C =
            CartesianNaming.of(new int[] {4, 3}, new boolean[] {false, false}, RankOrder.C);

    @Test
    void orderCVariesTheLastCoordinateFastest() {
        assertThat(TORUS_C.coordinates(0)).containsExactly(0, 0);
        assertThat(TORUS_C.coordinates(1)).containsExactly(0, 1);
        assertThat(TORUS_C.coordinates(3)).containsExactly(1, 0);
        assertThat(TORUS_C.rank(2, 1)).isEqualTo(7);
    }

    @Test
    void orderFVariesTheFirstCoordinateFastest() {
        CartesianNaming f = CartesianNaming.of(new int[] {4, 3}, new boolean[] {true, true}, RankOrder.F);
        assertThat(f.coordinates(1)).containsExactly(1, 0);
        assertThat(f.coordinates(4)).containsExactly(0, 1);
        assertThat(f.rank(2, 1)).isEqualTo(6);
    }

    @Test
    void permutationListsDimensionsFromSlowestToFastest() {
        int[] sizes = {2, 3, 4};
        boolean[] periods = {false, false, false};
        CartesianNaming p = CartesianNaming.withPermutation(sizes, periods, new int[] {1, 2, 0});
        // dimension 0 fastest (stride 1), then 2 (stride 2), then 1 (stride 8)
        assertThat(p.rank(1, 0, 0)).isEqualTo(1);
        assertThat(p.rank(0, 0, 1)).isEqualTo(2);
        assertThat(p.rank(0, 1, 0)).isEqualTo(8);
        assertThat(p.order()).isNull();
        assertThat(CartesianNaming.withPermutation(sizes, periods, new int[] {0, 1, 2}))
                .isEqualTo(CartesianNaming.of(sizes, periods, RankOrder.C));
        assertThat(CartesianNaming.withPermutation(sizes, periods, new int[] {2, 1, 0}))
                .isEqualTo(CartesianNaming.of(sizes, periods, RankOrder.F));
    }

    @Test
    void periodicDimensionsWrapAndOthersGiveProcNull() {
        assertThat(TORUS_C.rank(-1, 4)).isEqualTo(TORUS_C.rank(3, 1));
        assertThat(MESH_C.rank(-1, 0)).isEqualTo(PROC_NULL);
        assertThat(MESH_C.rank(0, 3)).isEqualTo(PROC_NULL);
        CartesianNaming mixed = CartesianNaming.of(new int[] {4, 3}, new boolean[] {true, false}, RankOrder.C);
        assertThat(mixed.rank(4, 2)).isEqualTo(2);
        assertThat(mixed.rank(4, 3)).isEqualTo(PROC_NULL);
    }

    @Test
    void ranksBeyondTheGridHaveNoName() {
        assertThat(MESH_C.coordinates(12)).isEmpty();
        assertThat(MESH_C.coordinates(PROC_NULL)).isEmpty();
        assertThat(MESH_C.relative(12, new int[] {0, 0})).isEqualTo(PROC_NULL);
        assertThat(MESH_C.relative(PROC_NULL, new int[] {0, 0})).isEqualTo(PROC_NULL);
        assertThat(MESH_C.isNamed(11)).isTrue();
        assertThat(MESH_C.isNamed(12)).isFalse();
    }

    @Test
    void relativeShiftAlongAnAxisIsCartShift() {
        // MPI_Cart_shift(dim 0, disp 1) on a periodic 4x3 grid at rank 4 = (1,1): source (0,1)=1, dest (2,1)=7
        CartesianNaming.Shift s = TORUS_C.relativeShift(4, new int[] {1, 0});
        assertThat(s).isEqualTo(new CartesianNaming.Shift(1, 7));
        // at the non-periodic border the shift gives PROC_NULL on one side
        assertThat(MESH_C.relativeShift(0, new int[] {1, 0})).isEqualTo(new CartesianNaming.Shift(PROC_NULL, 3));
        assertThat(MESH_C.relativeShift(9, new int[] {0, -2})).isEqualTo(new CartesianNaming.Shift(11, PROC_NULL));
    }

    @Test
    void relativeShiftAlongADiagonal() {
        CartesianNaming.Shift s = TORUS_C.relativeShift(0, new int[] {1, 1});
        assertThat(s.outRank()).isEqualTo(TORUS_C.rank(1, 1));
        assertThat(s.inRank()).isEqualTo(TORUS_C.rank(3, 2));
    }

    @Test
    void allRanksKeepProcNullInPlace() {
        assertThat(MESH_C.allRanks(List.of(new int[] {0, 0}, new int[] {5, 0}, new int[] {3, 2})))
                .containsExactly(0, PROC_NULL, 11);
        assertThat(MESH_C.allRanksRelative(0, List.of(new int[] {-1, 0}, new int[] {1, 1})))
                .containsExactly(PROC_NULL, 4);
    }

    @Test
    void relativeCoordinatesAndCanonicalOffsets() {
        assertThat(TORUS_C.relativeCoordinates(0, 11)).containsExactly(3, 2);
        assertThat(TORUS_C.canonicalOffset(new int[] {3, 2})).containsExactly(-1, -1);
        assertThat(TORUS_C.canonicalOffset(new int[] {2, -3})).containsExactly(2, 0);
        assertThat(MESH_C.canonicalOffset(new int[] {3, 2})).containsExactly(3, 2);
    }

    @Test
    void subColorGroupsRanksThatShareTheDroppedCoordinates() {
        boolean[] keepRows = {false, true};
        assertThat(MESH_C.subColor(0, keepRows)).isEqualTo(MESH_C.subColor(2, keepRows));
        assertThat(MESH_C.subColor(0, keepRows)).isNotEqualTo(MESH_C.subColor(3, keepRows));
        assertThat(MESH_C.subColor(12, keepRows)).isEqualTo(-1);
        assertThat(MESH_C.sub(keepRows))
                .isEqualTo(CartesianNaming.of(new int[] {3}, new boolean[] {false}, RankOrder.C));
    }

    @Test
    void rejectsBadArgumentsWithTheConstraint() {
        assertThatThrownBy(() -> CartesianNaming.of(new int[] {4, 0}, new boolean[2], RankOrder.C))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cartName: sizes[1] 0 (expected: >= 1)");
        assertThatThrownBy(() -> CartesianNaming.of(new int[] {4, 4}, new boolean[3], RankOrder.C))
                .hasMessage("cartName: periods length 3 (expected: d = 2)");
        assertThatThrownBy(() -> MESH_C.rank(1, 2, 3)).hasMessage("rank: coordinates length 3 (expected: d = 2)");
        assertThatThrownBy(() -> MESH_C.coordinates(-5))
                .hasMessage("coordinates: rank -5 (expected: >= 0 or PROC_NULL)");
        assertThatThrownBy(() -> CartesianNaming.withPermutation(new int[] {2, 2}, new boolean[2], new int[] {1, 1}))
                .hasMessage("cartName: permutation [1, 1] (expected: a permutation of 0..1)");
        assertThatThrownBy(() -> MESH_C.sub(new boolean[] {false, false}))
                .hasMessage("createSub: keep [false, false] (expected: at least one true)");
    }

    @Test
    void toStringIsCanonical() {
        assertThat(CartesianNaming.of(new int[] {4, 4}, new boolean[] {true, false}, RankOrder.C))
                .hasToString("cart([4,4], periods [1,0], C)");
    }
}
