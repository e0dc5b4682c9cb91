package dev.layout.collective;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.Communicator;
import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Metric;
import dev.layout.naming.Neighborhoods;
import dev.layout.naming.RankOrder;
import dev.layout.topology.DistGraph;
import dev.layout.topology.GraphBuilder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The message-combining schedule delivers exactly what the direct one does, for random grids
 * (periodic or not, small dimensions that fold offsets together), random subsets of a stencil
 * (asymmetric neighbourhoods) and a random order of the neighbour lists; the prefix-tree allgather
 * likewise.
 */
class CombiningSchedulePropertyTest {

    @Property(tries = 60)
    void combiningEqualsDirectOnRandomCartesianNeighbourhoods(
            @ForAll @IntRange(min = 1, max = 3) int d, @ForAll long seed) {
        Random random = new Random(seed);
        int[] sizes = new int[d];
        boolean[] periods = new boolean[d];
        int points = 1;
        for (int i = 0; i < d; i++) {
            sizes[i] = 1 + random.nextInt(d == 1 ? 5 : 3);
            periods[i] = random.nextBoolean();
            points *= sizes[i];
        }
        CartesianNaming grid = CartesianNaming.of(sizes, periods, random.nextBoolean() ? RankOrder.C : RankOrder.F);
        Metric metric = Metric.values()[random.nextInt(3)];
        int depth = 1 + random.nextInt(2);
        List<int[]> stencil = new ArrayList<>();
        for (int[] v : Neighborhoods.offsets(d, metric, 0, depth)) {
            if (random.nextInt(3) > 0) {
                stencil.add(v);
            }
        }
        Collections.shuffle(stencil, random);
        int block = random.nextInt(4);
        List<Boolean> cartesian = Harness.run(points, world -> {
            int r = world.rank();
            List<int[]> negated = new ArrayList<>();
            for (int[] v : stencil) {
                int[] n = new int[d];
                for (int i = 0; i < d; i++) {
                    n[i] = -v[i];
                }
                negated.add(n);
            }
            int[] out = drop(grid.allRanksRelative(r, stencil));
            int[] in = drop(grid.allRanksRelative(r, negated));
            Communicator g = world.cartName(grid).createGraph(GraphBuilder.adjacent(in, out));
            DistGraph topo = (DistGraph) g.topology();
            byte[] send = new byte[block * out.length];
            for (int i = 0; i < send.length; i++) {
                send[i] = (byte) (r * 17 + i);
            }
            byte[] direct = new byte[block * in.length];
            byte[] combined = new byte[block * in.length];
            Collectives.on(g).withPolicy(SchedulePolicy.DIRECT).alltoall(send, direct, block);
            if (topo.cartesianity().isCartesian()) {
                Collectives.on(g).withPolicy(SchedulePolicy.COMBINING).alltoall(send, combined, block);
                assertThat(combined).isEqualTo(direct);
            }
            return topo.cartesianity().isCartesian();
        });
        // the same stencil at every rank is always Cartesian
        assertThat(cartesian).containsOnly(true);
    }

    /** The prefix-tree allgather (and the allreduce on it) delivers what the direct schedule does. */
    @Property(tries = 60)
    void prefixTreeAllgatherEqualsDirectOnRandomCartesianNeighbourhoods(
            @ForAll @IntRange(min = 1, max = 3) int d, @ForAll long seed) {
        Random random = new Random(seed);
        int[] sizes = new int[d];
        boolean[] periods = new boolean[d];
        int points = 1;
        for (int i = 0; i < d; i++) {
            sizes[i] = 1 + random.nextInt(d == 1 ? 6 : 3);
            periods[i] = random.nextBoolean();
            points *= sizes[i];
        }
        CartesianNaming grid = CartesianNaming.of(sizes, periods, random.nextBoolean() ? RankOrder.C : RankOrder.F);
        Metric metric = Metric.values()[random.nextInt(3)];
        int depth = 1 + random.nextInt(2);
        List<int[]> stencil = new ArrayList<>();
        for (int[] v : Neighborhoods.offsets(d, metric, 0, depth)) {
            if (random.nextInt(3) > 0) {
                stencil.add(v);
            }
        }
        Collections.shuffle(stencil, random);
        int block = random.nextInt(5);
        Harness.run(points, world -> {
            int r = world.rank();
            List<int[]> negated = new ArrayList<>();
            for (int[] v : stencil) {
                int[] n = new int[d];
                for (int i = 0; i < d; i++) {
                    n[i] = -v[i];
                }
                negated.add(n);
            }
            int[] out = drop(grid.allRanksRelative(r, stencil));
            int[] in = drop(grid.allRanksRelative(r, negated));
            Communicator g = world.cartName(grid).createGraph(GraphBuilder.adjacent(in, out));
            DistGraph topo = (DistGraph) g.topology();
            assertThat(topo.cartesianity().isCartesian()).isTrue();
            byte[] send = Harness.pattern(r, 3, block);
            byte[] direct = new byte[block * in.length];
            byte[] combined = new byte[block * in.length];
            Collectives.on(g).withPolicy(SchedulePolicy.DIRECT).allgather(send, direct);
            Collectives.on(g).withPolicy(SchedulePolicy.COMBINING).allgather(send, combined);
            assertThat(combined).isEqualTo(direct);
            for (int k = 0; k < in.length; k++) {
                assertThat(java.util.Arrays.copyOfRange(direct, block * k, block * k + block))
                        .isEqualTo(Harness.pattern(in[k], 3, block));
            }
            byte[] sd = new byte[8];
            byte[] sc = new byte[8];
            Collectives.on(g)
                    .withPolicy(SchedulePolicy.DIRECT)
                    .allreduce(Harness.longs(r + 1), sd, StandardOp.LONG_MAX);
            Collectives.on(g)
                    .withPolicy(SchedulePolicy.COMBINING)
                    .allreduce(Harness.longs(r + 1), sc, StandardOp.LONG_MAX);
            assertThat(sc).isEqualTo(sd);
            return null;
        });
    }

    private static int[] drop(int[] ranks) {
        return java.util.Arrays.stream(ranks)
                .filter(q -> q != CartesianNaming.PROC_NULL)
                .toArray();
    }
}
