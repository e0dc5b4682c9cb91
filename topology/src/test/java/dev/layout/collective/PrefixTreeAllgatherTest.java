package dev.layout.collective;

import static dev.layout.collective.Harness.pattern;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.Communicator;
import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Metric;
import dev.layout.naming.RankOrder;
import dev.layout.topology.DistGraph;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * allgather on Cartesian neighbourhoods along the prefix tree of the offsets: the same result as
 * the direct schedule, with messages and volume counted through the transport.
 */
class PrefixTreeAllgatherTest {

    static Stream<Arguments> grids() {
        return Stream.of(
                Arguments.of(new int[] {4, 4}, new boolean[] {true, true}, Metric.CHEBYSHEV, 1, 1),
                Arguments.of(new int[] {3, 3, 3}, new boolean[] {true, true, true}, Metric.CHEBYSHEV, 1, 1),
                Arguments.of(new int[] {4, 3}, new boolean[] {false, false}, Metric.CHEBYSHEV, 1, 1),
                Arguments.of(new int[] {5, 3}, new boolean[] {false, true}, Metric.MANHATTAN, 1, 2),
                Arguments.of(new int[] {2, 3}, new boolean[] {true, true}, Metric.CHEBYSHEV, 0, 1),
                Arguments.of(new int[] {16}, new boolean[] {false}, Metric.AXIS, 1, 3),
                Arguments.of(new int[] {2, 2, 2}, new boolean[] {false, true, false}, Metric.CHEBYSHEV, 0, 1));
    }

    /** Per rank: direct messages, combining messages, direct bytes, combining bytes. */
    @ParameterizedTest
    @MethodSource("grids")
    void prefixTreeAllgatherEqualsDirectAndCountsItsTraffic(
            int[] sizes, boolean[] periods, Metric metric, int shadow, int depth) {
        CartesianNaming grid = CartesianNaming.of(sizes, periods, RankOrder.C);
        int block = 24;
        List<long[]> traffic = Harness.run(grid.size(), world -> {
            Communicator g = StencilCollectivesTest.stencil(world, grid, metric, shadow, depth);
            DistGraph topo = (DistGraph) g.topology();
            assertThat(topo.cartesianity().isCartesian()).isTrue();
            int r = g.rank();
            int[] s = topo.sources();
            byte[] send = pattern(r, 0, block);
            byte[] direct = new byte[block * s.length];
            byte[] combined = new byte[block * s.length];
            Collectives d = Collectives.on(g).withPolicy(SchedulePolicy.DIRECT);
            Collectives c = Collectives.on(g).withPolicy(SchedulePolicy.COMBINING);
            long m0 = g.transport().sentMessages();
            long b0 = g.transport().sentBytes();
            d.allgather(send, direct);
            long m1 = g.transport().sentMessages();
            long b1 = g.transport().sentBytes();
            c.allgather(send, combined);
            long m2 = g.transport().sentMessages();
            long b2 = g.transport().sentBytes();
            assertThat(combined).isEqualTo(direct);
            for (int k = 0; k < s.length; k++) {
                assertThat(Arrays.copyOfRange(direct, block * k, block * k + block))
                        .isEqualTo(pattern(s[k], 0, block));
            }
            Schedule ds = d.allgatherSchedule(block);
            Schedule cs = c.allgatherSchedule(block);
            assertThat(cs.kind()).isEqualTo(Schedule.Kind.COMBINING);
            assertThat(m1 - m0).isEqualTo(ds.allgatherMessagesPerCall());
            assertThat(b1 - b0).isEqualTo((long) ds.allgatherBlocksPerCall() * block);
            assertThat(m2 - m1).isEqualTo(cs.allgatherMessagesPerCall());
            // every forwarded copy carries the block and a 4-byte length
            assertThat(b2 - b1).isEqualTo((long) cs.allgatherBlocksPerCall() * (block + 4));

            // allreduce runs the same exchange: identical results under both schedules
            byte[] ad = new byte[8];
            byte[] ac = new byte[8];
            d.allreduce(Harness.longs(r * 3L + 1), ad, StandardOp.LONG_SUM);
            c.allreduce(Harness.longs(r * 3L + 1), ac, StandardOp.LONG_SUM);
            assertThat(ac).isEqualTo(ad);
            return new long[] {m1 - m0, m2 - m1, ds.allgatherBlocksPerCall(), cs.allgatherBlocksPerCall()};
        });
        long directMessages = traffic.stream().mapToLong(t -> t[0]).sum();
        long combinedMessages = traffic.stream().mapToLong(t -> t[1]).sum();
        assertThat(combinedMessages).isLessThanOrEqualTo(directMessages);
        if (metric == Metric.CHEBYSHEV && grid.size() > 8) {
            assertThat(combinedMessages).isLessThan(directMessages);
        }
    }

    /** Moore neighbourhoods on a torus: 2d messages instead of 3^d - 1, and no extra volume. */
    @Test
    void mooreTorusSendsTwoDMessagesAndTheDirectVolume() {
        for (int d = 1; d <= 3; d++) {
            int[] sizes = new int[d];
            boolean[] periods = new boolean[d];
            Arrays.fill(sizes, d == 1 ? 5 : 3);
            Arrays.fill(periods, true);
            CartesianNaming grid = CartesianNaming.of(sizes, periods, RankOrder.C);
            int dims = d;
            int neighbours = (int) Math.pow(3, d) - 1;
            int block = 40;
            List<long[]> counts = Harness.run(grid.size(), world -> {
                Communicator g = StencilCollectivesTest.stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
                byte[] send = pattern(g.rank(), 1, block);
                byte[] recv = new byte[block * neighbours];
                Collectives c = Collectives.on(g).withPolicy(SchedulePolicy.COMBINING);
                long m0 = g.transport().sentMessages();
                long b0 = g.transport().sentBytes();
                c.allgather(send, recv);
                long m1 = g.transport().sentMessages();
                long b1 = g.transport().sentBytes();
                // the alltoall combining schedule forwards each block once per non-zero coordinate
                byte[] a2a = new byte[block * neighbours];
                c.alltoall(new byte[block * neighbours], a2a, block);
                long b2 = g.transport().sentBytes();
                return new long[] {m1 - m0, b1 - b0, b2 - b1};
            });
            long alltoallBlocks = 2L * dims * (long) Math.pow(3, dims - 1);
            for (long[] c : counts) {
                assertThat(c[0]).isEqualTo(2L * dims);
                assertThat(c[1]).isEqualTo((long) neighbours * (block + 4));
                assertThat(c[2]).isGreaterThan(alltoallBlocks * block);
                if (dims >= 2) {
                    assertThat(c[1]).isLessThan(c[2]);
                }
            }
        }
    }

    @Test
    void costModelPrefersTheTreeForAllgatherWheneverItSavesMessages() {
        CartesianNaming grid = CartesianNaming.of(new int[] {3, 3}, new boolean[] {true, true}, RankOrder.C);
        List<Schedule.Kind[]> kinds = Harness.run(9, world -> {
            Communicator g = StencilCollectivesTest.stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
            DistGraph topo = (DistGraph) g.topology();
            ScheduleSelector bandwidthBound = new ScheduleSelector(1e-9, 1e-3);
            return new Schedule.Kind[] {
                bandwidthBound.choose(topo, 1 << 20),
                bandwidthBound.chooseAllgather(topo, 1 << 20),
                Collectives.on(g).allgatherSchedule(8).kind()
            };
        });
        for (Schedule.Kind[] k : kinds) {
            // alltoall: forwarding 12 blocks instead of 8 loses when bytes dominate; allgather: same volume
            assertThat(k).containsExactly(Schedule.Kind.DIRECT, Schedule.Kind.COMBINING, Schedule.Kind.COMBINING);
        }
    }
}
