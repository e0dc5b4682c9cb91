package dev.layout.collective;

import static dev.layout.collective.Harness.longs;
import static dev.layout.collective.Harness.pattern;
import static dev.layout.collective.Harness.toLongs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.Communicator;
import dev.layout.topology.GraphBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Neighbourhood semantics on random directed multigraphs (self-loops, repeated edges, ranks
 * without neighbours), checked against a brute-force model that knows the whole graph.
 */
class GraphCollectivesTest {

    /** The whole graph, known to the test only: out[r] and in[r] in list order. */
    static final class Model {
        final int[][] out;
        final int[][] in;

        Model(int p, long seed) {
            Random random = new Random(seed);
            out = new int[p][];
            List<List<Integer>> ins = new ArrayList<>();
            for (int q = 0; q < p; q++) {
                ins.add(new ArrayList<>());
            }
            for (int r = 0; r < p; r++) {
                int degree = random.nextInt(4); // 0..3, repeated targets allowed
                out[r] = new int[degree];
                for (int i = 0; i < degree; i++) {
                    out[r][i] = random.nextInt(p);
                    ins.get(out[r][i]).add(r);
                }
            }
            in = new int[p][];
            for (int q = 0; q < p; q++) {
                Collections.shuffle(ins.get(q), random);
                in[q] = ins.get(q).stream().mapToInt(Integer::intValue).toArray();
            }
        }

        /** The out-index i at rank r of the edge that is the k-th in-slot of rank q. */
        int outIndexOf(int q, int k) {
            int r = in[q][k];
            int occurrence = 0;
            for (int j = 0; j < k; j++) {
                if (in[q][j] == r) {
                    occurrence++;
                }
            }
            for (int i = 0; i < out[r].length; i++) {
                if (out[r][i] == q && occurrence-- == 0) {
                    return i;
                }
            }
            throw new AssertionError("inconsistent model");
        }
    }

    static int blockSize(int r, int i) {
        return (r + 2 * i) % 4; // includes zero-size blocks
    }

    @ParameterizedTest
    @CsvSource({"1, 1", "3, 2", "8, 3", "16, 4", "16, 5"})
    void neighbourhoodCollectivesMatchTheModel(int p, long seed) {
        Model m = new Model(p, seed);
        int root = (int) (seed % p);
        Harness.run(p, world -> {
            int r = world.rank();
            Communicator g = world.createGraph(GraphBuilder.adjacent(m.in[r], m.out[r]));
            Collectives c = Collectives.on(g);
            int[] s = m.in[r];
            int[] t = m.out[r];
            c.barrier();

            // allgather: block k from s[k]
            byte[] ag = new byte[3 * s.length];
            c.allgather(pattern(r, 0, 3), ag);
            for (int k = 0; k < s.length; k++) {
                assertThat(Arrays.copyOfRange(ag, 3 * k, 3 * k + 3)).isEqualTo(pattern(s[k], 0, 3));
            }

            // allgatherAny: in-neighbour k's whole array, of its own length (zero included)
            byte[][] any = new byte[s.length][];
            c.allgatherAny(pattern(r, 1, r % 4), any);
            for (int k = 0; k < s.length; k++) {
                assertThat(any[k]).isEqualTo(pattern(s[k], 1, s[k] % 4));
            }

            // alltoallv with unequal and empty blocks
            int[] sc = new int[t.length];
            int[] sd = new int[t.length];
            int total = 0;
            for (int i = 0; i < t.length; i++) {
                sc[i] = blockSize(r, i);
                sd[i] = total;
                total += sc[i];
            }
            byte[] send = new byte[total];
            for (int i = 0; i < t.length; i++) {
                System.arraycopy(pattern(r, i, sc[i]), 0, send, sd[i], sc[i]);
            }
            int[] rc = new int[s.length];
            int[] rd = new int[s.length];
            total = 0;
            for (int k = 0; k < s.length; k++) {
                rc[k] = blockSize(s[k], m.outIndexOf(r, k));
                rd[k] = total;
                total += rc[k];
            }
            byte[] recv = new byte[total];
            c.alltoallv(send, sc, sd, recv, rc, rd);
            for (int k = 0; k < s.length; k++) {
                assertThat(Arrays.copyOfRange(recv, rd[k], rd[k] + rc[k]))
                        .isEqualTo(pattern(s[k], m.outIndexOf(r, k), rc[k]));
            }

            // bcast: a rank receives once per occurrence of root among its in-neighbours
            byte[] buf = r == root ? pattern(root, 7, 4) : new byte[4];
            c.bcast(buf, root);
            boolean hasRoot = Arrays.stream(s).anyMatch(q -> q == root);
            assertThat(buf).isEqualTo(r == root || hasRoot ? pattern(root, 7, 4) : new byte[4]);

            // gather at root: block k from s_root[k]; self-loop is a local copy
            int[] sr = m.in[root];
            byte[] gathered = new byte[2 * sr.length];
            c.gather(pattern(r, 8, 2), gathered, root);
            if (r == root) {
                for (int k = 0; k < sr.length; k++) {
                    assertThat(Arrays.copyOfRange(gathered, 2 * k, 2 * k + 2)).isEqualTo(pattern(sr[k], 8, 2));
                }
            }

            // scatter from root: block i to t_root[i]; a rank listing root k times gets k blocks
            int[] tr = m.out[root];
            byte[] all = new byte[2 * tr.length];
            for (int i = 0; i < tr.length; i++) {
                System.arraycopy(pattern(root, 20 + i, 2), 0, all, 2 * i, 2);
            }
            int times = (int) Arrays.stream(s).filter(q -> q == root).count();
            byte[] part = new byte[2 * times];
            c.scatter(r == root ? all : null, part, root);
            int got = 0;
            for (int i = 0; i < tr.length; i++) {
                if (tr[i] == r) {
                    assertThat(Arrays.copyOfRange(part, 2 * got, 2 * got + 2)).isEqualTo(pattern(root, 20 + i, 2));
                    got++;
                }
            }
            assertThat(got).isEqualTo(times);

            // reduce at root and allreduce everywhere: sum over in-neighbours, untouched without any
            byte[] red = longs(-1);
            c.reduce(longs(r + 1), red, StandardOp.LONG_SUM, root);
            if (r == root) {
                long expected = sr.length == 0
                        ? -1
                        : Arrays.stream(sr).mapToLong(q -> q + 1).sum();
                assertThat(toLongs(red)).containsExactly(expected);
            }
            byte[] ar = longs(-1);
            c.allreduce(longs(r + 1), ar, StandardOp.LONG_SUM);
            long expected =
                    s.length == 0 ? -1 : Arrays.stream(s).mapToLong(q -> q + 1).sum();
            assertThat(toLongs(ar)).containsExactly(expected);

            // undefined operations are refused
            assertThatThrownBy(() -> c.reduceScatterBlock(new byte[0], new byte[0], StandardOp.LONG_SUM))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessage("reduceScatterBlock: undefined on a graph topology");
            assertThatThrownBy(() -> c.scan(longs(1), new byte[8], StandardOp.LONG_SUM))
                    .hasMessage("scan: undefined on a graph topology");
            assertThatThrownBy(() -> c.exscan(longs(1), new byte[8], StandardOp.LONG_SUM))
                    .hasMessage("exscan: undefined on a graph topology");
            return null;
        });
    }
}
