package dev.layout.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GraphBuilderTest {

    private static final Duration T = Duration.ofSeconds(20);

    @Test
    void adjacentListsAreKeptInTheGivenOrderWithWeights() {
        // ring 0 -> 1 -> 2 -> 0 with weight = source rank + 10
        List<String> views = InProcessLauncher.run(3, T, comm -> {
            int r = comm.rank();
            int next = (r + 1) % 3;
            int prev = (r + 2) % 3;
            Communicator g = comm.createGraph(GraphBuilder.adjacent(
                    new int[] {prev}, new int[] {prev + 10}, new int[] {next}, new int[] {r + 10}));
            return g.topology().toString();
        });
        assertThat(views)
                .containsExactly(
                        "graph(in [2:12], out [1:10], general)",
                        "graph(in [0:10], out [2:11], general)",
                        "graph(in [1:11], out [0:12], general)");
    }

    @Test
    void edgesFromAnyRankReachBothEndsInContributorOrder() {
        // rank 0 gives every edge of a multigraph: 1->2 twice, 2->1, 0->0 (self-loop), 3->1
        List<DistGraph> graphs = InProcessLauncher.run(4, T, comm -> {
            GraphBuilder b = comm.rank() == 0
                    ? GraphBuilder.edges(
                            new int[] {1, 2, 0, 1, 3}, new int[] {2, 1, 0, 2, 1}, new int[] {5, 6, 7, 8, 9})
                    : GraphBuilder.edges(new int[0], new int[0], new int[0]);
            return (DistGraph) comm.createGraph(b).topology();
        });
        assertThat(graphs.get(0).sources()).containsExactly(0);
        assertThat(graphs.get(0).destinations()).containsExactly(0);
        assertThat(graphs.get(1).destinations()).containsExactly(2, 2);
        assertThat(graphs.get(1).destinationWeights()).containsExactly(5, 8);
        assertThat(graphs.get(1).sources()).containsExactly(2, 3);
        assertThat(graphs.get(1).sourceWeights()).containsExactly(6, 9);
        assertThat(graphs.get(2).sources()).containsExactly(1, 1);
        assertThat(graphs.get(3).indegree()).isZero();
        assertThat(graphs.get(3).destinations()).containsExactly(1);
    }

    @Test
    void edgesGivenBySeveralRanksAreOrderedByContributor() {
        List<DistGraph> graphs = InProcessLauncher.run(3, T, comm -> {
            // each rank r gives the edge r -> 0
            return (DistGraph) comm.createGraph(GraphBuilder.edges(new int[] {comm.rank()}, new int[] {0}))
                    .topology();
        });
        assertThat(graphs.get(0).sources()).containsExactly(0, 1, 2);
        assertThat(graphs.get(0).isWeighted()).isFalse();
    }

    @Test
    void contradictingAdjacencyListsFailAtEveryRank() {
        assertThatThrownBy(() -> InProcessLauncher.run(
                        2, T, comm -> comm.createGraph(GraphBuilder.adjacent(new int[0], new int[] {1 - comm.rank()}))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("distGraphCreateAdjacent: rank 0: sources list rank 1 0 times (expected: 1");
    }

    @Test
    void anInvalidRankAnywhereFailsEverywhere() {
        assertThatThrownBy(() -> InProcessLauncher.run(3, T, comm -> {
                    int[] dest = comm.rank() == 2 ? new int[] {5} : new int[0];
                    return comm.createGraph(GraphBuilder.adjacent(new int[0], dest));
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("distGraphCreateAdjacent: rank 2: destinations[0] 5 (expected: 0..2)");
    }
}
