package dev.layout.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Metric;
import dev.layout.naming.Neighborhoods;
import dev.layout.naming.RankOrder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CartesianityTest {

    private static final Duration T = Duration.ofSeconds(20);

    private static List<String> check(CartesianNaming grid, Metric metric, boolean withNaming, int oddRankDrops) {
        return InProcessLauncher.run(grid.size(), T, comm -> {
            int[] nb = Neighborhoods.on(grid).neighborRanks(comm.rank(), metric, 1, 1);
            if (comm.rank() == oddRankDrops && nb.length > 0) {
                // drop this rank's last out-neighbour and the matching in-edge at the other end
                nb = java.util.Arrays.copyOf(nb, nb.length - 1);
            }
            int[] out = nb;
            int[] in = Neighborhoods.on(grid).neighborRanks(comm.rank(), metric, 1, 1);
            if (oddRankDrops >= 0) {
                int[] full = Neighborhoods.on(grid).neighborRanks(oddRankDrops, metric, 1, 1);
                int dropped = full[full.length - 1];
                if (comm.rank() == dropped) {
                    List<Integer> l = new java.util.ArrayList<>();
                    boolean removed = false;
                    for (int s : in) {
                        if (s == oddRankDrops && !removed) {
                            removed = true;
                        } else {
                            l.add(s);
                        }
                    }
                    in = l.stream().mapToInt(Integer::intValue).toArray();
                }
            }
            Communicator named = withNaming ? comm.cartName(grid) : comm;
            Communicator g = named.createGraph(GraphBuilder.adjacent(in, out));
            return ((DistGraph) g.topology()).cartesianity().toString();
        });
    }

    @Test
    void mooreNeighbourhoodOnATorusIsCartesian() {
        CartesianNaming torus = CartesianNaming.of(new int[] {4, 4}, new boolean[] {true, true}, RankOrder.C);
        assertThat(check(torus, Metric.CHEBYSHEV, true, -1))
                .containsOnly("Cartesian with offsets [(-1,-1),(-1,0),(-1,1),(0,-1),(0,1),(1,-1),(1,0),(1,1)]");
    }

    @Test
    void nonPeriodicGridIsCartesianDespiteMissingBorderNeighbours() {
        CartesianNaming mesh = CartesianNaming.of(new int[] {3, 4}, new boolean[] {false, true}, RankOrder.F);
        assertThat(check(mesh, Metric.MANHATTAN, true, -1))
                .containsOnly("Cartesian with offsets [(-1,0),(0,-1),(0,1),(1,0)]");
    }

    @Test
    void oneIrregularRankMakesTheGraphGeneralEverywhere() {
        CartesianNaming torus = CartesianNaming.of(new int[] {3, 3}, new boolean[] {true, true}, RankOrder.C);
        assertThat(check(torus, Metric.CHEBYSHEV, true, 4)).containsOnly("general");
        CartesianNaming mesh = CartesianNaming.of(new int[] {3, 3}, new boolean[] {false, false}, RankOrder.C);
        assertThat(check(mesh, Metric.CHEBYSHEV, true, 4)).containsOnly("general");
    }

    @Test
    void withoutANamingTheCheckAnswersGeneral() {
        CartesianNaming torus = CartesianNaming.of(new int[] {2, 2}, new boolean[] {true, true}, RankOrder.C);
        assertThat(check(torus, Metric.CHEBYSHEV, false, -1)).containsOnly("general");
    }

    @Test
    void smallPeriodicDimensionsFoldOffsetsTogether() {
        // on a 2x3 torus, offsets -1 and +1 along dimension 0 reach the same rank
        CartesianNaming torus = CartesianNaming.of(new int[] {2, 3}, new boolean[] {true, true}, RankOrder.C);
        assertThat(check(torus, Metric.MANHATTAN, true, -1))
                .containsOnly("Cartesian with offsets [(0,-1),(0,1),(1,0),(1,0)]");
    }
}
