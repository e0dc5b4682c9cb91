package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The one-call forms: the same bytes as a segment of one's own, and no allocation once a thread has seen the type. */
class PackingTest {
    /** Odd widths, a struct, a list of records, a nest that runs blocked, a count of a vector. */
    private static final List<String> TYPES = List.of(
            "vector(100, 3, 14, float32)",
            "struct([1, 1, 1], [0, 8, 16], [float64, int32, int8])",
            "indexed([2, 1, 1], [0, 3, 6], float32)",
            "hvector(24, 1, 8, hvector(2, 1, 786432, hvector(8, 1, 49152, hvector(8, 1, 3072, vector(8, 1, 24, float64)))))",
            "hvector(4, 1, 8, hvector(300, 1, 32, vector(4, 1, 2, float64)))",
            "float64");

    private static final long COUNT = 3;

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** What reading the counter allocates itself (some JVMs' management beans do, per read). */
    private static long counterCost() {
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long before = allocatedByThisThread();
            fewest = Math.min(fewest, allocatedByThisThread() - before);
        }
        return fewest;
    }

    private static Memory filled(Datatype t, boolean direct, Random r) {
        int n = (int) (t.trueUb() + (COUNT - 1) * t.extent()) + 64;
        byte[] bytes = new byte[n];
        r.nextBytes(bytes);
        if (!direct) {
            return Memory.ofArray(bytes);
        }
        ByteBuffer b = ByteBuffer.allocateDirect(n).put(bytes);
        return Memory.ofBuffer(b);
    }

    @Test
    void aRepeatedTypedPackOrUnpackAllocatesNothing() {
        Random r = new Random(5);
        for (String spec : TYPES) {
            Datatype t = LayoutParser.parse(spec);
            for (boolean direct : new boolean[] {false, true}) {
                Memory user = filled(t, direct, r);
                Memory copy = filled(t, direct, r);
                Memory packed = Memory.ofArray(new byte[(int) (t.byteSize() * COUNT)]);
                for (int i = 0; i < 1000; i++) {
                    Packing.pack(t, COUNT, user, 0, packed, 0);
                    Packing.unpack(t, COUNT, packed, 0, copy, 0);
                }
                // The fewest over a few windows: now and then the JIT's work lands on this thread (a few
                // hundred bytes once); an allocation per call would show in every window.
                long allocated = Long.MAX_VALUE;
                for (int window = 0; window < 5; window++) {
                    long before = allocatedByThisThread();
                    for (int i = 0; i < 200; i++) {
                        Packing.pack(t, COUNT, user, 0, packed, 0);
                        Packing.unpack(t, COUNT, packed, 0, copy, 0);
                    }
                    allocated = Math.min(allocated, Math.max(0, allocatedByThisThread() - before - counterCost()));
                }
                assertThat(allocated)
                        .as("bytes allocated by 200 packs and unpacks of %s", spec)
                        .isZero();
                assertThat(packed.toArray(0, (int) packed.byteSize()))
                        .as("%s", spec)
                        .isEqualTo(Packing.pack(t, COUNT, user.toArray(0, (int) user.byteSize()), 0));
            }
        }
    }

    @Test
    void aReusedSegmentChecksEachCallsFootprintAndSeesEachCallsMemory() {
        Datatype t = LayoutParser.parse("vector(50, 3, 7, int32)");
        Random r = new Random(9);
        Memory packed = Memory.ofArray(new byte[(int) t.byteSize()]);
        Memory small = Memory.ofArray(new byte[(int) t.trueUb() - 1]);
        for (int i = 0; i < 4; i++) {
            byte[] user = new byte[(int) t.trueUb() + 16];
            r.nextBytes(user);
            int origin = i * 4;
            Packing.pack(t, 1, Memory.ofArray(user), origin, packed, 0);
            byte[] expected = new byte[(int) t.byteSize()];
            Segment.of(t, 1, Memory.ofArray(user), origin).pack(Memory.ofArray(expected), 0, expected.length);
            assertThat(packed.toArray(0, expected.length)).isEqualTo(expected);
            assertThatThrownBy(() -> Packing.pack(t, 1, small, 0, packed, 0))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("needs bytes [0, " + t.trueUb() + ")");
        }
        assertThatThrownBy(() -> Packing.pack(null, 1, small, 0, packed, 0))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("type is null");
        assertThatThrownBy(() -> Packing.pack(t, -1, small, 0, packed, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("count -1");
    }

    @Test
    void threadsPackTheSameTypeAtOnceEachIntoItsOwnBuffer() throws Exception {
        Datatype t = LayoutParser.parse("hvector(64, 1, 40, vector(3, 1, 12, float32))");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new java.util.ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int seed = w;
                results.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    Memory user = filled(t, seed % 2 == 1, r);
                    byte[] expected = Packing.pack(t, COUNT, user.toArray(0, (int) user.byteSize()), 0);
                    Memory packed = Memory.ofArray(new byte[expected.length]);
                    for (int i = 0; i < 500; i++) {
                        Packing.pack(t, COUNT, user, 0, packed, 0);
                        if (!java.util.Arrays.equals(packed.toArray(0, expected.length), expected)) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : results) {
                assertThat(f.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
