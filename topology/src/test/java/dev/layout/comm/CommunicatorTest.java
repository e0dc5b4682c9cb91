package dev.layout.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Metric;
import dev.layout.naming.Neighborhoods;
import dev.layout.naming.RankOrder;
import dev.layout.topology.DistGraph;
import dev.layout.topology.GraphBuilder;
import dev.layout.topology.TopologyKind;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommunicatorTest {

    private static final Duration T = Duration.ofSeconds(20);

    private static Communicator ring(Communicator comm) {
        int r = comm.rank();
        int p = comm.size();
        return comm.createGraph(GraphBuilder.adjacent(new int[] {(r + p - 1) % p}, new int[] {(r + 1) % p}));
    }

    @Test
    void worldIsFullyConnectedAndItsOwnBase() {
        List<String> out = InProcessLauncher.run(3, T, comm -> {
            assertThat(comm.base()).isSameAs(comm);
            return comm.kind() + " " + comm.rank() + "/" + comm.size() + " " + comm.topology();
        });
        assertThat(out).containsExactly("FULL 0/3 full(3)", "FULL 1/3 full(3)", "FULL 2/3 full(3)");
    }

    @Test
    void pointToPointOnAFullCommunicatorReachesAnyRank() {
        List<Integer> got = InProcessLauncher.run(4, T, comm -> {
            int dest = (comm.rank() + 2) % 4;
            comm.send(dest, 3, new byte[] {(byte) comm.rank()});
            return (int) comm.recv((comm.rank() + 2) % 4, 3)[0];
        });
        assertThat(got).containsExactly(2, 3, 0, 1);
    }

    @Test
    void graphSendsOnlyAlongOutEdges() {
        List<Integer> got = InProcessLauncher.run(4, T, comm -> {
            Communicator g = ring(comm);
            int r = g.rank();
            g.send((r + 1) % 4, 0, new byte[] {(byte) r});
            int fromPrev = g.recv((r + 3) % 4, 0)[0];
            if (r == 0) {
                assertThatThrownBy(() -> g.send(2, 0, new byte[0]))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage(
                                "send: dest 2 (expected: an out-neighbour of rank 0 in the graph topology; rank 0 and rank 2 are not adjacent, use base() for unrestricted traffic)");
                assertThatThrownBy(() -> g.recv(1, 0))
                        .hasMessageContaining("recv: source 1 (expected: an in-neighbour of rank 0");
            }
            // unrestricted traffic goes through base()
            Communicator base = g.base();
            assertThat(base.kind()).isEqualTo(TopologyKind.FULL);
            assertThat(base).isSameAs(g.base());
            base.send((r + 2) % 4, 1, new byte[] {(byte) (10 + r)});
            assertThat(base.recv((r + 2) % 4, 1)[0]).isEqualTo((byte) (10 + (r + 2) % 4));
            return fromPrev;
        });
        assertThat(got).containsExactly(3, 0, 1, 2);
    }

    @Test
    void splitOfAGraphYieldsTheInducedSubgraph() {
        // 9-point stencil on a 3x3 torus, split into even and odd ranks
        CartesianNaming grid = CartesianNaming.of(new int[] {3, 3}, new boolean[] {true, true}, RankOrder.C);
        List<String> out = InProcessLauncher.run(9, T, comm -> {
            int[] nb = Neighborhoods.on(grid).neighborRanks(comm.rank(), Metric.CHEBYSHEV, 1, 1);
            Communicator g = comm.cartName(grid).createGraph(GraphBuilder.adjacent(nb, nb));
            Communicator half = g.split(comm.rank() % 2, comm.rank()).orElseThrow();
            DistGraph sub = (DistGraph) half.topology();
            // brute force: the kept neighbours, translated to ranks of the half
            int[] expected = java.util.Arrays.stream(nb)
                    .filter(q -> q % 2 == comm.rank() % 2)
                    .map(q -> q / 2)
                    .toArray();
            assertThat(sub.destinations()).containsExactly(expected);
            assertThat(sub.sources()).containsExactly(expected);
            assertThat(half.rank()).isEqualTo(comm.rank() / 2);
            return comm.rank() == 4 ? sub.toString() : "";
        });
        // rank 4 = (1,1): neighbours 0,1,2,3,5,6,7,8; even ones in generation order 0,6,2,8 -> ranks 0,3,1,4 of the
        // even half
        assertThat(out.get(4)).isEqualTo("graph(in [0,3,1,4], out [0,3,1,4], general)");
    }

    @Test
    void splitOrdersByKeyAndLeavesUndefinedOut() {
        List<String> out = InProcessLauncher.run(5, T, comm -> {
            int color = comm.rank() == 4 ? Communicator.UNDEFINED : comm.rank() % 2;
            return comm.split(color, -comm.rank())
                    .map(c -> c.rank() + "/" + c.size() + " " + c.group())
                    .orElse("none");
        });
        assertThat(out).containsExactly("1/2 group[2,0]", "1/2 group[3,1]", "0/2 group[2,0]", "0/2 group[3,1]", "none");
    }

    @Test
    void createOverAGroupKeepsTheGroupOrder() {
        List<String> out =
                InProcessLauncher.run(4, T, comm -> comm.create(comm.group().incl(3, 1))
                        .map(c -> String.valueOf(c.rank()))
                        .orElse("-"));
        assertThat(out).containsExactly("-", "1", "-", "0");
    }

    @Test
    void createSubKeepsTheMarkedDimensions() {
        CartesianNaming grid = CartesianNaming.of(new int[] {2, 3}, new boolean[] {false, false}, RankOrder.C);
        List<String> out = InProcessLauncher.run(7, T, comm -> {
            Communicator named = comm.cartName(grid);
            return named.createSub(new boolean[] {false, true})
                    .map(c -> c.group() + " " + c.naming().isPresent())
                    .orElse("unnamed");
        });
        assertThat(out.subList(0, 3)).containsOnly("group[0,1,2] false");
        assertThat(out.subList(3, 6)).containsOnly("group[3,4,5] false");
        assertThat(out.get(6)).isEqualTo("unnamed");
    }

    @Test
    void bipartiteCommunicatorTalksOnlyAcrossAndItsBaseIsTheLocalGroup() {
        List<String> out = InProcessLauncher.run(5, T, comm -> {
            int side = comm.rank() < 2 ? 0 : 1;
            Communicator inter = comm.createBipartite(side);
            assertThat(inter.kind()).isEqualTo(TopologyKind.INTER);
            // local rank 0 of each side sends to remote rank 0
            if (inter.rank() == 0) {
                inter.send(0, 0, new byte[] {(byte) comm.rank()});
                byte[] got = inter.recv(0, 0);
                assertThat(got[0]).isEqualTo((byte) (side == 0 ? 2 : 0));
            }
            if (side == 0) {
                assertThatThrownBy(() -> inter.send(3, 0, new byte[0]))
                        .hasMessageContaining("send: dest 3 (expected: a rank of the remote group 0..2");
            }
            Communicator base = inter.base();
            return inter.rank() + "/" + inter.size() + "+" + inter.remoteSize() + " " + base.group();
        });
        assertThat(out)
                .containsExactly(
                        "0/2+3 group[0,1]",
                        "1/2+3 group[0,1]",
                        "0/3+2 group[2,3,4]",
                        "1/3+2 group[2,3,4]",
                        "2/3+2 group[2,3,4]");
    }

    @Test
    void aMissingMessageTimesOutWithBothRanksInTheError() {
        assertThatThrownBy(() -> InProcessLauncher.run(
                        2, Duration.ofMillis(300), comm -> comm.rank() == 0 ? comm.recv(1, 0) : new byte[0]))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("recv: rank 0 <- rank 1");
    }

    @Test
    void namingMustFitTheCommunicator() {
        InProcessLauncher.runEach(2, T, comm -> assertThatThrownBy(
                        () -> comm.cartName(CartesianNaming.of(new int[] {3}, new boolean[] {false}, RankOrder.C)))
                .hasMessage("cartName: grid size 3 (expected: <= communicator size 2)"));
    }
}
