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
 * Generated plane kernels move what the generic three-level strided loop ({@link
 * MemoryAccess#strided3}) moves, pack and unpack, for random shapes including negative strides, on
 * heap and off-heap memory.
 */
class PlaneKernelTest {
    private static Memory memory(boolean offHeap, int n) {
        return offHeap ? Memory.ofBuffer(ByteBuffer.allocateDirect(n)).slice(0, n) : Memory.ofArray(new byte[n]);
    }

    private static byte[] bytes(Memory m) {
        return m.toArray(0, (int) m.byteSize());
    }

    @ParameterizedTest(name = "kinds {0}, user off-heap {1}, packed off-heap {2}")
    @CsvSource({"0, false, false", "1, true, false", "2, false, true", "3, true, true"})
    void generatedPlanesEqualTheGenericLoop(int kinds, boolean userOff, boolean packedOff) {
        Random r = new Random(11);
        for (int trial = 0; trial < 50; trial++) {
            int width = r.nextBoolean() ? new int[] {4, 8, 16}[r.nextInt(3)] : 1 + r.nextInt(256);
            int blocks = 1 + r.nextInt(PlaneKernel.MAX_BODY_MOVES / PlaneKernel.movesPerBlock(width));
            long s1 = (width + r.nextInt(3) * 4L) * (r.nextInt(5) == 0 ? -1 : 1);
            int rows = 1 + r.nextInt(6);
            long rowSpan = Math.abs(s1) * blocks;
            long s2 = (rowSpan + r.nextInt(3) * 8L) * (r.nextInt(5) == 0 ? -1 : 1);
            int planes = 1 + r.nextInt(5);
            long planeSpan = Math.abs(s2) * rows + rowSpan;
            long s3 = planeSpan + r.nextInt(4) * 8L;
            long origin = rowSpan + Math.abs(s2) * rows + 16; // room for negative strides
            int userBytes = (int) (origin + s3 * planes + planeSpan + 16);
            int packedBytes = width * blocks * rows * planes;
            Memory user = memory(userOff, userBytes);
            for (int b = 0; b < userBytes; b++) {
                user.putByte(b, (byte) (b * 31 + 7));
            }
            PlaneKernel k = PlaneKernel.of(width, blocks, s1, rows, s2, kinds);
            assertThat(k).isNotNull();
            long row = (long) width * blocks;
            Memory expected = memory(packedOff, packedBytes + 8);
            MemoryAccess.strided3(
                    user, origin, s3, s2, s1, expected, 5, row * rows, row, width, width, planes, rows, blocks);
            Memory got = memory(packedOff, packedBytes + 8);
            assertThat(MemoryAccess.planes(k, user, origin, s3, planes, got, 5, true))
                    .isTrue();
            assertThat(bytes(got)).as("pack, trial %d", trial).isEqualTo(bytes(expected));

            Memory back = memory(userOff, userBytes);
            Memory backExpected = memory(userOff, userBytes);
            MemoryAccess.strided3(
                    expected, 5, row * rows, row, width, backExpected, origin, s3, s2, s1, width, planes, rows, blocks);
            MemoryAccess.planes(k, back, origin, s3, planes, got, 5, false);
            assertThat(bytes(back)).as("unpack, trial %d", trial).isEqualTo(bytes(backExpected));
        }
    }

    @ParameterizedTest(name = "kinds {0}, user off-heap {1}, packed off-heap {2}")
    @CsvSource({"0, false, false", "1, true, false", "2, false, true", "3, true, true"})
    void stripsEqualTheGenericStridedLoop(int kinds, boolean userOff, boolean packedOff) {
        Random r = new Random(13 + kinds);
        for (int trial = 0; trial < 40; trial++) {
            int width = r.nextBoolean() ? new int[] {4, 8, 16}[r.nextInt(3)] : 1 + r.nextInt(256);
            long stride = (width + r.nextInt(4) * 4L) * (r.nextInt(4) == 0 ? -1 : 1);
            int count = r.nextInt(200);
            long span = Math.abs(stride) * count + width;
            long origin = stride < 0 ? span + 8 : 8;
            int userBytes = (int) (origin + span + 16);
            int packedBytes = width * count;
            Memory user = memory(userOff, userBytes);
            for (int b = 0; b < userBytes; b++) {
                user.putByte(b, (byte) (b * 31 + 7));
            }
            PlaneKernel k = PlaneKernel.strip(width, stride, kinds);
            assertThat(k).isNotNull();
            Memory expected = memory(packedOff, packedBytes + 8);
            MemoryAccess.strided(user, origin, stride, expected, 3, width, width, count);
            // 4-byte blocks with a heap packed side are the rows form: whole rows of MAX_ROW, the caller moves the tail
            boolean rows = width == 4 && (kinds & 2) == 0;
            long want = rows ? count - count % PlaneKernel.MAX_ROW : count;
            Memory got = memory(packedOff, packedBytes + 8);
            long moved = MemoryAccess.strip(k, user, origin, stride, count, got, 3, true);
            assertThat(moved).as("blocks moved, trial %d", trial).isEqualTo(want);
            MemoryAccess.strided(
                    user, origin + moved * stride, stride, got, 3 + moved * width, width, width, count - moved);
            assertThat(bytes(got))
                    .as("pack, trial %d: width %d, stride %d, count %d", trial, width, stride, count)
                    .isEqualTo(bytes(expected));

            Memory back = memory(userOff, userBytes);
            Memory backExpected = memory(userOff, userBytes);
            MemoryAccess.strided(expected, 3, width, backExpected, origin, stride, width, count);
            assertThat(MemoryAccess.strip(k, back, origin, stride, count, got, 3, false))
                    .isEqualTo(want);
            MemoryAccess.strided(
                    got, 3 + moved * width, width, back, origin + moved * stride, stride, width, count - moved);
            assertThat(bytes(back)).as("unpack, trial %d", trial).isEqualTo(bytes(backExpected));
        }
    }

    @Test
    void aBlockIsItsWordsWithTheLastOverlappingThePrevious() {
        assertThat(PlaneKernel.wordMoves(24)).containsExactly(0, 8, 8, 8, 16, 8);
        assertThat(PlaneKernel.wordMoves(20)).containsExactly(0, 8, 8, 8, 12, 8);
        assertThat(PlaneKernel.wordMoves(6)).containsExactly(0, 4, 2, 4);
        assertThat(PlaneKernel.wordMoves(3)).containsExactly(0, 2, 1, 2);
        assertThat(PlaneKernel.wordMoves(1)).containsExactly(0, 1);
        for (int w = 1; w < 64; w++) {
            long[] m = PlaneKernel.wordMoves(w);
            boolean[] covered = new boolean[w];
            for (int k = 0; k < m.length; k += 2) {
                assertThat(m[k]).as("width %d", w).isBetween(0L, w - m[k + 1]);
                for (long b = m[k]; b < m[k] + m[k + 1]; b++) {
                    covered[(int) b] = true;
                }
            }
            assertThat(covered).as("width %d", w).doesNotContain(false);
            assertThat(m.length / 2).isEqualTo(PlaneKernel.movesPerBlock(w)).isLessThanOrEqualTo((w + 7) / 8 + 1);
        }
        assertThat(PlaneKernel.wordMoves(72)).hasSize(18).contains(64, 8);
        assertThatThrownBy(() -> PlaneKernel.wordMoves(257))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("wordMoves: width 257 (expected: 1 to 256)");
    }

    @Test
    void shapesOutsideTheGeneratedOnesGetNoKernel() {
        assertThat(PlaneKernel.strip(8 * PlaneKernel.MAX_BODY_MOVES + 1, 300, 0))
                .isNull();
        assertThat(PlaneKernel.strip(8, 24, 3))
                .isSameAs(PlaneKernel.strip(8, 24, 3))
                .isNotSameAs(PlaneKernel.strip(8, 24, 2))
                .isNotSameAs(PlaneKernel.of(8, 1, 24, 1, 24, 3));
        assertThat(PlaneKernel.of(64, 5, 80, 8, 512, 0)).isNull();
        assertThat(PlaneKernel.of(8, PlaneKernel.MAX_BODY_MOVES + 1, 16, 8, 1024, 0))
                .isNull();
        assertThat(PlaneKernel.of(24, PlaneKernel.MAX_BODY_MOVES / 3 + 1, 32, 8, 1024, 0))
                .isNull();
        assertThat(PlaneKernel.of(8, 8, 16, 0, 512, 0)).isNull();
        assertThat(PlaneKernel.of(8, 8, 192, 8, 3072, 0)).isSameAs(PlaneKernel.of(8, 8, 192, 8, 3072, 0));
        assertThat(MemoryAccess.planes(
                        null, Memory.ofArray(new byte[8]), 0, 8, 1, Memory.ofArray(new byte[8]), 0, true))
                .isFalse();
        assertThat(MemoryAccess.strip(null, Memory.ofArray(new byte[8]), 0, 8, 1, Memory.ofArray(new byte[8]), 0, true))
                .isZero();
    }
}
