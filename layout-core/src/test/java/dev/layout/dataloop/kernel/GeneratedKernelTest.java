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
 * Generated kernels move exactly what the generic loops move: records of blocks of any width like a
 * per-block reference (stride and list addressing), planes like the three-level strided loop ({@link
 * MemoryAccess#strided3}) and strips like the strided loop, pack and unpack, for random shapes
 * including negative strides, on heap and off-heap memory.
 */
class GeneratedKernelTest {
    /**
     * A random record: 1 to 4 disjoint blocks of 1 to 40 bytes in user order with gaps of 0 to 7 bytes
     * ({@code blocks[0]} offsets, {@code blocks[1]} lengths); {@code recordBytes[0]} gets its user extent.
     */
    private static long[][] record(Random r, long[] recordBytes) {
        int n = 1 + r.nextInt(4);
        long[][] blocks = new long[2][n];
        long user = r.nextInt(8);
        for (int k = 0; k < n; k++) {
            blocks[0][k] = user;
            blocks[1][k] = 1 + r.nextInt(40);
            user += blocks[1][k] + r.nextInt(8);
        }
        recordBytes[0] = user;
        return blocks;
    }

    private static Memory memory(boolean offHeap, int n) {
        return offHeap ? Memory.ofBuffer(ByteBuffer.allocateDirect(n)).slice(0, n) : Memory.ofArray(new byte[n]);
    }

    @ParameterizedTest(name = "kinds {0}, user off-heap {1}, packed off-heap {2}")
    @CsvSource({"0, false, false", "1, true, false", "2, false, true", "3, true, true"})
    void generatedLoopsMoveWhatTheReferenceMoves(int kinds, boolean userOff, boolean packedOff) {
        Random r = new Random(7);
        for (int trial = 0; trial < 60; trial++) {
            long[] rec = new long[1];
            long[][] blocks = record(r, rec);
            long[] w = GeneratedKernel.moves(blocks[0], blocks[1], 0);
            long size = java.util.Arrays.stream(blocks[1]).sum();
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
            GeneratedKernel kernel = GeneratedKernel.records(w, size, kinds);
            assertThat(kernel).isNotNull();

            Memory expected = memory(packedOff, (int) (size * count + 16));
            Memory generated = memory(packedOff, (int) (size * count + 16));
            long[] o = listed ? outer : null;
            for (int i = 0; i < count; i++) {
                long u = 8 + (listed ? outer[1 + i] : i * stride);
                referenceRecord(blocks, user, u, expected, 3 + i * size, true);
            }
            assertThat(GeneratedKernel.run(kernel, user, 8, stride, o, 1, count, generated, 3, true))
                    .isTrue();
            assertThat(bytes(generated))
                    .as("pack, trial %d, listed %s", trial, listed)
                    .isEqualTo(bytes(expected));

            // Unpack into a zeroed user buffer through stride addressing (distinct instances) and compare.
            Memory back = memory(userOff, userBytes);
            Memory backExpected = memory(userOff, userBytes);
            GeneratedKernel.run(kernel, back, 8, stride, null, 0, count, generated, 3, false);
            for (int i = 0; i < count; i++) {
                referenceRecord(blocks, backExpected, 8 + i * stride, expected, 3 + i * size, false);
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
                GeneratedKernel.run(kernel, backListed, 8, 0, distinct, 1, count, generated, 3, false);
                Memory listedExpected = memory(userOff, userBytes);
                for (int i = 0; i < count; i++) {
                    referenceRecord(blocks, listedExpected, 8 + distinct[1 + i], expected, 3 + i * size, false);
                }
                assertThat(backListed.toArray(0, userBytes))
                        .as("listed unpack, trial %d", trial)
                        .isEqualTo(listedExpected.toArray(0, userBytes));
            }
        }
    }

    @ParameterizedTest(name = "kinds {0}, user off-heap {1}, packed off-heap {2}")
    @CsvSource({"0, false, false", "1, true, false", "2, false, true", "3, true, true"})
    void recordsInRowsMoveRowAfterRow(int kinds, boolean userOff, boolean packedOff) {
        Random r = new Random(11);
        for (int trial = 0; trial < 30; trial++) {
            long[] rec = new long[1];
            long[][] blocks = record(r, rec);
            long[] w = GeneratedKernel.moves(blocks[0], blocks[1], 0);
            long size = java.util.Arrays.stream(blocks[1]).sum();
            int rows = 1 + r.nextInt(5);
            long rowStride = rec[0] + r.nextInt(3) * 8L;
            long spacing = rows * rowStride + r.nextInt(3) * 8L;
            int count = 1 + r.nextInt(10);
            int userBytes = (int) (spacing * count + 64);
            Memory user = memory(userOff, userBytes);
            for (int b = 0; b < userBytes; b++) {
                user.putByte(b, (byte) (b * 31 + 7));
            }
            GeneratedKernel kernel = GeneratedKernel.records(w, size, rows, rowStride, kinds);
            Memory expected = memory(packedOff, (int) (size * rows * count + 16));
            Memory generated = memory(packedOff, (int) (size * rows * count + 16));
            Memory back = memory(userOff, userBytes);
            Memory backExpected = memory(userOff, userBytes);
            for (int i = 0; i < count; i++) {
                for (int j = 0; j < rows; j++) {
                    long u = 8 + i * spacing + j * rowStride;
                    long p = 3 + (i * rows + j) * size;
                    referenceRecord(blocks, user, u, expected, p, true);
                    referenceRecord(blocks, backExpected, u, expected, p, false);
                }
            }
            assertThat(GeneratedKernel.run(kernel, user, 8, spacing, null, 0, count, generated, 3, true))
                    .isTrue();
            assertThat(bytes(generated)).as("pack, trial %d", trial).isEqualTo(bytes(expected));
            GeneratedKernel.run(kernel, back, 8, spacing, null, 0, count, generated, 3, false);
            assertThat(bytes(back)).as("unpack, trial %d", trial).isEqualTo(bytes(backExpected));
        }
        assertThatThrownBy(() -> GeneratedKernel.records(new long[] {0, 0, 8}, 8, -1, 8, kinds))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1 rows");
    }

    /**
     * The reference move of one record ({@link #record}'s blocks, each copied whole) between the user
     * record at {@code u} and the packed one at {@code p}: packing ({@code pack}) or unpacking.
     */
    private static void referenceRecord(long[][] blocks, Memory user, long u, Memory packed, long p, boolean pack) {
        for (int k = 0; k < blocks[0].length; k++) {
            long len = blocks[1][k];
            if (pack) {
                Memory.copy(user, u + blocks[0][k], packed, p, len);
            } else {
                Memory.copy(packed, p, user, u + blocks[0][k], len);
            }
            p += len;
        }
    }

    private static byte[] bytes(Memory m) {
        return m.toArray(0, (int) m.byteSize());
    }

    @Test
    void listedBlocksDecomposeBlockAfterBlockIntoTheirWordMoves() {
        // 12 bytes at 0: two 8-byte words overlapping at 4; then 8 bytes at 16, packed at 12
        assertThat(GeneratedKernel.moves(new long[] {0, 16}, new long[] {12, 8}, 0))
                .containsExactly(0, 0, 8, 4, 4, 8, 16, 12, 8);
        assertThat(GeneratedKernel.moves(new long[] {40, 0}, null, 16))
                .containsExactly(40, 0, 8, 48, 8, 8, 0, 16, 8, 8, 24, 8);
        assertThat(GeneratedKernel.moves(new long[] {0, 8}, new long[] {6, 4}, 0))
                .as("6 bytes as two overlapping 4-byte words")
                .containsExactly(0, 0, 4, 2, 2, 4, 8, 6, 4);
        assertThat(GeneratedKernel.moves(new long[] {0, 4}, new long[] {3, 1}, 0))
                .as("3 bytes as two overlapping 2-byte words, then a byte")
                .containsExactly(0, 0, 2, 1, 1, 2, 4, 3, 1);
        assertThat(GeneratedKernel.moves(new long[] {0, 8}, null, 12))
                .as("overlapping blocks")
                .isNull();
        assertThat(GeneratedKernel.moves(new long[] {0, 1000}, null, 136))
                .as("more than MAX_BODY_MOVES moves (17 each)")
                .isNull();
        assertThat(GeneratedKernel.moves(new long[] {0, 1000}, null, 128))
                .as("exactly MAX_BODY_MOVES moves")
                .hasSize(3 * GeneratedKernel.MAX_BODY_MOVES);
        assertThat(GeneratedKernel.moves(new long[] {0}, new long[] {0}, 0))
                .as("no move")
                .isNull();
    }

    @Test
    void onePatternIsOneClass() {
        long[] w = {0, 0, 8, 24, 8, 8};
        assertThat(GeneratedKernel.records(w, 16, 0)).isSameAs(GeneratedKernel.records(w.clone(), 16, 0));
        assertThat(GeneratedKernel.records(w, 16, 0))
                .isNotSameAs(GeneratedKernel.records(new long[] {0, 0, 8, 32, 8, 8}, 16, 0));
        assertThat(GeneratedKernel.records(w, 16, 0).moveCount()).isEqualTo(2);
    }

    @Test
    void kindsOutsideTheFourCombinationsAreRefused() {
        long[] w = {0, 0, 8, 8, 8, 8};
        assertThatThrownBy(() -> GeneratedKernel.records(w, 16, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kinds 4");
        assertThatThrownBy(() -> GeneratedKernel.records(w, 16, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("GeneratedKernel: kinds -1 (expected: 0-3 from MemoryAccess.baseKinds)");
        assertThatThrownBy(() -> GeneratedKernel.planes(8, 8, 16, 8, 256, -2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kinds -2");
        assertThat(GeneratedKernel.records(w, 16, 3)).isNotSameAs(GeneratedKernel.records(w, 16, 0));
    }

    @Test
    void badPatternsAreRefusedByName() {
        assertThatThrownBy(() -> GeneratedKernel.records(new long[] {0, 0}, 8, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 words for a 8-byte instance");
        assertThatThrownBy(() -> GeneratedKernel.records(new long[] {0, 0, 8, 8, 8, 3}, 16, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("6 words for a 16-byte instance")
                .hasMessageContaining("the last 1, 2, 4 or 8 bytes");
        assertThatThrownBy(() -> GeneratedKernel.records(new long[] {0, 0, 8}, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size > 0");
    }

    @ParameterizedTest(name = "kinds {0}, user off-heap {1}, packed off-heap {2}")
    @CsvSource({"0, false, false", "1, true, false", "2, false, true", "3, true, true"})
    void generatedPlanesEqualTheGenericLoop(int kinds, boolean userOff, boolean packedOff) {
        Random r = new Random(11);
        for (int trial = 0; trial < 50; trial++) {
            int width = r.nextBoolean() ? new int[] {4, 8, 16}[r.nextInt(3)] : 1 + r.nextInt(256);
            // up to three bodies' worth of blocks: rows longer than one body run as a loop of chunks
            int blocks = 1 + r.nextInt(3 * GeneratedKernel.MAX_BODY_MOVES / GeneratedKernel.movesPerBlock(width));
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
            GeneratedKernel k = GeneratedKernel.planes(width, blocks, s1, rows, s2, kinds);
            assertThat(k).isNotNull();
            long row = (long) width * blocks;
            Memory expected = memory(packedOff, packedBytes + 8);
            MemoryAccess.strided3(
                    user, origin, s3, s2, s1, expected, 5, row * rows, row, width, width, planes, rows, blocks);
            Memory got = memory(packedOff, packedBytes + 8);
            assertThat(GeneratedKernel.run(k, user, origin, s3, null, 0, planes, got, 5, true))
                    .isTrue();
            assertThat(bytes(got)).as("pack, trial %d", trial).isEqualTo(bytes(expected));

            Memory back = memory(userOff, userBytes);
            Memory backExpected = memory(userOff, userBytes);
            MemoryAccess.strided3(
                    expected, 5, row * rows, row, width, backExpected, origin, s3, s2, s1, width, planes, rows, blocks);
            GeneratedKernel.run(k, back, origin, s3, null, 0, planes, got, 5, false);
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
            GeneratedKernel k = GeneratedKernel.strip(width, stride, kinds);
            assertThat(k).isNotNull();
            Memory expected = memory(packedOff, packedBytes + 8);
            MemoryAccess.strided(user, origin, stride, expected, 3, width, width, count);
            // 4-byte blocks with a heap packed side are the rows form: whole rows of MAX_ROW, the caller moves the tail
            boolean rows = width == 4 && (kinds & 2) == 0;
            long want = rows ? count - count % GeneratedKernel.MAX_ROW : count;
            Memory got = memory(packedOff, packedBytes + 8);
            long moved = GeneratedKernel.strip(k, user, origin, stride, count, got, 3, true);
            assertThat(moved).as("blocks moved, trial %d", trial).isEqualTo(want);
            MemoryAccess.strided(
                    user, origin + moved * stride, stride, got, 3 + moved * width, width, width, count - moved);
            assertThat(bytes(got))
                    .as("pack, trial %d: width %d, stride %d, count %d", trial, width, stride, count)
                    .isEqualTo(bytes(expected));

            Memory back = memory(userOff, userBytes);
            Memory backExpected = memory(userOff, userBytes);
            MemoryAccess.strided(expected, 3, width, backExpected, origin, stride, width, count);
            assertThat(GeneratedKernel.strip(k, back, origin, stride, count, got, 3, false))
                    .isEqualTo(want);
            MemoryAccess.strided(
                    got, 3 + moved * width, width, back, origin + moved * stride, stride, width, count - moved);
            assertThat(bytes(back)).as("unpack, trial %d", trial).isEqualTo(bytes(backExpected));
        }
    }

    @Test
    void aBlockIsItsWordsWithTheLastOverlappingThePrevious() {
        assertThat(GeneratedKernel.wordMoves(24)).containsExactly(0, 8, 8, 8, 16, 8);
        assertThat(GeneratedKernel.wordMoves(20)).containsExactly(0, 8, 8, 8, 12, 8);
        assertThat(GeneratedKernel.wordMoves(6)).containsExactly(0, 4, 2, 4);
        assertThat(GeneratedKernel.wordMoves(3)).containsExactly(0, 2, 1, 2);
        assertThat(GeneratedKernel.wordMoves(1)).containsExactly(0, 1);
        for (int w = 1; w < 64; w++) {
            long[] m = GeneratedKernel.wordMoves(w);
            boolean[] covered = new boolean[w];
            for (int k = 0; k < m.length; k += 2) {
                assertThat(m[k]).as("width %d", w).isBetween(0L, w - m[k + 1]);
                for (long b = m[k]; b < m[k] + m[k + 1]; b++) {
                    covered[(int) b] = true;
                }
            }
            assertThat(covered).as("width %d", w).doesNotContain(false);
            assertThat(m.length / 2).isEqualTo(GeneratedKernel.movesPerBlock(w)).isLessThanOrEqualTo((w + 7) / 8 + 1);
        }
        assertThat(GeneratedKernel.wordMoves(72)).hasSize(18).contains(64, 8);
        assertThatThrownBy(() -> GeneratedKernel.wordMoves(257))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("wordMoves: width 257 (expected: 1 to 256)");
    }

    @Test
    void aRowLongerThanOneBodyRunsAsChunksOfWholeBlocksThatDivideIt() {
        int max = GeneratedKernel.MAX_BODY_MOVES;
        assertThat(GeneratedKernel.chunkBlocks(3, 16)).isEqualTo(8); // 16 blocks of 24 bytes: two chunks of 24 moves
        assertThat(GeneratedKernel.chunkBlocks(1, max)).isEqualTo(max); // fits one body: the row itself
        assertThat(GeneratedKernel.chunkBlocks(1, 2 * max)).isEqualTo(max);
        assertThat(GeneratedKernel.chunkBlocks(2, 37)).isEqualTo(1); // a prime count: a block per chunk
        assertThat(GeneratedKernel.chunkBlocks(max, 5)).isEqualTo(1);
        for (int moves = 1; moves <= max; moves++) {
            for (int blocks = 1; blocks <= 100; blocks++) {
                int k = GeneratedKernel.chunkBlocks(moves, blocks);
                assertThat(blocks % k)
                        .as("%d blocks of %d moves", blocks, moves)
                        .isZero();
                assertThat(k == 1 || k * moves <= max)
                        .as("%d blocks of %d moves", blocks, moves)
                        .isTrue();
            }
        }
        assertThat(GeneratedKernel.planes(24, 16, 32, 1, 17 * 32, 0)).isNotNull();
    }

    @Test
    void shapesOutsideTheGeneratedOnesGetNoKernel() {
        assertThat(GeneratedKernel.strip(8 * GeneratedKernel.MAX_BODY_MOVES + 1, 300, 0))
                .isNull();
        assertThat(GeneratedKernel.strip(8, 24, 3))
                .isSameAs(GeneratedKernel.strip(8, 24, 3))
                .isNotSameAs(GeneratedKernel.strip(8, 24, 2))
                .isNotSameAs(GeneratedKernel.planes(8, 1, 24, 1, 24, 3));
        assertThat(GeneratedKernel.planes(8 * GeneratedKernel.MAX_BODY_MOVES + 1, 2, 4096, 8, 16384, 0))
                .isNull();
        assertThat(GeneratedKernel.planes(8, 8, 16, 0, 512, 0)).isNull();
        assertThat(GeneratedKernel.planes(8, 8, 192, 8, 3072, 0))
                .isSameAs(GeneratedKernel.planes(8, 8, 192, 8, 3072, 0));
        assertThat(GeneratedKernel.run(
                        null, Memory.ofArray(new byte[8]), 0, 8, null, 0, 1, Memory.ofArray(new byte[8]), 0, true))
                .isFalse();
        assertThat(GeneratedKernel.strip(
                        null, Memory.ofArray(new byte[8]), 0, 8, 1, Memory.ofArray(new byte[8]), 0, true))
                .isZero();
    }
}
