package dev.layout.collective;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Metric;
import dev.layout.naming.RankOrder;
import dev.layout.topology.DistGraph;
import dev.layout.transport.JobSecret;
import dev.layout.transport.TcpOptions;
import dev.layout.transport.TcpTransport;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Soak (issue 11): a 9-point heat (3x3 mean) iteration on a 2x2 grid of ranks (zero boundary), each rank
 * an {@code n x n} block with a one-cell halo, over a loopback {@link TcpTransport} (four ranks as
 * threads in this JVM), the halo filled by {@code alltoallw} with subarray datatypes every
 * iteration. Rank 0 samples heap after GC, open file descriptors ({@code /proc/self/fd}) and live
 * threads at ten points; after warm-up none may grow beyond a small bound. The final field must
 * equal a sequential run bit for bit. Iterations: {@code -Dlayout.soak.iterations} (default 10,000).
 */
@Tag("soak")
class TcpSoakIT {
    static final int ITERATIONS = Integer.getInteger("layout.soak.iterations", 10_000);
    static final int N = 6;
    static final int P = 2;
    static final long HEAP_SLACK = 4L << 20; // < 500 bytes per iteration over 8,000
    static final int FD_SLACK = 8;
    static final int THREAD_SLACK = 8;

    record Sample(int iteration, long heap, int fds, int threads) {}

    @Test
    void tenThousandHaloIterationsOverTcpDoNotGrowHeapDescriptorsOrThreads() throws Exception {
        CartesianNaming grid = CartesianNaming.of(new int[] {P, P}, new boolean[] {false, false}, RankOrder.C);
        List<TcpTransport> fabric = TcpTransport.loopbackFabric(
                P * P, JobSecret.random(), TcpOptions.defaults().withEagerThresholdBytes(4096));
        List<Sample> samples = new ArrayList<>();
        int every = Math.max(1, ITERATIONS / 10);
        long t0 = System.nanoTime();
        List<double[]> blocks = InProcessLauncher.runOn(fabric, Duration.ofSeconds(30), world -> {
            Communicator g = StencilCollectivesTest.stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
            int[] me = grid.coordinates(g.rank());
            int w = N + 2;
            Memory a = Memory.ofArray(new byte[8 * w * w]); // ghost cells stay 0: the zero boundary
            Memory b = Memory.ofArray(new byte[8 * w * w]);
            for (int i = 1; i <= N; i++) {
                for (int j = 1; j <= N; j++) {
                    a.putDouble(8L * (i * w + j), initial(me[0] * N + i - 1, me[1] * N + j - 1));
                }
            }
            DistGraph topo = (DistGraph) g.topology();
            Datatype[] sendT = new Datatype[topo.outdegree()];
            Datatype[] recvT = new Datatype[topo.indegree()];
            for (int i = 0; i < sendT.length; i++) {
                sendT[i] = StencilCollectivesTest.regionType(
                        N, grid.canonicalOffset(grid.relativeCoordinates(g.rank(), topo.destination(i))), false);
            }
            for (int k = 0; k < recvT.length; k++) {
                recvT[k] = StencilCollectivesTest.regionType(
                        N, grid.canonicalOffset(grid.relativeCoordinates(g.rank(), topo.source(k))), true);
            }
            Collectives coll = Collectives.on(g);
            for (int it = 0; it < ITERATIONS; it++) {
                Memory m = a;
                Block[] send = new Block[sendT.length];
                Block[] recv = new Block[recvT.length];
                for (int i = 0; i < send.length; i++) {
                    send[i] = new BlockSpec(m, 0, 1, sendT[i]);
                }
                for (int k = 0; k < recv.length; k++) {
                    recv[k] = new BlockSpec(m, 0, 1, recvT[k]);
                }
                coll.alltoallw(send, recv);
                step(a, b, N);
                Memory t = a;
                a = b;
                b = t;
                if (g.rank() == 0 && (it + 1) % every == 0) {
                    samples.add(sample(it + 1)); // the other ranks wait for rank 0 in the next exchange
                }
            }
            double[] interior = new double[N * N];
            for (int i = 0; i < N; i++) {
                for (int j = 0; j < N; j++) {
                    interior[i * N + j] = a.getDouble(8L * ((i + 1) * w + j + 1));
                }
            }
            return interior;
        });
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
        for (TcpTransport t : fabric) {
            t.close();
        }

        // the parallel field equals the sequential one, bit for bit
        double[][] seq = sequential(P * N, ITERATIONS);
        for (int r = 0; r < P * P; r++) {
            int[] c = grid.coordinates(r);
            for (int i = 0; i < N; i++) {
                for (int j = 0; j < N; j++) {
                    assertThat(blocks.get(r)[i * N + j])
                            .as("rank %d cell (%d,%d)", r, i, j)
                            .isEqualTo(seq[c[0] * N + i][c[1] * N + j]);
                }
            }
        }

        System.out.printf(
                "soak: %d iterations on %d ranks over TCP in %d ms; samples %s%n",
                ITERATIONS, P * P, elapsedMs, samples);
        assertThat(samples).hasSize(10);
        Sample base = samples.get(1); // after warm-up (class loading, JIT, pools)
        for (Sample s : samples.subList(2, samples.size())) {
            assertThat(s.heap())
                    .as("heap after GC at iteration %d vs %d", s.iteration(), base.iteration())
                    .isLessThanOrEqualTo(base.heap() + HEAP_SLACK);
            assertThat(s.fds())
                    .as("open file descriptors at iteration %d", s.iteration())
                    .isLessThanOrEqualTo(base.fds() + FD_SLACK);
            assertThat(s.threads())
                    .as("live threads at iteration %d", s.iteration())
                    .isLessThanOrEqualTo(base.threads() + THREAD_SLACK);
        }
        // and no steady climb: the second half of the run adds no more than a quarter of the slack
        assertThat(samples.get(9).heap())
                .as("heap growth over the second half")
                .isLessThanOrEqualTo(samples.get(5).heap() + HEAP_SLACK / 4);
    }

    static double initial(int gi, int gj) {
        return ((gi * 37 + gj * 11) % 17) * 1.5;
    }

    /** 3x3 mean of the (n+2)^2 matrix a into b's interior, summing in a fixed order. */
    static void step(Memory a, Memory b, int n) {
        int w = n + 2;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                double s = 0;
                for (int di = -1; di <= 1; di++) {
                    for (int dj = -1; dj <= 1; dj++) {
                        s += a.getDouble(8L * ((i + di) * w + j + dj));
                    }
                }
                b.putDouble(8L * (i * w + j), s / 9);
            }
        }
    }

    static double[][] sequential(int size, int iterations) {
        double[][] a = new double[size][size];
        double[][] b = new double[size][size];
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                a[i][j] = initial(i, j);
            }
        }
        for (int it = 0; it < iterations; it++) {
            for (int i = 0; i < size; i++) {
                for (int j = 0; j < size; j++) {
                    double s = 0;
                    for (int di = -1; di <= 1; di++) {
                        for (int dj = -1; dj <= 1; dj++) {
                            int x = i + di;
                            int y = j + dj;
                            s += x < 0 || y < 0 || x >= size || y >= size ? 0.0 : a[x][y];
                        }
                    }
                    b[i][j] = s / 9;
                }
            }
            double[][] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    static Sample sample(int iteration) {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        String[] fds = new File("/proc/self/fd").list();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        return new Sample(iteration, heap, fds == null ? -1 : fds.length, threads);
    }
}
