package dev.layout.collective;

import static dev.layout.collective.Harness.pattern;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.transport.InProcessTransport;
import dev.layout.transport.PackingTransport;
import dev.layout.transport.Transport;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * alltoallw between ranks of one JVM takes the receiver-posted single-copy path ({@link
 * Transport#postReceive}); it must keep alltoallw's semantics, the same as the pack, send and
 * unpack a network transport runs.
 */
class AlltoallSingleCopyTest {
    private static final int P = 3;

    /** Rank r sends to rank q the bytes pattern(r, q, q + 2) (rank 1 gets nothing from rank 2), through strided types. */
    private static byte[][] exchange(Communicator comm) {
        Collectives c = Collectives.on(comm);
        int r = comm.rank();
        Block[] send = new Block[P];
        Block[] recv = new Block[P];
        byte[][] got = new byte[P][];
        for (int q = 0; q < P; q++) {
            int out = length(r, q);
            byte[] strided = new byte[2 * Math.max(out, 1)];
            byte[] data = pattern(r, q, out);
            for (int i = 0; i < out; i++) {
                strided[2 * i] = data[i];
            }
            send[q] = BlockSpec.of(strided, 0, 1, Datatype.vector(out, 1, 2, Primitive.BYTE));
            int in = length(q, r);
            got[q] = new byte[3 * Math.max(in, 1)];
            recv[q] = q == 1
                    ? ByteBlock.of(got[q] = new byte[in])
                    : BlockSpec.of(got[q], 1, 1, Datatype.vector(in, 1, 3, Primitive.BYTE));
        }
        c.alltoallw(send, recv);
        byte[][] packed = new byte[P][];
        for (int q = 0; q < P; q++) {
            packed[q] = recv[q].pack();
        }
        return packed;
    }

    private static int length(int from, int to) {
        return from == 2 && to == 1 ? 0 : to + 2;
    }

    @Test
    void typedBlocksArriveAsTheyWereSentAndAsThePackedPathDeliversThem() {
        List<byte[][]> single = InProcessLauncher.run(P, Harness.TIMEOUT, AlltoallSingleCopyTest::exchange);
        List<byte[][]> packed = InProcessLauncher.runOn(
                PackingTransport.inProcess(P), Harness.TIMEOUT, AlltoallSingleCopyTest::exchange);
        for (int r = 0; r < P; r++) {
            for (int q = 0; q < P; q++) {
                assertThat(single.get(r)[q]).as("rank %d from rank %d", r, q).isEqualTo(pattern(q, r, length(q, r)));
                assertThat(packed.get(r)[q])
                        .as("packed: rank %d from rank %d", r, q)
                        .isEqualTo(single.get(r)[q]);
            }
        }
    }

    /** Messages of a whole run of {@code body} on 4 ranks of a fresh in-process fabric. */
    private static long messages(java.util.function.Function<Communicator, Object> body) {
        List<InProcessTransport> fabric = InProcessTransport.create(4);
        InProcessLauncher.runOn(fabric, Harness.TIMEOUT, body);
        return fabric.get(0).fabricMessages();
    }

    /** 10 alltoallw calls in which rank r sends {@code bytes} bytes to rank r + 1 only, and nothing else. */
    private static Object ring(Communicator comm, int bytes) {
        int n = comm.size();
        int r = comm.rank();
        for (int k = 0; k < 10; k++) {
            Block[] send = new Block[n];
            Block[] recv = new Block[n];
            for (int q = 0; q < n; q++) {
                send[q] = ByteBlock.of(q == (r + 1) % n ? pattern(r, k, bytes) : new byte[0]);
                recv[q] = ByteBlock.of(new byte[q == (r + n - 1) % n ? bytes : 0]);
            }
            Collectives.on(comm).alltoallw(send, recv);
            assertThat(((ByteBlock) recv[(r + n - 1) % n]).buffer()).isEqualTo(pattern((r + n - 1) % n, k, bytes));
        }
        return null;
    }

    @Test
    void blocksOfZeroBytesAreNoMessages() {
        long none = messages(comm -> null);
        assertThat(messages(comm -> ring(comm, 0))).as("all blocks empty").isEqualTo(none);
        assertThat(messages(comm -> ring(comm, 5)))
                .as("one block of 5 bytes per rank and call")
                .isEqualTo(none + 4 * 10);
    }

    @Test
    void aBlockOfAnotherSizeThanExpectedFailsTheReceiverNamingBothSizes() {
        assertThatThrownBy(() -> InProcessLauncher.run(2, Harness.TIMEOUT, comm -> {
                    Collectives c = Collectives.on(comm);
                    int r = comm.rank();
                    // rank 1 sends 3 bytes to rank 0, which expects 4; every other block is 2 bytes
                    Block[] send = {ByteBlock.of(new byte[r == 1 ? 3 : 2]), ByteBlock.of(new byte[2])};
                    Block[] recv = {ByteBlock.of(new byte[2]), ByteBlock.of(new byte[r == 0 ? 4 : 2])};
                    c.alltoallw(send, recv);
                    return null;
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("alltoallw: block 1 from rank 1 has 3 bytes (expected: 4 at rank 0)");
    }

    @Test
    void aPeerThatNeverEntersTimesTheSenderOutWithAClearMessage() {
        CountDownLatch failed = new CountDownLatch(1);
        List<String> out = InProcessLauncher.run(2, Duration.ofMillis(300), comm -> {
            if (comm.rank() == 1) {
                awaitLatch(failed);
                return "";
            }
            try {
                Collectives.on(comm)
                        .alltoallw(
                                new Block[] {ByteBlock.of(new byte[1]), ByteBlock.of(new byte[1])},
                                new Block[] {ByteBlock.of(new byte[1]), ByteBlock.of(new byte[1])});
                return "completed";
            } catch (RuntimeException e) {
                return e.getMessage();
            } finally {
                failed.countDown();
            }
        });
        assertThat(out.get(0))
                .startsWith(
                        "alltoallw: rank 0 sending to rank 1: sendToPosted: process 1 posted no receive for process 0")
                .endsWith("within PT0.3S");
    }

    @Test
    void interleavedNonBlockingCallsOnOneCommunicatorDoNotCrossMatch() {
        List<byte[][]> out = InProcessLauncher.run(P, Harness.TIMEOUT, comm -> {
            Collectives c = Collectives.on(comm);
            int r = comm.rank();
            byte[][] got = new byte[2 * P][8];
            Block[][] send = new Block[2][P];
            Block[][] recv = new Block[2][P];
            for (int k = 0; k < 2; k++) {
                for (int q = 0; q < P; q++) {
                    send[k][q] = ByteBlock.of(pattern(r, 10 * k + q, 8));
                    recv[k][q] = ByteBlock.of(got[k * P + q]);
                }
            }
            CompletableFuture<Void> first = c.nonBlocking().alltoallw(send[0], recv[0]);
            CompletableFuture<Void> second = c.nonBlocking().alltoallw(send[1], recv[1]);
            CompletableFuture.allOf(first, second)
                    .orTimeout(20, TimeUnit.SECONDS)
                    .join();
            return got;
        });
        for (int r = 0; r < P; r++) {
            for (int k = 0; k < 2; k++) {
                for (int q = 0; q < P; q++) {
                    assertThat(out.get(r)[k * P + q])
                            .as("call %d, rank %d from %d", k, r, q)
                            .isEqualTo(pattern(q, 10 * k + r, 8));
                }
            }
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
