package dev.layout.collective;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.Communicator;
import dev.layout.memory.Memory;
import dev.layout.naming.CartesianNaming;
import dev.layout.naming.Metric;
import dev.layout.naming.RankOrder;
import dev.layout.topology.DistGraph;
import dev.layout.transport.Endpoint;
import dev.layout.transport.JobSecret;
import dev.layout.transport.TcpOptions;
import dev.layout.transport.TcpTransport;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * One process of {@link ClusterIT}: binds a loopback port, prints {@code ENDPOINT host:port}, reads
 * {@code RANK r ENDPOINTS e0,e1,...} on stdin, then runs a 9-point halo exchange and a few
 * collectives over {@link TcpTransport} and prints {@code OK r}. Exit 0 on success, 1 on failure.
 */
public final class ClusterChild {
    private ClusterChild() {}

    public static void main(String[] args) {
        try {
            JobSecret secret = JobSecret.fromBase64(System.getenv(JobSecret.ENV));
            TcpTransport.Listener l = TcpTransport.listen(new Endpoint("127.0.0.1", 0));
            System.out.println("ENDPOINT " + l.endpoint());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String[] line = in.readLine().trim().split(" ");
            int rank = Integer.parseInt(line[1]);
            List<Endpoint> eps =
                    Arrays.stream(line[3].split(",")).map(Endpoint::parse).toList();
            TcpOptions o = TcpOptions.defaults().withEagerThresholdBytes(256).withPeerBufferBytes(4096);
            try (TcpTransport t = l.open(rank, eps, secret, o);
                    Communicator world = Communicator.world(t, Duration.ofSeconds(30))) {
                halo(world, 32);
                collectives(world);
                System.out.println("OK " + rank);
            }
            System.exit(0);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    /**
     * The 9-point halo of a 2x2 grid (not periodic: on a periodic 2x2 grid opposite neighbours
     * coincide) of (n+2)^2 float64 blocks, subarray types both ways; cells off the grid stay -1.
     */
    static void halo(Communicator world, int n) {
        CartesianNaming grid = CartesianNaming.of(new int[] {2, 2}, new boolean[] {false, false}, RankOrder.C);
        Communicator g = StencilCollectivesTest.stencil(world, grid, Metric.CHEBYSHEV, 1, 1);
        int[] me = grid.coordinates(g.rank());
        Memory m = Memory.ofArray(new byte[(n + 2) * (n + 2) * 8]);
        for (int i = 0; i < n + 2; i++) {
            for (int j = 0; j < n + 2; j++) {
                boolean interior = i >= 1 && i <= n && j >= 1 && j <= n;
                m.putDouble(
                        8L * (i * (n + 2) + j),
                        interior ? StencilCollectivesTest.global(me[0] * n + i - 1, me[1] * n + j - 1) : -1);
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
                    StencilCollectivesTest.regionType(
                            n, grid.canonicalOffset(grid.relativeCoordinates(g.rank(), topo.destination(i))), false));
        }
        for (int k = 0; k < recv.length; k++) {
            recv[k] = new BlockSpec(
                    m,
                    0,
                    1,
                    StencilCollectivesTest.regionType(
                            n, grid.canonicalOffset(grid.relativeCoordinates(g.rank(), topo.source(k))), true));
        }
        Collectives.on(g).withPolicy(SchedulePolicy.DIRECT).alltoallw(send, recv);
        int rows = 2 * n;
        for (int i = 0; i < n + 2; i++) {
            for (int j = 0; j < n + 2; j++) {
                int gi = me[0] * n + i - 1;
                int gj = me[1] * n + j - 1;
                boolean off = gi < 0 || gi >= rows || gj < 0 || gj >= rows;
                assertThat(m.getDouble(8L * (i * (n + 2) + j)))
                        .as("rank %d cell (%d,%d)", g.rank(), i, j)
                        .isEqualTo(off ? -1 : StencilCollectivesTest.global(gi, gj));
            }
        }
    }

    static void collectives(Communicator comm) {
        Collectives c = Collectives.on(comm);
        int p = comm.size();
        int r = comm.rank();
        c.barrier();
        byte[] big = r == 0 ? Harness.pattern(0, 9, 1 << 20) : new byte[1 << 20];
        c.bcast(big, 0);
        assertThat(big).isEqualTo(Harness.pattern(0, 9, 1 << 20));
        byte[] sum = new byte[8];
        c.allreduce(Harness.longs(r + 1), sum, StandardOp.LONG_SUM);
        assertThat(Harness.toLongs(sum)).containsExactly((long) p * (p + 1) / 2);
        byte[] ag = new byte[1000 * p];
        c.allgather(Harness.pattern(r, 3, 1000), ag);
        for (int q = 0; q < p; q++) {
            assertThat(Arrays.copyOfRange(ag, 1000 * q, 1000 * q + 1000)).isEqualTo(Harness.pattern(q, 3, 1000));
        }
        byte[] send = new byte[300 * p];
        for (int q = 0; q < p; q++) {
            System.arraycopy(Harness.pattern(r, q, 300), 0, send, 300 * q, 300);
        }
        byte[] recv = new byte[300 * p];
        c.alltoall(send, recv, 300);
        for (int q = 0; q < p; q++) {
            assertThat(Arrays.copyOfRange(recv, 300 * q, 300 * q + 300)).isEqualTo(Harness.pattern(q, r, 300));
        }
        byte[] scan = new byte[8];
        c.scan(Harness.longs(r + 1), scan, StandardOp.LONG_SUM);
        assertThat(Harness.toLongs(scan)).containsExactly((long) (r + 1) * (r + 2) / 2);
        c.barrier();
    }
}
