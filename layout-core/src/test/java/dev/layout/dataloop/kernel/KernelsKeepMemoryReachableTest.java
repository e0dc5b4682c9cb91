package dev.layout.dataloop.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.memory.Memory;
import java.lang.ref.Cleaner;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Kernels read off-heap bytes that only their {@link Memory} argument holds: the caller dropped every
 * other reference, as in {@code pack(Memory.ofBuffer(ByteBuffer.allocateDirect(n)), ...)}. A compiled
 * kernel works on the raw address, so unless it keeps the memory reachable the collector may find the
 * owner unreachable mid-call and the owner's cleaner free the bytes still being read. Here the cleaner
 * first overwrites them, while another thread collects all the while; each kernel reads the same
 * bytes again and again (strides of 0), so a late read shows in what it packs last. Each kernel is
 * compiled first: an interpreted frame keeps its arguments reachable anyway.
 */
class KernelsKeepMemoryReachableTest {
    private static final int BYTES = 16 << 10;
    private static final int WIDTH = 34;
    private static final int ROUNDS = 30;
    private static final int BLOCKS = 1 << 18;
    private static final Cleaner CLEANER = Cleaner.create();

    private static byte pattern(long i) {
        return (byte) (i * 31 + 7);
    }

    private static byte[] patternAt(long offset) {
        byte[] b = new byte[WIDTH];
        for (int i = 0; i < WIDTH; i++) {
            b[i] = pattern(offset + i);
        }
        return b;
    }

    /**
     * Fresh off-heap bytes of the pattern, held by nothing but the returned view: once its owner is
     * unreachable, the cleaner overwrites them (so a late read shows) and frees them.
     */
    private static Memory onlyHeldByItsView() {
        long a = MemoryAccess.U.allocateMemory(BYTES);
        for (int i = 0; i < BYTES; i++) {
            MemoryAccess.U.putByte(a + i, pattern(i));
        }
        Object owner = new Object();
        CLEANER.register(owner, () -> {
            MemoryAccess.U.setMemory(a, BYTES, (byte) 0x5a);
            MemoryAccess.U.freeMemory(a);
        });
        return Memory.ofAddress(a, BYTES, owner);
    }

    /** A kernel call packing {@code blocks} blocks from {@code user} into {@code packed}. */
    private interface Pack {
        void run(Memory user, Memory packed, int blocks);
    }

    /**
     * Compiles {@code pack}, then runs it {@link #ROUNDS} times on memory only its argument holds while
     * another thread collects; every round must pack {@code expected} last, at {@code packed[at]}.
     */
    private static void packsWhileCollecting(int packedBytes, long at, byte[] expected, Pack pack)
            throws InterruptedException {
        Memory packed = Memory.ofArray(new byte[packedBytes]);
        Memory warm = onlyHeldByItsView();
        for (int i = 0; i < 20_000; i++) {
            pack.run(warm, packed, 8);
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread collector = new Thread(() -> {
            while (!stop.get()) {
                System.gc();
            }
        });
        collector.setDaemon(true);
        collector.start();
        try {
            for (int round = 0; round < ROUNDS; round++) {
                packed.fill(0, packedBytes, (byte) 0);
                pack.run(onlyHeldByItsView(), packed, BLOCKS);
                assertThat(packed.toArray(at, WIDTH))
                        .as("round %d: the last block packed", round)
                        .isEqualTo(expected);
            }
        } finally {
            stop.set(true);
            collector.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    @Test
    void listedBlocks() throws InterruptedException {
        long[] offsets = new long[BLOCKS];
        Arrays.fill(offsets, 40);
        packsWhileCollecting(
                BLOCKS * WIDTH,
                (long) (BLOCKS - 1) * WIDTH,
                patternAt(40),
                (user, packed, n) ->
                        ListedAccess.blocks(user, 0, offsets, null, WIDTH, BLOCKS - n, BLOCKS, packed, 0, true));
    }

    @Test
    void stridedBlocks() throws InterruptedException {
        packsWhileCollecting(
                WIDTH,
                0,
                patternAt(40),
                (user, packed, n) -> MemoryAccess.strided(user, 40, 0, packed, 0, 0, WIDTH, n));
    }

    @Test
    void stridedPlanes() throws InterruptedException {
        // planes of one row of 8 blocks, 40 bytes apart, all into one packed block
        packsWhileCollecting(
                WIDTH,
                0,
                patternAt(7 * 40),
                (user, packed, n) -> MemoryAccess.strided3(user, 0, 0, 0, 40, packed, 0, 0, 0, 0, WIDTH, n / 8, 1, 8));
    }
}
