package dev.layout.collective;

import static dev.layout.collective.Harness.pattern;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.Communicator;
import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import dev.layout.transport.InProcessTransport;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sender whose engine pass throws while it copies into a receive a peer posted fails its own
 * call and that peer's, and no other: the peer learns the failure at once instead of waiting for
 * the communicator's timeout, and the sender still sends its other peers their blocks (each waits
 * for its own). The pass here fails because rank 1 posted its receive over read-only memory; over
 * TCP, where the sender packs its block into one message, because the block does not fit the heap.
 */
class AlltoallCopyFaultTest {
    private static final int SIZE = 4096;

    @Test
    void inProcessTheReceiverLearnsOfTheSendersFailedCopyAndTheOtherPeerGetsItsBlock() {
        List<String> out =
                InProcessLauncher.runOn(InProcessTransport.create(3), Harness.TIMEOUT, AlltoallCopyFaultTest::exchange);
        assertThat(out.get(0)).isEqualTo("java.nio.ReadOnlyBufferException at rank 0");
        assertThat(out.get(1))
                .startsWith("alltoallw: rank 1 waiting for rank 0: postReceive: copying from process 0 into the "
                        + "receive process 1 posted (context ")
                .endsWith("failed: java.nio.ReadOnlyBufferException");
        assertThat(out.get(2)).isEqualTo("received");
    }

    /** Over the packing path (a network transport's) rank 1 unpacks the message itself and fails alone. */
    @Test
    void packedOnlyTheReceiverWithTheReadOnlyMemoryFails() {
        List<String> out = InProcessLauncher.runOn(
                dev.layout.transport.PackingTransport.inProcess(3), Harness.TIMEOUT, AlltoallCopyFaultTest::exchange);
        assertThat(out.get(0)).isEqualTo("completed");
        assertThat(out.get(1)).isEqualTo("java.nio.ReadOnlyBufferException at rank 1");
        assertThat(out.get(2)).isEqualTo("received");
    }

    /**
     * Over TCP (real sockets; {@code Transport}'s default {@code sendToPosted}: pack, send, unpack)
     * rank 0's block for rank 1 cannot be packed: it is 2 GiB of packed bytes (one byte repeated,
     * extent 0), which as one array cannot fit the test JVM's heap of at most 2 GiB. Rank 0 sends
     * rank 1 an empty message instead, so rank 1 fails at once naming rank 0 (before, nothing was
     * sent and rank 1 waited for the communicator's timeout, 20 s, then failed with a timeout); rank
     * 0 reports its own failure, and rank 2 still gets its block.
     */
    @Test
    void overTcpABlockThatCannotBePackedFailsItsReceiverAtOnceNamingTheSender() {
        assertThat(Runtime.getRuntime().maxMemory())
                .as(
                        "the packed block (with its array header, more than 2 GiB) must not fit the heap: surefire's -Xmx2g")
                .isLessThanOrEqualTo(1L << 31);
        List<String> out = InProcessLauncher.runOn(Harness.tcp(3), Harness.TIMEOUT, AlltoallCopyFaultTest::unpackable);
        assertThat(out.get(0))
                .startsWith("alltoallw: rank 0 sending to rank 1: sendToPosted: packing the region for process 1 "
                        + "failed: java.lang.OutOfMemoryError");
        assertThat(out.get(1))
                .isEqualTo("alltoallw: block 0 from rank 0 has 0 bytes (expected: " + HUGE
                        + " at rank 1; rank 0 sent an empty block: it failed, or the sizes disagree)");
        assertThat(out.get(2)).isEqualTo("received");
    }

    /** Packed bytes of the block that cannot be packed: an array of them (and its header) never fits a heap of 2 GiB. */
    private static final int HUGE = Integer.MAX_VALUE - 8;

    /** Rank 0 sends rank 1 {@link #HUGE} packed bytes (one byte, extent 0) and rank 2 an ordinary block. */
    private static String unpackable(Communicator comm) {
        int r = comm.rank();
        Block[] send = new Block[3];
        Block[] recv = new Block[3];
        Arrays.fill(send, ByteBlock.of(new byte[0]));
        Arrays.fill(recv, ByteBlock.of(new byte[0]));
        Datatype repeated = Datatype.resized(0, 0, Primitive.BYTE); // every element at byte 0
        byte[] got = new byte[SIZE];
        if (r == 0) {
            send[1] = BlockSpec.of(new byte[1], 0, HUGE, repeated);
            send[2] = BlockSpec.of(pattern(0, 2, SIZE), 0, SIZE, Primitive.BYTE);
        } else if (r == 1) {
            recv[0] = BlockSpec.of(new byte[1], 0, HUGE, repeated);
        } else {
            recv[0] = BlockSpec.of(got, 0, SIZE, Primitive.BYTE);
        }
        try {
            Collectives.on(comm).alltoallw(send, recv);
        } catch (RuntimeException e) {
            return e.getMessage();
        }
        return r == 2 && Arrays.equals(got, pattern(0, 2, SIZE)) ? "received" : "completed";
    }

    /**
     * Rank 0 sends rank 1 and rank 2 a block each; rank 1 receives into read-only memory. Returns
     * each rank's outcome: its failure's message, or what it received.
     */
    private static String exchange(Communicator comm) {
        int r = comm.rank();
        Block[] send = new Block[3];
        Block[] recv = new Block[3];
        Arrays.fill(send, ByteBlock.of(new byte[0]));
        Arrays.fill(recv, ByteBlock.of(new byte[0]));
        byte[] got = new byte[SIZE];
        if (r == 0) {
            send[1] = BlockSpec.of(pattern(0, 1, SIZE), 0, SIZE, Primitive.BYTE);
            send[2] = BlockSpec.of(pattern(0, 2, SIZE), 0, SIZE, Primitive.BYTE);
        } else if (r == 1) {
            Memory readOnly = Memory.ofBuffer(ByteBuffer.wrap(got).asReadOnlyBuffer());
            recv[0] = new BlockSpec(readOnly, 0, SIZE, Primitive.BYTE);
        } else {
            recv[0] = BlockSpec.of(got, 0, SIZE, Primitive.BYTE);
        }
        try {
            Collectives.on(comm).alltoallw(send, recv);
        } catch (RuntimeException e) {
            return e.getMessage() != null ? e.getMessage() : e.getClass().getName() + " at rank " + r;
        }
        if (r == 2) {
            return Arrays.equals(got, pattern(0, 2, SIZE)) ? "received" : "other bytes";
        }
        return "completed";
    }
}
