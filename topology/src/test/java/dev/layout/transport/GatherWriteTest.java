package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Gathering writes that reuse the thread's views and kept blocks ({@link GatherWrite}) still send
 * the right bytes when the memory, the origin or the type changes between sends, for types whose
 * blocks are kept and for one with too many (flattened anew per batch), for blocks longer than a
 * write call carries, eager and rendezvous. The
 * {@code @Timeout} is a safety net only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GatherWriteTest {
    static final Duration T = Duration.ofSeconds(20);

    static Memory filled(int bytes, int seed, boolean heap) {
        Memory m = heap ? Memory.ofArray(new byte[bytes]) : Memory.ofBuffer(ByteBuffer.allocateDirect(bytes));
        for (int i = 0; i < bytes; i++) {
            m.putByte(i, (byte) (i * 31 + seed));
        }
        return m;
    }

    @Test
    void theBytesFollowTheMemoryTheOriginAndTheType() throws Exception {
        Datatype few = Datatype.vector(16, 16, 32, Primitive.FLOAT32); // 1 KiB in 16 blocks: eager
        Datatype more = Datatype.vector(40_000, 2, 3, Primitive.FLOAT32); // 320 KB in 40000 blocks: rendezvous
        Datatype many = Datatype.vector(GatherWrite.MOST_KEPT_BLOCKS + 10, 1, 2, Primitive.FLOAT32);
        // blocks longer than a write call carries: cut into pieces, a piece of one ending a call mid-block
        long cap = GatherWrite.MOST_BYTES_PER_WRITE / 4;
        Datatype longBlocks = Datatype.vector(3, cap * 3 / 2 + 1, cap * 3 / 2 + 7, Primitive.FLOAT32);
        Datatype oneLongRun = Datatype.contiguous(3 * cap + 5, Primitive.FLOAT32);
        List<TcpTransport> f = TcpTransport.loopbackFabric(2, JobSecret.random(), TcpOptions.defaults());
        try (TcpTransport t0 = f.get(0);
                TcpTransport t1 = f.get(1)) {
            int size = (int) (Math.max(many.extent(), longBlocks.extent()) + 64);
            Memory a = filled(size, 1, false);
            Memory b = filled(size, 2, true);
            int tag = 0;
            for (Datatype type : List.of(few, more, few, many, longBlocks, more, oneLongRun, many)) {
                for (Memory m : List.of(a, b, a)) {
                    for (long origin : new long[] {0, 8}) {
                        byte[] got = new byte[(int) type.byteSize()];
                        Memory in = Memory.ofArray(got);
                        byte[] expected = new byte[(int) type.byteSize()];
                        dev.layout.dataloop.Packing.pack(type, 1, m, origin, Memory.ofArray(expected), 0);
                        int k = tag++;
                        var received = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                            try {
                                return t1.receiveTyped(0, 0L, k, Primitive.BYTE, type.byteSize(), in, 0, T);
                            } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        });
                        assertThat(t0.sendTyped(1, 0L, k, type, 1, m, origin, SendStrategy.GATHER))
                                .isEqualTo(SendStrategy.GATHER);
                        assertThat(received.get(20, TimeUnit.SECONDS)).isEqualTo(type.byteSize());
                        assertThat(got)
                                .as("%s from %s at %d", type, m == a ? "a" : "b", origin)
                                .isEqualTo(expected);
                    }
                }
            }
        }
    }
}
