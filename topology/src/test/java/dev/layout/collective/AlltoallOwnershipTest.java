package dev.layout.collective;

import static dev.layout.collective.Harness.pattern;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.comm.InProcessLauncher;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * alltoallw hands its packed blocks over to the transport without a copy; that must not be
 * observable: a rank that changes its send buffers as soon as the call returns does not change
 * what a slower peer unpacks afterwards.
 */
class AlltoallOwnershipTest {

    @Test
    void changingTheSendBuffersAfterTheCallDoesNotChangeWhatAPeerUnpacksLater() {
        int p = 3;
        CountDownLatch changed = new CountDownLatch(1);
        Datatype everyOther = Datatype.vector(4, 1, 2, Primitive.BYTE);
        InProcessLauncher.run(p, Harness.TIMEOUT, comm -> {
            Collectives c = Collectives.on(comm);
            int r = comm.rank();
            byte[] contiguous = pattern(r, 1, 4);
            byte[] strided = new byte[8];
            for (int i = 0; i < 4; i++) {
                strided[2 * i] = pattern(r, 2, 4)[i];
            }
            Block[] send = new Block[p];
            Block[] recv = new Block[p];
            byte[][] got = new byte[p][4];
            for (int q = 0; q < p; q++) {
                // to rank 1 a typed block, to the others a contiguous one
                send[q] = q == 1 ? BlockSpec.of(strided, 0, 1, everyOther) : ByteBlock.of(contiguous);
                Block into = ByteBlock.of(got[q]);
                // rank 2 unpacks what rank 0 sent only after rank 0 has overwritten its send buffers
                recv[q] = r == 2 && q == 0 ? new AwaitingBlock(into, changed) : into;
            }
            c.alltoallw(send, recv);
            if (r == 0) {
                Arrays.fill(contiguous, (byte) -1);
                Arrays.fill(strided, (byte) -1);
                changed.countDown();
            }
            for (int q = 0; q < p; q++) {
                assertThat(got[q]).as("rank %d from rank %d", r, q).isEqualTo(pattern(q, r == 1 ? 2 : 1, 4));
            }
            return null;
        });
    }

    /** Unpacks into {@code target} once {@code gate} opens. */
    private record AwaitingBlock(Block target, CountDownLatch gate) implements Block {
        @Override
        public int byteSize() {
            return target.byteSize();
        }

        @Override
        public byte[] pack() {
            return target.pack();
        }

        @Override
        public void unpack(byte[] data) {
            try {
                assertThat(gate.await(20, TimeUnit.SECONDS))
                        .as("rank 0 changed its buffers")
                        .isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            target.unpack(data);
        }
    }
}
