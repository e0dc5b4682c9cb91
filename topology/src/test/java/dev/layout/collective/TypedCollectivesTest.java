package dev.layout.collective;

import static dev.layout.collective.Harness.doubles;
import static dev.layout.collective.Harness.ints;
import static dev.layout.collective.Harness.toDoubles;
import static dev.layout.collective.Harness.toInts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.Communicator;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import dev.layout.topology.GraphBuilder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The datatype forms of every collective (buffer, displacement, count, datatype), checked element
 * by element against a sequential computation: subarray and vector types for bcast, gather(v),
 * scatter(v), allgather(v) and alltoall, typed reductions (float64 sum over a strided vector,
 * int32 max over an indexed type, scans and reduce_scatter_block), unequal and zero counts.
 */
class TypedCollectivesTest {

    static final Datatype F64 = Primitive.FLOAT64;

    /** Column-interleaving type: a column of a rows x cols float64 matrix, extent one element. */
    static Datatype column(int rows, int cols) {
        return Datatype.resized(0, 8, Datatype.vector(rows, 1, cols, F64));
    }

    static double value(int rank, int i, int j) {
        return rank * 1000 + i * 10 + j;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 16})
    void rootedAndAllToAllDatatypeFormsMatchTheSequentialResult(int p) {
        int root = p / 2;
        Harness.run(p, comm -> {
            Collectives c = Collectives.on(comm);
            int r = comm.rank();

            // bcast: the interior 4x4 subarray of a 6x6 float64 matrix; the frame stays untouched
            Datatype interior =
                    Datatype.subarray(new long[] {6, 6}, new long[] {4, 4}, new long[] {1, 1}, Order.C, F64);
            double[] m = new double[36];
            for (int k = 0; k < 36; k++) {
                m[k] = r == root ? 1000 + k : -1 - r;
            }
            byte[] mb = doubles(m);
            c.bcast(BlockSpec.of(mb, 0, 1, interior), root);
            double[] got = toDoubles(mb);
            for (int i = 0; i < 6; i++) {
                for (int j = 0; j < 6; j++) {
                    boolean inside = i >= 1 && i <= 4 && j >= 1 && j <= 4;
                    assertThat(got[i * 6 + j]).isEqualTo(inside || r == root ? 1000 + i * 6 + j : -1 - r);
                }
            }

            // gather: column 1 of each rank's 4x3 matrix (vector) becomes column q of root's 4 x p
            double[] mine = new double[12];
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 3; j++) {
                    mine[i * 3 + j] = value(r, i, j);
                }
            }
            Datatype col3 = Datatype.vector(4, 1, 3, F64);
            byte[] gathered = doubles(new double[4 * p]);
            c.gather(
                    BlockSpec.of(doubles(mine), 8, 1, col3),
                    r == root ? BlockSpec.of(gathered, 0, 1, column(4, p)) : null,
                    root);
            if (r == root) {
                double[] g = toDoubles(gathered);
                for (int i = 0; i < 4; i++) {
                    for (int q = 0; q < p; q++) {
                        assertThat(g[i * p + q]).isEqualTo(value(q, i, 1));
                    }
                }
            }

            // gatherv: q%3 elements from rank q (zero for some), placed in reverse rank order
            long[] counts = new long[p];
            long[] displs = new long[p];
            long total = 0;
            for (int q = p - 1; q >= 0; q--) {
                counts[q] = q % 3;
                displs[q] = total;
                total += counts[q];
            }
            double[] part = new double[r % 3];
            for (int k = 0; k < part.length; k++) {
                part[k] = value(r, k, 0);
            }
            byte[] gv = doubles(new double[(int) total]);
            Block[] gvBlocks = r == root ? BlockSpec.displaced(Memory.ofArray(gv), 0, counts, displs, F64) : null;
            c.gatherv(BlockSpec.of(doubles(part), 0, r % 3, F64), gvBlocks, root);
            if (r == root) {
                double[] g = toDoubles(gv);
                for (int q = 0; q < p; q++) {
                    for (int k = 0; k < counts[q]; k++) {
                        assertThat(g[(int) displs[q] + k]).isEqualTo(value(q, k, 0));
                    }
                }
            }

            // scatter: column q of root's 4 x p matrix to rank q, received as 4 contiguous doubles
            double[] all = new double[4 * p];
            for (int i = 0; i < 4; i++) {
                for (int q = 0; q < p; q++) {
                    all[i * p + q] = value(q, i, 7);
                }
            }
            byte[] col = new byte[32];
            c.scatter(
                    r == root ? BlockSpec.of(doubles(all), 0, 1, column(4, p)) : null,
                    BlockSpec.of(col, 0, 4, F64),
                    root);
            assertThat(toDoubles(col)).containsExactly(value(r, 0, 7), value(r, 1, 7), value(r, 2, 7), value(r, 3, 7));

            // scatterv: counts[q] elements at displs[q] of root's buffer to rank q (zero for some)
            double[] src = new double[(int) total];
            for (int q = 0; q < p; q++) {
                for (int k = 0; k < counts[q]; k++) {
                    src[(int) displs[q] + k] = value(q, k, 5);
                }
            }
            byte[] sv = doubles(new double[(int) counts[r]]);
            Block[] svBlocks =
                    r == root ? BlockSpec.displaced(Memory.ofArray(doubles(src)), 0, counts, displs, F64) : null;
            c.scatterv(svBlocks, BlockSpec.of(sv, 0, counts[r], F64), root);
            for (int k = 0; k < counts[r]; k++) {
                assertThat(toDoubles(sv)[k]).isEqualTo(value(r, k, 5));
            }

            // alltoall: column q of my 2 x p matrix to rank q; block q of recv from rank q
            double[] a2a = new double[2 * p];
            for (int i = 0; i < 2; i++) {
                for (int q = 0; q < p; q++) {
                    a2a[i * p + q] = value(r, i, q);
                }
            }
            byte[] a2aRecv = new byte[16 * p];
            c.alltoall(BlockSpec.of(doubles(a2a), 0, 1, column(2, p)), BlockSpec.of(a2aRecv, 0, 2, F64));
            double[] ar = toDoubles(a2aRecv);
            for (int q = 0; q < p; q++) {
                assertThat(ar[2 * q]).isEqualTo(value(q, 0, r));
                assertThat(ar[2 * q + 1]).isEqualTo(value(q, 1, r));
            }
            return null;
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5, 16})
    void allgatherWithSubarrayAndDisplacedTypes(int p) {
        Harness.run(p, comm -> {
            Collectives c = Collectives.on(comm);
            int r = comm.rank();
            // each rank's 2x2 block lands at columns 2q..2q+1 of a 2 x 2p matrix (resized subarray)
            double[] block = {value(r, 0, 0), value(r, 0, 1), value(r, 1, 0), value(r, 1, 1)};
            Datatype tile = Datatype.resized(
                    0,
                    16,
                    Datatype.subarray(new long[] {2, 2L * p}, new long[] {2, 2}, new long[] {0, 0}, Order.C, F64));
            byte[] global = doubles(new double[4 * p]);
            c.allgather(BlockSpec.of(doubles(block), 0, 4, F64), BlockSpec.of(global, 0, 1, tile));
            double[] g = toDoubles(global);
            for (int i = 0; i < 2; i++) {
                for (int q = 0; q < p; q++) {
                    for (int j = 0; j < 2; j++) {
                        assertThat(g[i * 2 * p + 2 * q + j]).isEqualTo(value(q, i, j));
                    }
                }
            }

            // allgatherv: rank q contributes q%4 int32s (zero for some), strided at the sender
            long[] counts = new long[p];
            long[] displs = new long[p];
            long total = 0;
            for (int q = 0; q < p; q++) {
                counts[q] = q % 4;
                displs[q] = total + 1; // a gap of one element before every block
                total += counts[q] + 1;
            }
            int[] strided = new int[2 * 3];
            for (int k = 0; k < 3; k++) {
                strided[2 * k] = r * 100 + k;
                strided[2 * k + 1] = -9;
            }
            int[] recv = new int[(int) total];
            Arrays.fill(recv, -1);
            byte[] rb = ints(recv);
            Datatype everyOther = Datatype.resized(0, 8, Primitive.INT32);
            c.allgatherv(
                    BlockSpec.of(ints(strided), 0, r % 4, everyOther),
                    BlockSpec.displaced(Memory.ofArray(rb), 0, counts, displs, Primitive.INT32));
            int[] gv = toInts(rb);
            for (int q = 0; q < p; q++) {
                assertThat(gv[(int) displs[q] - 1]).isEqualTo(-1);
                for (int k = 0; k < counts[q]; k++) {
                    assertThat(gv[(int) displs[q] + k]).isEqualTo(q * 100 + k);
                }
            }
            return null;
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8, 16})
    void typedReductionsApplyTheOpPerPrimitive(int p) {
        int root = p - 1;
        Harness.run(p, comm -> {
            Collectives c = Collectives.on(comm);
            int r = comm.rank();
            // float64 sum over a strided vector (column 0 of a 5x3 matrix) into column 1 of a 5x2
            Datatype sendCol = Datatype.vector(5, 1, 3, F64);
            Datatype recvCol = Datatype.vector(5, 1, 2, F64);
            double[] sm = new double[15];
            Arrays.fill(sm, 1e9);
            for (int k = 0; k < 5; k++) {
                sm[3 * k] = sendValue(r, k);
            }
            byte[] rbuf = doubles(filled(10, -7));
            c.allreduce(BlockSpec.of(doubles(sm), 0, 1, sendCol), BlockSpec.of(rbuf, 8, 1, recvCol), Reduction.SUM);
            double[] res = toDoubles(rbuf);
            for (int k = 0; k < 5; k++) {
                double expected = sendValue(0, k);
                for (int q = 1; q < p; q++) {
                    expected += sendValue(q, k);
                }
                assertThat(res[2 * k + 1]).isEqualTo(expected);
                assertThat(res[2 * k]).isEqualTo(-7);
            }

            // int32 max over an indexed type at the root
            Datatype idx = Datatype.indexed(new long[] {2, 1}, new long[] {0, 4}, Primitive.INT32);
            int[] iv = new int[5];
            Arrays.fill(iv, Integer.MAX_VALUE);
            int[] picks = {0, 1, 4};
            for (int k = 0; k < 3; k++) {
                iv[picks[k]] = intValue(r, k);
            }
            byte[] maxOut = ints(-5, -5, -5);
            c.reduce(
                    BlockSpec.of(ints(iv), 0, 1, idx),
                    r == root ? BlockSpec.of(maxOut, 0, 3, Primitive.INT32) : null,
                    Reduction.MAX,
                    root);
            if (r == root) {
                for (int k = 0; k < 3; k++) {
                    int expected = Integer.MIN_VALUE;
                    for (int q = 0; q < p; q++) {
                        expected = Math.max(expected, intValue(q, k));
                    }
                    assertThat(toInts(maxOut)[k]).isEqualTo(expected);
                }
            }

            // scan and exscan (float64 sum over a strided vector), reduce_scatter_block (int32 sum)
            byte[] scan = doubles(filled(5, 0));
            c.scan(BlockSpec.of(doubles(sm), 0, 1, sendCol), BlockSpec.of(scan, 0, 5, F64), Reduction.SUM);
            byte[] ex = doubles(filled(5, -3));
            c.exscan(BlockSpec.of(doubles(sm), 0, 1, sendCol), BlockSpec.of(ex, 0, 5, F64), Reduction.SUM);
            for (int k = 0; k < 5; k++) {
                double prefix = sendValue(0, k);
                for (int q = 1; q <= r; q++) {
                    prefix += sendValue(q, k);
                }
                assertThat(toDoubles(scan)[k]).isEqualTo(prefix);
                double before = -3;
                if (r > 0) {
                    before = sendValue(0, k);
                    for (int q = 1; q < r; q++) {
                        before += sendValue(q, k);
                    }
                }
                assertThat(toDoubles(ex)[k]).isEqualTo(before);
            }
            int[] contrib = new int[2 * p];
            for (int k = 0; k < 2 * p; k++) {
                contrib[k] = r * 3 + k;
            }
            byte[] rs = new byte[8];
            c.reduceScatterBlock(
                    BlockSpec.of(ints(contrib), 0, 2L * p, Primitive.INT32),
                    BlockSpec.of(rs, 0, 2, Primitive.INT32),
                    Reduction.SUM);
            for (int k = 0; k < 2; k++) {
                int expected = 0;
                for (int q = 0; q < p; q++) {
                    expected += q * 3 + 2 * r + k;
                }
                assertThat(toInts(rs)[k]).isEqualTo(expected);
            }
            return null;
        });
    }

    static double sendValue(int rank, int k) {
        return rank * 0.25 + k * 1.5 - 3;
    }

    static int intValue(int rank, int k) {
        return (rank * 7919 + k * 13) % 101 - 50;
    }

    static double[] filled(int n, double v) {
        double[] a = new double[n];
        Arrays.fill(a, v);
        return a;
    }

    @Test
    void reductionsRefuseMixedOrUnsuitableSignatures() {
        Harness.run(2, comm -> {
            Collectives c = Collectives.on(comm);
            Datatype mixed =
                    Datatype.struct(new long[] {1, 1}, new long[] {0, 8}, List.of(Primitive.FLOAT64, Primitive.INT32));
            assertThatThrownBy(() -> c.allreduce(
                            BlockSpec.of(new byte[16], 0, 1, mixed),
                            BlockSpec.of(new byte[16], 0, 1, mixed),
                            Reduction.SUM))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("allreduce: send datatype ")
                    .hasMessageEndingWith(" (expected: a homogeneous primitive signature)");
            assertThatThrownBy(() -> c.reduce(
                            BlockSpec.of(new byte[8], 0, 1, F64),
                            BlockSpec.of(new byte[8], 0, 1, F64),
                            Reduction.BXOR,
                            0))
                    .hasMessage("reduce: send datatype float64 for BXOR (expected: integer or byte elements)");
            assertThatThrownBy(() -> c.allreduce(
                            BlockSpec.of(new byte[8], 0, 1, F64),
                            BlockSpec.of(new byte[8], 0, 2, Primitive.INT32),
                            Reduction.MAX))
                    .hasMessage("allreduce: recv primitive int32 (expected: float64 as send)");
            assertThatThrownBy(() -> c.allreduce(
                            BlockSpec.of(new byte[8], 0, 1, F64), BlockSpec.of(new byte[16], 0, 2, F64), Reduction.MAX))
                    .hasMessage("allreduce: recv length 16 (expected: send length 8)");
            if (comm.rank() == 0) {
                assertThatThrownBy(() -> c.gatherv(BlockSpec.of(new byte[8], 0, 1, F64), new Block[1], 0))
                        .hasMessage("gatherv: recv blocks 1 (expected: 2)");
            }
            assertThatThrownBy(() -> c.bcast((Block) null, 0)).hasMessage("bcast: buffer null (expected: a Block)");
            return null;
        });
    }

    @Test
    void reductionOperationsPerPrimitive() {
        byte[] acc = ints(5, -3, 7);
        Reduction.MIN.on(Primitive.INT32).combine(acc, ints(2, 4, -8));
        assertThat(toInts(acc)).containsExactly(2, -3, -8);
        byte[] u = ints(-1, 3); // 0xffffffff is the largest uint32
        Reduction.MAX.on(Primitive.UINT32).combine(u, ints(7, 2));
        assertThat(toInts(u)).containsExactly(-1, 3);
        byte[] b = {0x0f, 0x33};
        Reduction.BXOR.on(Primitive.BYTE).combine(b, new byte[] {(byte) 0xff, 0x01});
        assertThat(b).containsExactly((byte) 0xf0, 0x32);
        byte[] f = doubles(1.5, -2);
        Reduction.PROD.on(Primitive.FLOAT64).combine(f, doubles(2, 4));
        assertThat(toDoubles(f)).containsExactly(3.0, -8.0);
        assertThatThrownBy(() -> Reduction.SUM.on(Primitive.BYTE))
                .hasMessage(
                        "reduction: primitive byte for SUM (expected: a numeric primitive; byte takes BAND, BOR, BXOR)");
    }

    /** Neighbourhood meanings with datatypes on random multigraphs (repeated edges, self-loops). */
    @ParameterizedTest
    @CsvSource({"1, 1", "5, 2", "16, 4"})
    void datatypeFormsOnGraphsMatchTheModel(int p, long seed) {
        GraphCollectivesTest.Model model = new GraphCollectivesTest.Model(p, seed);
        int root = (int) (seed % p);
        Harness.run(p, world -> {
            int r = world.rank();
            Communicator g = world.createGraph(GraphBuilder.adjacent(model.in[r], model.out[r]));
            Collectives c = Collectives.on(g);
            int[] s = model.in[r];

            // allgather: column 2 of my 3x3 matrix becomes column k of a 3 x indegree matrix
            double[] mine = new double[9];
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    mine[i * 3 + j] = value(r, i, j);
                }
            }
            byte[] ag = doubles(new double[3 * s.length]);
            c.allgather(
                    BlockSpec.of(doubles(mine), 16, 1, Datatype.vector(3, 1, 3, F64)),
                    BlockSpec.of(ag, 0, s.length == 0 ? 0 : 1, column(3, Math.max(1, s.length))));
            double[] a = toDoubles(ag);
            for (int k = 0; k < s.length; k++) {
                for (int i = 0; i < 3; i++) {
                    assertThat(a[i * s.length + k]).isEqualTo(value(s[k], i, 2));
                }
            }

            // bcast of a subarray: receivers listing the root get it, others stay untouched
            Datatype corner = Datatype.subarray(new long[] {3, 3}, new long[] {2, 2}, new long[] {1, 1}, Order.C, F64);
            byte[] bb = doubles(r == root ? mine : filled(9, -1));
            c.bcast(BlockSpec.of(bb, 0, 1, corner), root);
            boolean hasRoot = Arrays.stream(s).anyMatch(q -> q == root);
            double[] bv = toDoubles(bb);
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    boolean inside = i >= 1 && j >= 1;
                    double expected = r == root || (hasRoot && inside) ? value(root, i, j) : -1;
                    assertThat(bv[i * 3 + j]).isEqualTo(expected);
                }
            }

            // int32 max over in-neighbours, untouched without any
            byte[] mx = ints(-99, -99);
            Datatype pair = Datatype.vector(2, 1, 2, Primitive.INT32);
            c.allreduce(
                    BlockSpec.of(ints(intValue(r, 0), 0, intValue(r, 1), 0), 0, 1, pair),
                    BlockSpec.of(mx, 0, 2, Primitive.INT32),
                    Reduction.MAX);
            for (int k = 0; k < 2; k++) {
                int kk = k;
                int expected = s.length == 0
                        ? -99
                        : Arrays.stream(s).map(q -> intValue(q, kk)).max().getAsInt();
                assertThat(toInts(mx)[k]).isEqualTo(expected);
            }
            return null;
        });
    }
}
