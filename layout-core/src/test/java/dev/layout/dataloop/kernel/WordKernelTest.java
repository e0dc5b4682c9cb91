package dev.layout.dataloop.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Generated word kernels move exactly the bytes the pattern names, like a per-move reference, for
 * stride and list addressing, pack and unpack, on heap and off-heap memory.
 */
class WordKernelTest {
    /** A random pattern: nl longs then ni ints at disjoint 4-aligned user offsets within a record, packed in order. */
    private static long[] pattern(Random r, int nl, int ni, long[] recordBytes) {
        long[] w = new long[2 * (nl + ni) + 2];
        long packed = 0;
        long user = r.nextInt(3) * 4L;
        for (int k = 0; k < nl + ni; k++) {
            int len = k < nl ? 8 : 4;
            w[2 * k] = user;
            w[2 * k + 1] = packed;
            packed += len;
            user += len + r.nextInt(4) * 4L;
        }
        w[w.length - 2] = nl;
        w[w.length - 1] = ni;
        recordBytes[0] = user;
        return w;
    }

    private static Memory memory(boolean offHeap, int n) {
        return offHeap ? Memory.ofBuffer(ByteBuffer.allocateDirect(n)).slice(0, n) : Memory.ofArray(new byte[n]);
    }

    @ParameterizedTest(name = "kinds {0}, user off-heap {1}, packed off-heap {2}")
    @CsvSource({"0, false, false", "1, true, false", "2, false, true", "3, true, true"})
    void generatedLoopsMoveWhatTheReferenceMoves(int kinds, boolean userOff, boolean packedOff) {
        Random r = new Random(7);
        for (int trial = 0; trial < 60; trial++) {
            int nl = r.nextInt(5);
            int ni = (nl == 0 ? 1 : 0) + r.nextInt(3);
            long[] rec = new long[1];
            long[] w = pattern(r, nl, ni, rec);
            long size = 8L * nl + 4L * ni;
            long stride = rec[0] + r.nextInt(3) * 8L;
            int count = 1 + r.nextInt(40);
            boolean listed = r.nextBoolean();
            long[] outer = new long[count + 2];
            for (int i = 0; i < outer.length; i++) {
                outer[i] = (long) r.nextInt(count + 2)
                        * stride; // repeats allowed for pack; unpack checks distinct ones below
            }
            int userBytes = (int) (stride * (count + 2) + 64);
            Memory user = memory(userOff, userBytes);
            for (int b = 0; b < userBytes; b++) {
                user.putByte(b, (byte) (b * 31 + 7));
            }
            WordKernel kernel = WordKernel.of(w, size, kinds);
            assertThat(kernel).isNotNull();

            Memory expected = memory(packedOff, (int) (size * count + 16));
            Memory generated = memory(packedOff, (int) (size * count + 16));
            long[] o = listed ? outer : null;
            for (int i = 0; i < count; i++) {
                long u = 8 + (listed ? outer[1 + i] : i * stride);
                for (int k = 0; k < nl + ni; k++) {
                    Memory.copy(user, u + w[2 * k], expected, 3 + i * size + w[2 * k + 1], k < nl ? 8 : 4);
                }
            }
            long moved = ListedAccess.words(kernel, user, 8, stride, o, 1, count, size, generated, 3, true);
            assertThat(moved).isEqualTo(count * size);
            assertThat(bytes(generated))
                    .as("pack, trial %d, listed %s", trial, listed)
                    .isEqualTo(bytes(expected));

            // Unpack into a zeroed user buffer through stride addressing (distinct instances) and compare.
            Memory back = memory(userOff, userBytes);
            Memory backExpected = memory(userOff, userBytes);
            ListedAccess.words(kernel, back, 8, stride, null, 0, count, size, generated, 3, false);
            for (int i = 0; i < count; i++) {
                for (int k = 0; k < nl + ni; k++) {
                    Memory.copy(
                            expected,
                            3 + i * size + w[2 * k + 1],
                            backExpected,
                            8 + i * stride + w[2 * k],
                            k < nl ? 8 : 4);
                }
            }
            assertThat(back.toArray(0, userBytes))
                    .as("unpack, trial %d", trial)
                    .isEqualTo(backExpected.toArray(0, userBytes));
            if (listed) {
                Memory backListed = memory(userOff, userBytes);
                long[] distinct = new long[count + 1];
                for (int i = 0; i < count; i++) {
                    distinct[1 + i] = (count - 1 - i) * stride; // reversed order
                }
                ListedAccess.words(kernel, backListed, 8, 0, distinct, 1, count, size, generated, 3, false);
                Memory listedExpected = memory(userOff, userBytes);
                for (int i = 0; i < count; i++) {
                    for (int k = 0; k < nl + ni; k++) {
                        Memory.copy(
                                expected,
                                3 + i * size + w[2 * k + 1],
                                listedExpected,
                                8 + distinct[1 + i] + w[2 * k],
                                k < nl ? 8 : 4);
                    }
                }
                assertThat(backListed.toArray(0, userBytes))
                        .as("listed unpack, trial %d", trial)
                        .isEqualTo(listedExpected.toArray(0, userBytes));
            }
        }
    }

    private static byte[] bytes(Memory m) {
        return m.toArray(0, (int) m.byteSize());
    }

    @Test
    void listedBlocksDecomposeIntoLongsThenInts() {
        // 12 bytes at 0 and 8 bytes at 16: longs (0 -> 0) and (16 -> 12), then the int (8 -> 8)
        assertThat(WordKernel.moves(new long[] {0, 16}, new long[] {12, 8}, 0))
                .containsExactly(0, 0, 16, 12, 8, 8, 2, 1);
        assertThat(WordKernel.moves(new long[] {40, 0}, null, 16)).containsExactly(40, 0, 48, 8, 0, 16, 8, 24, 4, 0);
        assertThat(WordKernel.moves(new long[] {0, 8}, new long[] {6, 4}, 0))
                .as("a block not of whole 4-byte words")
                .isNull();
        assertThat(WordKernel.moves(new long[] {0, 8}, null, 12))
                .as("overlapping blocks")
                .isNull();
        assertThat(WordKernel.moves(new long[] {0, 64}, null, 24))
                .as("more than four longs")
                .isNull();
        assertThat(WordKernel.moves(new long[] {0, 8, 16, 32}, new long[] {8, 4, 4, 4}, 0))
                .as("more than two ints")
                .isNull();
        assertThat(WordKernel.moves(new long[] {0}, null, 4)).as("no long move").isNull();
    }

    @Test
    void onePatternIsOneClass() {
        long[] w = {0, 0, 24, 8, 2, 0};
        assertThat(WordKernel.of(w, 16, 0)).isSameAs(WordKernel.of(w.clone(), 16, 0));
        assertThat(WordKernel.of(w, 16, 0)).isNotSameAs(WordKernel.of(new long[] {0, 0, 32, 8, 2, 0}, 16, 0));
        assertThat(WordKernel.of(w, 16, 0).moveCount()).isEqualTo(2);
    }

    @Test
    void kindsOutsideTheFourCombinationsAreRefused() {
        long[] w = {0, 0, 8, 8, 2, 0};
        assertThatThrownBy(() -> WordKernel.of(w, 16, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kinds 4");
        assertThatThrownBy(() -> WordKernel.of(w, 16, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("WordKernel: kinds -1 (expected: 0-3 from MemoryAccess.baseKinds)");
        assertThatThrownBy(() -> PlaneKernel.of(8, 8, 16, 8, 256, -2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kinds -2");
        assertThat(WordKernel.of(w, 16, 3)).isNotSameAs(WordKernel.of(w, 16, 0));
    }

    @Test
    void badPatternsAreRefusedByName() {
        assertThatThrownBy(() -> WordKernel.of(new long[] {0, 0}, 8, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 long and 0 int moves");
        assertThatThrownBy(() -> WordKernel.of(new long[] {0, 0, 2, 0}, 16, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 long and 0 int moves")
                .hasMessageContaining("2 words per move");
    }
}
