package dev.layout.collective;

import static dev.layout.collective.Harness.longs;
import static dev.layout.collective.Harness.pattern;
import static dev.layout.collective.Harness.toLongs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FullCollectivesTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5, 16})
    void rootedOperationsHaveTheMpiMeaning(int p) {
        int root = p - 1;
        Harness.run(p, comm -> {
            Collectives c = Collectives.on(comm);
            int r = comm.rank();
            c.barrier();
            byte[] buf = r == root ? pattern(root, 0, 5) : new byte[5];
            c.bcast(buf, root);
            assertThat(buf).isEqualTo(pattern(root, 0, 5));

            // gatherv with unequal (and zero) counts, in reverse placement
            byte[] mine = pattern(r, 1, r % 3);
            int[] counts = new int[p];
            int[] displs = new int[p];
            int total = 0;
            for (int q = p - 1; q >= 0; q--) {
                counts[q] = q % 3;
                displs[q] = total;
                total += counts[q];
            }
            byte[] gathered = new byte[total];
            c.gatherv(mine, gathered, counts, displs, root);
            if (r == root) {
                for (int q = 0; q < p; q++) {
                    assertThat(Arrays.copyOfRange(gathered, displs[q], displs[q] + counts[q]))
                            .isEqualTo(pattern(q, 1, q % 3));
                }
            }

            // scatter: block q of root's send goes to rank q
            byte[] all = new byte[4 * p];
            for (int q = 0; q < p; q++) {
                System.arraycopy(pattern(q, 2, 4), 0, all, 4 * q, 4);
            }
            byte[] part = new byte[4];
            c.scatter(r == root ? all : null, part, root);
            assertThat(part).isEqualTo(pattern(r, 2, 4));

            // reduce and allreduce fold in rank order
            byte[] sum = new byte[16];
            c.reduce(longs(r, -r), sum, StandardOp.LONG_SUM, root);
            long s = (long) p * (p - 1) / 2;
            if (r == root) {
                assertThat(toLongs(sum)).containsExactly(s, -s);
            }
            byte[] max = new byte[8];
            c.allreduce(Harness.doubles(r * 1.5), max, StandardOp.DOUBLE_MAX);
            assertThat(Harness.toDoubles(max)).containsExactly((p - 1) * 1.5);

            // allgather and alltoall
            byte[] ag = new byte[3 * p];
            c.allgather(pattern(r, 3, 3), ag);
            for (int q = 0; q < p; q++) {
                assertThat(Arrays.copyOfRange(ag, 3 * q, 3 * q + 3)).isEqualTo(pattern(q, 3, 3));
            }
            // allgatherAny: arrays of every rank's own length, rank 0's empty
            byte[][] any = new byte[p][];
            c.allgatherAny(pattern(r, 5, 7 * r), any);
            for (int q = 0; q < p; q++) {
                assertThat(any[q]).isEqualTo(pattern(q, 5, 7 * q));
            }
            byte[] send = new byte[2 * p];
            for (int q = 0; q < p; q++) {
                System.arraycopy(pattern(r, q, 2), 0, send, 2 * q, 2);
            }
            byte[] recv = new byte[2 * p];
            c.alltoall(send, recv, 2);
            for (int q = 0; q < p; q++) {
                assertThat(Arrays.copyOfRange(recv, 2 * q, 2 * q + 2)).isEqualTo(pattern(q, r, 2));
            }

            // reduce_scatter_block, scan, exscan
            long[] contributions = new long[p];
            for (int q = 0; q < p; q++) {
                contributions[q] = (long) r * 100 + q;
            }
            byte[] rs = new byte[8];
            c.reduceScatterBlock(longs(contributions), rs, StandardOp.LONG_SUM);
            assertThat(toLongs(rs)).containsExactly(s * 100 + (long) r * p);
            byte[] scan = new byte[8];
            c.scan(longs(r + 1), scan, StandardOp.LONG_SUM);
            assertThat(toLongs(scan)).containsExactly((long) (r + 1) * (r + 2) / 2);
            byte[] ex = longs(-7);
            c.exscan(longs(r + 1), ex, StandardOp.LONG_SUM);
            assertThat(toLongs(ex)).containsExactly(r == 0 ? -7 : (long) r * (r + 1) / 2);
            return null;
        });
    }

    @Test
    void alltoallvMovesUnequalAndEmptyBlocks() {
        int p = 6;
        Harness.run(p, comm -> {
            int r = comm.rank();
            int[] sc = new int[p];
            int[] sd = new int[p];
            int[] rc = new int[p];
            int[] rd = new int[p];
            int st = 0;
            int rt = 0;
            for (int q = 0; q < p; q++) {
                sc[q] = (r + q) % 4; // zero for some pairs
                sd[q] = st;
                st += sc[q];
                rc[q] = (q + r) % 4;
                rd[q] = rt;
                rt += rc[q];
            }
            byte[] send = new byte[st];
            for (int q = 0; q < p; q++) {
                System.arraycopy(pattern(r, q, sc[q]), 0, send, sd[q], sc[q]);
            }
            byte[] recv = new byte[rt];
            Collectives.on(comm).alltoallv(send, sc, sd, recv, rc, rd);
            for (int q = 0; q < p; q++) {
                assertThat(Arrays.copyOfRange(recv, rd[q], rd[q] + rc[q])).isEqualTo(pattern(q, r, rc[q]));
            }
            return null;
        });
    }

    @Test
    void argumentErrorsNameTheArgumentAndConstraint() {
        Harness.run(2, comm -> {
            Collectives c = Collectives.on(comm);
            assertThatThrownBy(() -> c.bcast(new byte[1], 2))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("bcast: root 2 (expected: 0..1)");
            assertThatThrownBy(() -> c.allreduce(new byte[8], new byte[6], StandardOp.LONG_SUM))
                    .hasMessage("allreduce: recv length 6 (expected: a multiple of 8)");
            assertThatThrownBy(() -> c.alltoallv(
                            new byte[4], new int[] {2, 3}, new int[] {0, 2}, new byte[4], new int[] {2, 2}, new int[] {
                                0, 2
                            }))
                    .hasMessage("alltoallv: displs[1]+sendCounts[1] 5 (expected: <= send length 4)");
            return null;
        });
    }

    @Test
    void mismatchedBlockSizesAreReportedAtTheReceiver() {
        assertThatThrownBy(() -> Harness.run(2, comm -> {
                    byte[] buf = new byte[comm.rank() == 0 ? 4 : 3];
                    Collectives.on(comm).bcast(buf, 0);
                    return null;
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bcast: block from rank 0 has 4 bytes (expected: buffer 3 at rank 1)");
    }
}
