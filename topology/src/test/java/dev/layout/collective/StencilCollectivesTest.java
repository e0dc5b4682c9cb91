package dev.layout.collective;

import static dev.layout.collective.Harness.pattern;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.Communicator;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Metric;
import dev.layout.naming.Neighborhoods;
import dev.layout.naming.RankOrder;
import dev.layout.topology.DistGraph;
import dev.layout.topology.GraphBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StencilCollectivesTest {

    static Communicator stencil(Communicator world, CartesianNaming grid, Metric metric, int shadow, int depth) {
        int[] nb = Neighborhoods.on(grid).neighborRanks(world.rank(), metric, shadow, depth);
        return world.cartName(grid).createGraph(GraphBuilder.adjacent(nb, nb));
    }

    static Stream<Arguments> grids() {
        return Stream.of(
                Arguments.of(new int[] {4, 4}, new boolean[] {true, true}, Metric.CHEBYSHEV, 1, 1),
                Arguments.of(new int[] {3, 3, 3}, new boolean[] {true, true, true}, Metric.CHEBYSHEV, 1, 1),
                Arguments.of(new int[] {4, 3}, new boolean[] {false, false}, Metric.CHEBYSHEV, 1, 1),
                Arguments.of(new int[] {5, 4}, new boolean[] {false, true}, Metric.MANHATTAN, 1, 2),
                Arguments.of(new int[] {2, 3}, new boolean[] {true, true}, Metric.CHEBYSHEV, 0, 1));
    }

    /** Results per rank: [direct recv, combining recv, direct messages, combining messages]. */
    @ParameterizedTest
    @MethodSource("grids")
    void combiningGivesTheDirectResultWithFewerMessages(
            int[] sizes, boolean[] periods, Metric metric, int shadow, int depth) {
        CartesianNaming grid = CartesianNaming.of(sizes, periods, RankOrder.C);
        int block = 5;
        List<long[]> counts = Harness.run(grid.size(), world -> {
            Communicator g = stencil(world, grid, metric, shadow, depth);
            DistGraph topo = (DistGraph) g.topology();
            assertThat(topo.cartesianity().isCartesian()).isTrue();
            int r = g.rank();
            int t = topo.outdegree();
            byte[] send = new byte[block * t];
            for (int i = 0; i < t; i++) {
                System.arraycopy(pattern(r, i, block), 0, send, block * i, block);
            }
            byte[] direct = new byte[block * topo.indegree()];
            byte[] combined = new byte[block * topo.indegree()];
            long before = g.transport().sentMessages();
            Collectives.on(g).withPolicy(SchedulePolicy.DIRECT).alltoall(send, direct, block);
            long mid = g.transport().sentMessages();
            Collectives.on(g).withPolicy(SchedulePolicy.COMBINING).alltoall(send, combined, block);
            long after = g.transport().sentMessages();
            assertThat(combined).isEqualTo(direct);
            // direct against the model: slot k holds the block the source addressed to us
            int[] s = topo.sources();
            for (int k = 0; k < s.length; k++) {
                int[] ts = Neighborhoods.on(grid).neighborRanks(s[k], metric, shadow, depth);
                int occurrence = 0;
                for (int j = 0; j < k; j++) {
                    if (s[j] == s[k]) {
                        occurrence++;
                    }
                }
                int i = -1;
                for (int x = 0; x < ts.length; x++) {
                    if (ts[x] == r && occurrence-- == 0) {
                        i = x;
                        break;
                    }
                }
                assertThat(Arrays.copyOfRange(direct, block * k, block * k + block))
                        .isEqualTo(pattern(s[k], i, block));
            }
            return new long[] {mid - before, after - mid};
        });
        long directTotal = counts.stream().mapToLong(c -> c[0]).sum();
        long combinedTotal = counts.stream().mapToLong(c -> c[1]).sum();
        assertThat(combinedTotal).isLessThan(directTotal);
        for (long[] c : counts) {
            assertThat(c[1]).isLessThanOrEqualTo(c[0]);
        }
    }

    @Test
    void mooreNeighbourhoodDropsFromThreeToTheDMinusOneTo2dMessagesPerRank() {
        for (int d = 2; d <= 3; d++) {
            int[] sizes = new int[d];
            boolean[] periods = new boolean[d];
            Arrays.fill(sizes, 3);
            Arrays.fill(periods, true);
            CartesianNaming grid = CartesianNaming.of(sizes, periods, RankOrder.C);
            int dims = d;
            List<long[]> counts = Harness.run(grid.size(), world -> {
                Communicator g = stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
                byte[] send = new byte[8 * ((int) Math.pow(3, dims) - 1)];
                byte[] recv = new byte[send.length];
                long a = g.transport().sentMessages();
                Collectives.on(g).withPolicy(SchedulePolicy.DIRECT).alltoall(send, recv, 8);
                long b = g.transport().sentMessages();
                Collectives.on(g).withPolicy(SchedulePolicy.COMBINING).alltoall(send, recv, 8);
                long c = g.transport().sentMessages();
                return new long[] {b - a, c - b};
            });
            for (long[] c : counts) {
                assertThat(c[0]).isEqualTo((long) Math.pow(3, d) - 1);
                assertThat(c[1]).isEqualTo(2L * d);
            }
        }
    }

    /** A rectangle of a row-major double matrix: the row, column and corner "subarray types". */
    record Rect(double[] matrix, int width, int row, int rows, int col, int cols) implements Block {
        @Override
        public int byteSize() {
            return 8 * rows * cols;
        }

        @Override
        public byte[] pack() {
            double[] v = new double[rows * cols];
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    v[i * cols + j] = matrix[(row + i) * width + col + j];
                }
            }
            return Harness.doubles(v);
        }

        @Override
        public void unpack(byte[] data) {
            double[] v = Harness.toDoubles(data);
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    matrix[(row + i) * width + col + j] = v[i * cols + j];
                }
            }
        }
    }

    /** Interior edge toward offset v (send) or halo in direction v (receive) of an (n+2)^2 matrix. */
    static Rect region(double[] m, int n, int[] v, boolean halo) {
        int[] start = new int[2];
        int[] len = new int[2];
        for (int a = 0; a < 2; a++) {
            if (v[a] == 0) {
                start[a] = 1;
                len[a] = n;
            } else {
                start[a] = v[a] < 0 ? (halo ? 0 : 1) : (halo ? n + 1 : n);
                len[a] = 1;
            }
        }
        return new Rect(m, n + 2, start[0], len[0], start[1], len[1]);
    }

    static double global(int gi, int gj) {
        return gi * 1000 + gj;
    }

    /** A cell of a rank's (n+2)^2 matrix, halo included. */
    interface Cell {
        double at(int i, int j);
    }

    /**
     * Every cell of the rank's matrix, ghosts included, holds the sequential grid's value (periodic
     * dimensions wrap; ghosts beyond a non-periodic border keep -1).
     */
    static void assertHaloFilled(int rank, int n, int[] me, boolean[] periods, int rowsG, int colsG, Cell cell) {
        for (int i = 0; i < n + 2; i++) {
            for (int j = 0; j < n + 2; j++) {
                int gi = me[0] * n + i - 1;
                int gj = me[1] * n + j - 1;
                boolean off = false;
                if (gi < 0 || gi >= rowsG) {
                    off |= !periods[0];
                    gi = Math.floorMod(gi, rowsG);
                }
                if (gj < 0 || gj >= colsG) {
                    off |= !periods[1];
                    gj = Math.floorMod(gj, colsG);
                }
                double expected = off ? -1 : global(gi, gj);
                assertThat(cell.at(i, j)).as("rank %d cell (%d,%d)", rank, i, j).isEqualTo(expected);
            }
        }
    }

    static Stream<Arguments> haloCases() {
        return Stream.of(
                Arguments.of(new boolean[] {true, true}, SchedulePolicy.DIRECT),
                Arguments.of(new boolean[] {true, true}, SchedulePolicy.COMBINING),
                Arguments.of(new boolean[] {false, false}, SchedulePolicy.COMBINING),
                Arguments.of(new boolean[] {true, false}, SchedulePolicy.AUTO));
    }

    /** The 9-point stencil of Figure 1: alltoallw with row, column and corner blocks of the halo matrix. */
    @ParameterizedTest
    @MethodSource("haloCases")
    void haloExchangeFillsEveryGhostCellFromTheSequentialGrid(boolean[] periods, SchedulePolicy policy) {
        int n = 3;
        CartesianNaming grid = CartesianNaming.of(new int[] {4, 4}, periods, RankOrder.C);
        int rowsG = 4 * n;
        int colsG = 4 * n;
        Harness.run(16, world -> {
            Communicator g = stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
            int[] me = grid.coordinates(g.rank());
            double[] m = new double[(n + 2) * (n + 2)];
            Arrays.fill(m, -1);
            for (int i = 1; i <= n; i++) {
                for (int j = 1; j <= n; j++) {
                    m[i * (n + 2) + j] = global(me[0] * n + i - 1, me[1] * n + j - 1);
                }
            }
            DistGraph topo = (DistGraph) g.topology();
            Block[] send = new Block[topo.outdegree()];
            Block[] recv = new Block[topo.indegree()];
            // relativeCoordinates gives the plain difference; reduce it on periodic dimensions
            for (int i = 0; i < send.length; i++) {
                send[i] = region(
                        m, n, grid.canonicalOffset(grid.relativeCoordinates(g.rank(), topo.destination(i))), false);
            }
            for (int k = 0; k < recv.length; k++) {
                recv[k] = region(m, n, grid.canonicalOffset(grid.relativeCoordinates(g.rank(), topo.source(k))), true);
            }
            Collectives.on(g).withPolicy(policy).alltoallw(send, recv);
            assertHaloFilled(g.rank(), n, me, periods, rowsG, colsG, (i, j) -> m[i * (n + 2) + j]);
            return null;
        });
    }

    /** The halo block toward offset v as a subarray datatype of the (n+2)^2 float64 matrix. */
    static Datatype regionType(int n, int[] v, boolean halo) {
        long[] start = new long[2];
        long[] len = new long[2];
        for (int a = 0; a < 2; a++) {
            if (v[a] == 0) {
                start[a] = 1;
                len[a] = n;
            } else {
                start[a] = v[a] < 0 ? (halo ? 0 : 1) : (halo ? n + 1 : n);
                len[a] = 1;
            }
        }
        return Datatype.subarray(new long[] {n + 2, n + 2}, len, start, Order.C, Primitive.FLOAT64);
    }

    /** The same 9-point halo exchange with datatype blocks: the engine packs and unpacks in place. */
    @ParameterizedTest
    @MethodSource("haloCases")
    void haloExchangeWithSubarrayDatatypesFillsEveryGhostCell(boolean[] periods, SchedulePolicy policy) {
        int n = 4;
        CartesianNaming grid = CartesianNaming.of(new int[] {4, 4}, periods, RankOrder.C);
        int rowsG = 4 * n;
        int colsG = 4 * n;
        Harness.run(16, world -> {
            Communicator g = stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
            int[] me = grid.coordinates(g.rank());
            Memory m = Memory.ofArray(new byte[(n + 2) * (n + 2) * 8]);
            for (int i = 0; i < n + 2; i++) {
                for (int j = 0; j < n + 2; j++) {
                    boolean interior = i >= 1 && i <= n && j >= 1 && j <= n;
                    m.putDouble(8L * (i * (n + 2) + j), interior ? global(me[0] * n + i - 1, me[1] * n + j - 1) : -1);
                }
            }
            DistGraph topo = (DistGraph) g.topology();
            Block[] send = new Block[topo.outdegree()];
            Block[] recv = new Block[topo.indegree()];
            for (int i = 0; i < send.length; i++) {
                send[i] = new BlockSpec(
                        m,
                        0,
                        1,
                        regionType(
                                n,
                                grid.canonicalOffset(grid.relativeCoordinates(g.rank(), topo.destination(i))),
                                false));
            }
            for (int k = 0; k < recv.length; k++) {
                recv[k] = new BlockSpec(
                        m,
                        0,
                        1,
                        regionType(n, grid.canonicalOffset(grid.relativeCoordinates(g.rank(), topo.source(k))), true));
            }
            Collectives.on(g).withPolicy(policy).alltoallw(send, recv);
            assertHaloFilled(g.rank(), n, me, periods, rowsG, colsG, (i, j) -> m.getDouble(8L * (i * (n + 2) + j)));
            return null;
        });
    }

    /** Conway's Game of Life with the sparse allreduce of Listing 7, one cell per rank. */
    @ParameterizedTest
    @MethodSource("lifeBoards")
    void gameOfLifeMatchesASequentialRunFor100Generations(int rows, int cols, boolean periodic, long seed) {
        int generations = 100;
        CartesianNaming grid =
                CartesianNaming.of(new int[] {rows, cols}, new boolean[] {periodic, periodic}, RankOrder.C);
        java.util.Random random = new java.util.Random(seed);
        boolean[] initial = new boolean[rows * cols];
        for (int i = 0; i < initial.length; i++) {
            initial[i] = random.nextInt(3) == 0;
        }
        // sequential reference
        boolean[][] history = new boolean[generations + 1][];
        history[0] = initial.clone();
        for (int gen = 1; gen <= generations; gen++) {
            boolean[] prev = history[gen - 1];
            boolean[] next = new boolean[prev.length];
            for (int r = 0; r < prev.length; r++) {
                int live = 0;
                for (int q : Neighborhoods.on(grid).neighborRanks(r, Metric.CHEBYSHEV, 1, 1)) {
                    live += prev[q] ? 1 : 0;
                }
                next[r] = live == 3 || (live == 2 && prev[r]);
            }
            history[gen] = next;
        }
        List<boolean[]> runs = Harness.run(grid.size(), world -> {
            Communicator g = stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
            Collectives coll = Collectives.on(g);
            boolean[] mine = new boolean[generations + 1];
            int state = initial[world.rank()] ? 1 : 0;
            mine[0] = state == 1;
            byte[] live = new byte[4];
            for (int gen = 1; gen <= generations; gen++) {
                coll.allreduce(Harness.ints(state), live, StandardOp.INT_SUM);
                int count = Harness.toInts(live)[0];
                if (count < 2 || count > 3) {
                    state = 0;
                } else if (count == 3) {
                    state = 1;
                }
                mine[gen] = state == 1;
            }
            return mine;
        });
        for (int gen = 0; gen <= generations; gen++) {
            for (int r = 0; r < grid.size(); r++) {
                assertThat(runs.get(r)[gen]).as("generation %d cell %d", gen, r).isEqualTo(history[gen][r]);
            }
        }
    }

    static Stream<Arguments> lifeBoards() {
        return Stream.of(Arguments.of(5, 5, false, 1L), Arguments.of(6, 6, true, 2L));
    }

    @Test
    void persistentAlltoallComputesItsScheduleOnceAndRunsManyTimes() {
        CartesianNaming grid = CartesianNaming.of(new int[] {4, 4}, new boolean[] {true, true}, RankOrder.C);
        Harness.run(16, world -> {
            Communicator g = stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
            byte[] send = new byte[8];
            byte[] recv = new byte[8];
            PersistentCollective p = Collectives.on(g)
                    .withPolicy(SchedulePolicy.COMBINING)
                    .persistent()
                    .alltoall(send, recv, 1);
            assertThat(p.schedule().kind()).isEqualTo(Schedule.Kind.COMBINING);
            assertThat(p.schedule().messagesPerCall()).isEqualTo(4);
            DistGraph topo = (DistGraph) g.topology();
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 8; i++) {
                    send[i] = (byte) (g.rank() * 8 + i + round);
                }
                if (round % 2 == 0) {
                    p.run();
                } else {
                    PersistentCollective.await(p.start(), Harness.TIMEOUT);
                }
                for (int k = 0; k < 8; k++) {
                    int q = topo.source(k);
                    // in = out lists of a symmetric stencil: q addressed us at its index of the offset -v
                    int[] v = grid.canonicalOffset(grid.relativeCoordinates(g.rank(), q));
                    int[] minus = grid.canonicalOffset(new int[] {-v[0], -v[1]});
                    int i = indexOf(Neighborhoods.offsets(2, Metric.CHEBYSHEV, 1, 1), minus);
                    assertThat(recv[k]).isEqualTo((byte) (q * 8 + i + round));
                }
            }
            return null;
        });
    }

    static int indexOf(List<int[]> offsets, int[] v) {
        for (int i = 0; i < offsets.size(); i++) {
            if (Arrays.equals(offsets.get(i), v)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void nonBlockingGraphAllreduceOverlapsABaseBarrier() {
        CartesianNaming grid = CartesianNaming.of(new int[] {3, 3}, new boolean[] {false, false}, RankOrder.C);
        Harness.run(9, world -> {
            Communicator g = stencil(world, grid, Metric.MANHATTAN, 1, 1);
            byte[] recv = new byte[8];
            CompletableFuture<Void> f =
                    Collectives.on(g).nonBlocking().allreduce(Harness.longs(g.rank()), recv, StandardOp.LONG_MAX);
            Collectives.on(g.base()).barrier();
            PersistentCollective.await(f, Harness.TIMEOUT);
            long expected = Arrays.stream(Neighborhoods.on(grid).neighborRanks(g.rank(), Metric.MANHATTAN, 1, 1))
                    .max()
                    .orElseThrow();
            assertThat(Harness.toLongs(recv)).containsExactly(expected);
            return null;
        });
    }

    @Test
    void costModelPrefersCombiningForSmallBlocksAndDirectForLargeOnes() {
        CartesianNaming grid = CartesianNaming.of(new int[] {3, 3}, new boolean[] {true, true}, RankOrder.C);
        Harness.run(9, world -> {
            Communicator g = stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
            DistGraph topo = (DistGraph) g.topology();
            // 8 neighbours, 4 messages, 12 forwarded blocks: combining wins below latency/perByte = 2000 bytes
            assertThat(ScheduleSelector.DEFAULT.choose(topo, 8)).isEqualTo(Schedule.Kind.COMBINING);
            assertThat(ScheduleSelector.DEFAULT.choose(topo, 1_000_000)).isEqualTo(Schedule.Kind.DIRECT);
            assertThat(Collectives.on(g).schedule(8).kind()).isEqualTo(Schedule.Kind.COMBINING);
            Communicator plain = world.createGraph(GraphBuilder.adjacent(topo.sources(), topo.destinations()));
            assertThat(ScheduleSelector.DEFAULT.choose((DistGraph) plain.topology(), 8))
                    .isEqualTo(Schedule.Kind.DIRECT);
            assertThatThrownBy(() -> Collectives.on(plain)
                            .withPolicy(SchedulePolicy.COMBINING)
                            .schedule(8))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("combining: neighbourhood general (expected: a Cartesian neighbourhood");
            return null;
        });
    }
}
