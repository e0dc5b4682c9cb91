package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.dataloop.ThreadSegments;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a repeated typed send allocates on the sending thread, through the public API over real
 * loopback sockets, measured with the thread's allocation counter: the segment of the datatype
 * engine (some 3 KB with its kernels) is one of the thread's, re-aimed ({@link ThreadSegments}).
 * The {@code @Timeout} is a safety net only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TypedSendAllocationTest {
    static final Duration T = Duration.ofSeconds(20);

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

    private static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /** Bytes allocated by the sending thread per send, over the last half of n sends of the strategy. */
    static double perSend(SendStrategy strategy, Memory data, int n) throws Exception {
        Datatype rows = Datatype.vector(16, 16, 32, Primitive.FLOAT32); // 16 blocks of 64 B, 1 KiB: eager
        List<TcpTransport> f = TcpTransport.loopbackFabric(2, JobSecret.random(), TcpOptions.defaults());
        ExecutorService echo = Executors.newSingleThreadExecutor();
        try (TcpTransport t0 = f.get(0);
                TcpTransport t1 = f.get(1)) {
            Future<?> peer = echo.submit(() -> {
                Memory in = Memory.ofArray(new byte[1024]);
                for (int i = 0; i < n; i++) {
                    t1.receiveTyped(0, 0L, i, Primitive.BYTE, 1024, in, 0, T);
                    t1.send(0, 0L, i, new byte[1]); // the sender goes on once this send is received
                }
                return null;
            });
            long inSends = 0;
            for (int i = 0; i < n; i++) {
                long before = allocated();
                t0.sendTyped(1, 0L, i, rows, 1, data, 0, strategy);
                long after = allocated();
                if (i >= n / 2) {
                    inSends += after - before;
                }
                t0.receive(1, 0L, i, T);
            }
            peer.get(20, TimeUnit.SECONDS);
            return (double) inSends / (n - n / 2);
        } finally {
            echo.shutdownNow();
        }
    }

    @Test
    void aRepeatedTypedSendAllocatesAlmostNothing() throws Exception {
        Memory heap = Memory.ofArray(new byte[4096]);
        Memory direct = Memory.ofBuffer(ByteBuffer.allocateDirect(4096));
        // packing: nothing (a new segment per send was some 3 KB; its stall timer and staging memory 180 B more)
        assertThat(perSend(SendStrategy.PACK, heap, 4000))
                .as("heap, bytes per send")
                .isLessThan(8);
        assertThat(perSend(SendStrategy.PACK, direct, 4000)).as("direct").isLessThan(8);
        // gathering: nothing either (a buffer per block and the flattened block list were some 2 KB
        // a send of 16 blocks): the thread's views of the memory and the type's blocks are kept
        assertThat(perSend(SendStrategy.GATHER, heap, 4000)).as("heap, gather").isLessThan(8);
        assertThat(perSend(SendStrategy.GATHER, direct, 4000))
                .as("direct, gather")
                .isLessThan(8);
        // adaptive: as packing and gathering, the policy's look-ups included
        assertThat(perSend(SendStrategy.ADAPTIVE, heap, 4000))
                .as("heap, adaptive")
                .isLessThan(8);
        assertThat(perSend(SendStrategy.ADAPTIVE, direct, 4000))
                .as("direct, adaptive")
                .isLessThan(8);
    }

    @Test
    void aCompletionReportAllocatesNothing() {
        // a sampled send's report, asked for, recorded by the sender and completed by the reader, in
        // both orders: fixed slots (a map of boxed ids made an entry, a key and a box per report)
        CompletionReports reports = new CompletionReports();
        long[] last = new long[1];
        java.util.function.LongConsumer listener = nanos -> last[0] = nanos;
        long before = 0;
        int refused = 0;
        for (int id = 1; id <= 40_000; id++) {
            if (id == 20_001) { // the first half warms the code up
                before = allocated();
            }
            refused += reports.reserve(id) ? 0 : 1;
            if (id % 2 == 0) {
                reports.sent(id, 10, 0, listener);
                reports.complete(id, id);
            } else {
                reports.complete(id, id);
                reports.sent(id, 10, 0, listener);
            }
        }
        long bytes = allocated() - before;
        assertThat(refused).isZero();
        assertThat(last[0]).isEqualTo(40_000 + 10);
        assertThat(reports.size()).isZero();
        assertThat(bytes).as("bytes allocated by 20000 reports").isLessThan(1_000);
    }
}
