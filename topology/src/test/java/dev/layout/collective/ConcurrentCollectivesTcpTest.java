package dev.layout.collective;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.transport.JobSecret;
import dev.layout.transport.TcpOptions;
import dev.layout.transport.TcpTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Concurrency (issue 11): many communicators and collectives in flight at once over the same
 * loopback {@link TcpTransport}. Each of 4 ranks splits its world into 8 communicators (two
 * colourings, so they overlap), then from 4 threads per rank starts non-blocking allreduce,
 * allgather, alltoall and bcast on every communicator, several rounds, all outstanding together,
 * with eager and rendezvous sizes; every result is checked. The {@code @Timeout} is a safety net.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConcurrentCollectivesTcpTest {
    static final int RANKS = 4;
    static final int COMMS = 8;
    static final int THREADS = 4;
    static final int ROUNDS = 6;
    static final Duration T = Duration.ofSeconds(30);

    @Test
    void manyCommunicatorsAndCollectivesInFlightAtOnceAllGiveTheRightResults() throws Exception {
        List<TcpTransport> fabric = TcpTransport.loopbackFabric(
                RANKS,
                JobSecret.random(),
                TcpOptions.defaults().withEagerThresholdBytes(1024).withPeerBufferBytes(64 << 10));
        try {
            List<Integer> checked = InProcessLauncher.runOn(fabric, T, world -> {
                List<Communicator> comms = new ArrayList<>();
                for (int c = 0; c < COMMS; c++) {
                    // even c: everyone (reversed order); odd c: pairs {0,1},{2,3} or {0,2},{1,3}
                    int color = c % 2 == 0 ? 0 : (c % 4 == 1 ? world.rank() / 2 : world.rank() % 2);
                    int key = c % 2 == 0 ? RANKS - world.rank() : world.rank();
                    comms.add(world.split(color, key).orElseThrow());
                }
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                try {
                    List<Future<Integer>> futures = new ArrayList<>();
                    for (int th = 0; th < THREADS; th++) {
                        int thread = th;
                        futures.add(pool.submit(() -> {
                            int n = 0;
                            // thread th drives communicators th, th+THREADS, ...: each communicator has one driver per
                            // rank
                            for (int round = 0; round < ROUNDS; round++) {
                                List<Runnable> checks = new ArrayList<>();
                                List<CompletableFuture<Void>> inFlight = new ArrayList<>();
                                for (int c = thread; c < COMMS; c += THREADS) {
                                    start(comms.get(c), c, round, inFlight, checks);
                                }
                                for (CompletableFuture<Void> f : inFlight) {
                                    PersistentCollective.await(f, T);
                                }
                                for (Runnable r : checks) {
                                    r.run();
                                    n++;
                                }
                            }
                            return n;
                        }));
                    }
                    int total = 0;
                    for (Future<Integer> f : futures) {
                        total += f.get(T.toSeconds() * 2, TimeUnit.SECONDS);
                    }
                    return total;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    pool.shutdownNow();
                }
            });
            assertThat(checked).containsOnly(COMMS * ROUNDS * 4);
        } finally {
            for (TcpTransport t : fabric) {
                t.close();
            }
        }
    }

    /** Starts four collectives on {@code g} at once and queues their checks. */
    private static void start(
            Communicator g, int c, int round, List<CompletableFuture<Void>> inFlight, List<Runnable> checks) {
        int size = g.size();
        int me = g.rank();
        Collectives coll = Collectives.on(g);
        long salt = 1000L * c + round;

        byte[] sum = new byte[8];
        inFlight.add(coll.nonBlocking().allreduce(Harness.longs(me + salt), sum, StandardOp.LONG_SUM));
        checks.add(() -> assertThat(Harness.toLongs(sum)).containsExactly(size * salt + (long) size * (size - 1) / 2));

        int block = (round % 2 == 0) ? 16 : 3000; // eager, then rendezvous sized blocks
        byte[] all = new byte[block * size];
        inFlight.add(coll.nonBlocking().allgather(Harness.pattern(me, c + round, block), all));
        checks.add(() -> {
            for (int r = 0; r < size; r++) {
                byte[] got = java.util.Arrays.copyOfRange(all, r * block, (r + 1) * block);
                assertThat(got)
                        .as("allgather block of rank %d on comm %d round %d", r, c, round)
                        .isEqualTo(Harness.pattern(r, c + round, block));
            }
        });

        byte[] send = new byte[8 * size];
        byte[] recv = new byte[8 * size];
        java.nio.ByteBuffer sb = java.nio.ByteBuffer.wrap(send).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < size; r++) {
            sb.putLong(8 * r, salt * 100 + me * 10L + r);
        }
        inFlight.add(coll.nonBlocking().alltoall(send, recv, 8));
        checks.add(() -> {
            long[] got = Harness.toLongs(recv);
            for (int r = 0; r < size; r++) {
                assertThat(got[r]).isEqualTo(salt * 100 + r * 10L + me);
            }
        });

        int root = (c + round) % size;
        byte[] buf = me == root ? Harness.pattern(root, 77 + c, 2048) : new byte[2048];
        inFlight.add(coll.nonBlocking().bcast(buf, root));
        checks.add(() -> assertThat(buf).isEqualTo(Harness.pattern(root, 77 + c, 2048)));
    }
}
