package dev.layout.collective;

import static dev.layout.collective.Harness.longs;
import static dev.layout.collective.Harness.pattern;
import static dev.layout.collective.Harness.toLongs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.Communicator;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Group A = world ranks 0..1, group B = world ranks 2..4. */
class InterCollectivesTest {

    @Test
    void collectivesCrossTheGroups() {
        Harness.run(5, world -> {
            int side = world.rank() < 2 ? 0 : 1;
            Communicator inter = world.createBipartite(side);
            Collectives c = Collectives.on(inter);
            int r = inter.rank();
            int remote = inter.remoteSize();
            c.barrier();

            // bcast from A's rank 1 to all of B
            byte[] buf = new byte[4];
            int root = side == 0 ? (r == 1 ? Communicator.ROOT : Communicator.PROC_NULL) : 1;
            if (side == 0 && r == 1) {
                buf = pattern(9, 9, 4);
            }
            c.bcast(buf, root);
            if (side == 1) {
                assertThat(buf).isEqualTo(pattern(9, 9, 4));
            }

            // gather at B's rank 0 from all of A
            byte[] gathered = new byte[3 * remote];
            int groot = side == 1 ? (r == 0 ? Communicator.ROOT : Communicator.PROC_NULL) : 0;
            c.gather(pattern(side, r, 3), gathered, groot);
            if (side == 1 && r == 0) {
                for (int q = 0; q < remote; q++) {
                    assertThat(Arrays.copyOfRange(gathered, 3 * q, 3 * q + 3)).isEqualTo(pattern(0, q, 3));
                }
            }

            // allreduce: each group gets the sum over the other group
            byte[] sum = new byte[8];
            c.allreduce(longs(world.rank()), sum, StandardOp.LONG_SUM);
            assertThat(toLongs(sum)).containsExactly(side == 0 ? 2 + 3 + 4 : 0 + 1);

            // allgather: the remote group's blocks in remote rank order
            byte[] ag = new byte[2 * remote];
            c.allgather(pattern(side, r, 2), ag);
            for (int q = 0; q < remote; q++) {
                assertThat(Arrays.copyOfRange(ag, 2 * q, 2 * q + 2)).isEqualTo(pattern(1 - side, q, 2));
            }

            // allgatherAny: the remote group's arrays, each of its own length
            byte[][] any = new byte[remote][];
            c.allgatherAny(pattern(side, r, 1 + r + side), any);
            for (int q = 0; q < remote; q++) {
                assertThat(any[q]).isEqualTo(pattern(1 - side, q, 1 + q + (1 - side)));
            }

            // alltoall: block q to remote rank q
            byte[] send = new byte[remote];
            for (int q = 0; q < remote; q++) {
                send[q] = (byte) (10 * side + 3 * r + q);
            }
            byte[] recv = new byte[remote];
            c.alltoall(send, recv, 1);
            for (int q = 0; q < remote; q++) {
                assertThat(recv[q]).isEqualTo((byte) (10 * (1 - side) + 3 * q + r));
            }

            // reduce_scatter_block: remote group's reduction scattered over this group
            long[] contrib = new long[remote];
            for (int q = 0; q < remote; q++) {
                contrib[q] = world.rank() * 10L + q;
            }
            byte[] rs = new byte[8];
            c.reduceScatterBlock(longs(contrib), rs, StandardOp.LONG_SUM);
            long expected = side == 0 ? (2 + 3 + 4) * 10L + 3L * r : (0 + 1) * 10L + 2L * r;
            assertThat(toLongs(rs)).containsExactly(expected);

            assertThatThrownBy(() -> c.scan(longs(1), new byte[8], StandardOp.LONG_SUM))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessage("scan: undefined on a bipartite (inter) topology");
            return null;
        });
    }

    /** Datatype forms across the groups: gather into a column type, scatter from it, typed allreduce. */
    @Test
    void datatypeFormsCrossTheGroups() {
        Harness.run(5, world -> {
            int side = world.rank() < 2 ? 0 : 1;
            Communicator inter = world.createBipartite(side);
            Collectives c = Collectives.on(inter);
            int r = inter.rank();
            int remote = inter.remoteSize();
            dev.layout.datatype.Datatype f64 = dev.layout.datatype.Primitive.FLOAT64;
            // B's rank 0 gathers two doubles from each A rank into column q of a 2 x remote matrix
            int groot = side == 1 ? (r == 0 ? Communicator.ROOT : Communicator.PROC_NULL) : 0;
            byte[] mine = Harness.doubles(world.rank() * 10, world.rank() * 10 + 1);
            byte[] gathered = new byte[16 * remote];
            BlockSpec columns = BlockSpec.of(gathered, 0, 1, TypedCollectivesTest.column(2, remote));
            c.gather(
                    groot == Communicator.ROOT ? null : BlockSpec.of(mine, 0, 2, f64),
                    groot == Communicator.ROOT ? columns : null,
                    groot);
            if (groot == Communicator.ROOT) {
                double[] g = Harness.toDoubles(gathered);
                for (int q = 0; q < remote; q++) {
                    assertThat(g[q]).isEqualTo(q * 10);
                    assertThat(g[remote + q]).isEqualTo(q * 10 + 1);
                }
            }
            // and scatters the columns back, doubled
            if (groot == Communicator.ROOT) {
                double[] g = Harness.toDoubles(gathered);
                for (int k = 0; k < g.length; k++) {
                    g[k] *= 2;
                }
                System.arraycopy(Harness.doubles(g), 0, gathered, 0, gathered.length);
            }
            byte[] back = new byte[16];
            c.scatter(
                    groot == Communicator.ROOT ? columns : null,
                    side == 0 ? BlockSpec.of(back, 0, 2, f64) : null,
                    groot);
            if (side == 0) {
                assertThat(Harness.toDoubles(back)).containsExactly(world.rank() * 20.0, world.rank() * 20.0 + 2);
            }
            // typed allreduce: each group gets the int64 sum over the other group
            byte[] sum = new byte[8];
            c.allreduce(
                    BlockSpec.of(longs(world.rank()), 0, 1, dev.layout.datatype.Primitive.INT64),
                    BlockSpec.of(sum, 0, 1, dev.layout.datatype.Primitive.INT64),
                    Reduction.SUM);
            assertThat(toLongs(sum)).containsExactly(side == 0 ? 2 + 3 + 4 : 0 + 1);
            return null;
        });
    }
}
