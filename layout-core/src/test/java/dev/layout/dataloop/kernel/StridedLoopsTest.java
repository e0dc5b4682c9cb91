package dev.layout.dataloop.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.memory.Memory;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The strided loops ({@link MemoryAccess#strided}, {@link
 * MemoryAccess#strided3}, run by per-memory-kind copies of {@link StridedLoopCode}) move exactly what
 * a byte-by-byte loop in the original order moves: random shapes, transposes that take the tiled
 * 16-byte path (with leftover rows and negative strides), overlapping destinations, every
 * combination of heap and off-heap source and destination.
 */
class StridedLoopsTest {
    private static Memory memory(boolean offHeap, int n) {
        return offHeap ? Memory.ofBuffer(ByteBuffer.allocateDirect(n)).slice(0, n) : Memory.ofArray(new byte[n]);
    }

    private static Memory filled(boolean offHeap, int n, int seed) {
        Memory m = memory(offHeap, n);
        for (int b = 0; b < n; b++) {
            m.putByte(b, (byte) (b * 31 + seed));
        }
        return m;
    }

    private static byte[] bytes(Memory m) {
        return m.toArray(0, (int) m.byteSize());
    }

    /** Block (p, i, j) from {@code so + p*s3 + i*s2 + j*s1} to {@code do + p*d3 + i*d2 + j*d1}, byte by byte, in order. */
    private static void reference(
            Memory src,
            long so,
            long s3,
            long s2,
            long s1,
            Memory dst,
            long dO,
            long d3,
            long d2,
            long d1,
            int width,
            int n3,
            int n2,
            int n1) {
        for (int p = 0; p < n3; p++) {
            for (int i = 0; i < n2; i++) {
                for (int j = 0; j < n1; j++) {
                    for (int b = 0; b < width; b++) {
                        dst.putByte(dO + p * d3 + i * d2 + j * d1 + b, src.getByte(so + p * s3 + i * s2 + j * s1 + b));
                    }
                }
            }
        }
    }

    /** Smallest and largest offset (exclusive) of n blocks of width at stride s from 0. */
    private static long lo(long s, int n) {
        return Math.min(0, s * (n - 1));
    }

    private static long hi(long s, int n, long width) {
        return Math.max(0, s * (n - 1)) + width;
    }

    @ParameterizedTest(name = "kinds {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void randomShapesMoveWhatAByteLoopMoves(int kinds) {
        boolean srcOff = (kinds & 1) != 0;
        boolean dstOff = (kinds & 2) != 0;
        Random r = new Random(31 + kinds);
        int tiled = 0;
        for (int trial = 0; trial < 400; trial++) {
            int[] widths = {1, 2, 3, 4, 6, 8, 12, 16, 16, 16, 20, 24, 28, 37, 40, 57, 64, 100, 200};
            int width = widths[r.nextInt(widths.length)];
            int n1 = 1 + r.nextInt(9);
            int n2 = 1 + r.nextInt(11);
            int n3 = 1 + r.nextInt(3);
            long[] src = strides(r, width, n1, n2, trial % 3 == 0);
            long[] dst = strides(r, width, n1, n2, trial % 3 == 1);
            // Overlapping destinations now and then: the strided loops must keep the original order there.
            if (r.nextInt(8) == 0) {
                dst[1] = width * (long) r.nextInt(2);
            }
            long s3 = span(src, width, n1, n2) + 8L * r.nextInt(3);
            long d3 = span(dst, width, n1, n2) + 8L * r.nextInt(3);
            long so = -Math.min(0, lo(src[0], n2) + lo(src[1], n1)) + 3;
            long dO = -Math.min(0, lo(dst[0], n2) + lo(dst[1], n1)) + 5;
            int srcBytes = (int) (so + s3 * n3 + 8);
            int dstBytes = (int) (dO + d3 * n3 + 8);
            if (width == 16 && n2 >= 4 && StridedLoopCode.tile16(dst[0], dst[1], n2)) {
                tiled++;
            }
            Memory s = filled(srcOff, srcBytes, 7);
            Memory expected = filled(dstOff, dstBytes, 1);
            Memory got = filled(dstOff, dstBytes, 1);
            reference(s, so, s3, src[0], src[1], expected, dO, d3, dst[0], dst[1], width, n3, n2, n1);
            MemoryAccess.strided3(s, so, s3, src[0], src[1], got, dO, d3, dst[0], dst[1], width, n3, n2, n1);
            assertThat(bytes(got))
                    .as(
                            "strided3 trial %d width %d %s -> %s",
                            trial, width, java.util.Arrays.toString(src), java.util.Arrays.toString(dst))
                    .isEqualTo(bytes(expected));

            Memory got2 = filled(dstOff, dstBytes, 1);
            Memory expected2 = filled(dstOff, dstBytes, 1);
            reference(s, so, 0, src[0], src[1], expected2, dO, 0, dst[0], dst[1], width, 1, n2, n1);
            MemoryAccess.strided3(s, so, 0, src[0], src[1], got2, dO, 0, dst[0], dst[1], width, 1, n2, n1);
            assertThat(bytes(got2)).as("strided3 (one plane) trial %d", trial).isEqualTo(bytes(expected2));

            Memory got1 = filled(dstOff, dstBytes, 1);
            Memory expected1 = filled(dstOff, dstBytes, 1);
            reference(s, so, 0, 0, src[1], expected1, dO, 0, 0, dst[1], width, 1, 1, n1);
            MemoryAccess.strided(s, so, src[1], got1, dO, dst[1], width, n1);
            assertThat(bytes(got1)).as("strided trial %d", trial).isEqualTo(bytes(expected1));
        }
        assertThat(tiled).as("trials that took the tiled 16-byte path").isGreaterThan(8);
    }

    @ParameterizedTest(name = "kinds {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void storesIntoOneCacheSetMoveWhatAByteLoopMoves(int kinds) {
        boolean srcOff = (kinds & 1) != 0;
        boolean dstOff = (kinds & 2) != 0;
        long set = 64 * 1024;
        assertThat(MemoryAccess.oneSet(set)).isTrue();
        assertThat(MemoryAccess.oneSet(-3 * set)).isTrue();
        assertThat(MemoryAccess.oneSet(0)).isFalse();
        assertThat(MemoryAccess.oneSet(set + 8)).isFalse();
        // may be paced: up to 32-byte blocks (at most four moves each); 33 to 64 bytes (eight) are not
        assertThat(MemoryAccess.mayPace(set, 32)).isTrue();
        assertThat(MemoryAccess.mayPace(set, 40)).isFalse();
        assertThat(MemoryAccess.mayPace(set + 8, 4)).isFalse();
        // and blocks over a line go as bulk copies there (96, 128)
        for (int width : new int[] {1, 3, 4, 8, 12, 16, 20, 40, 64, 96, 128}) {
            for (long stride : new long[] {set, -set, 2 * set}) {
                int n1 = 3;
                int n2 = 2;
                long rowBytes = (long) width * n1;
                long dO = 5 + (stride < 0 ? -stride * (n1 - 1) : 0);
                int dstBytes = (int) (dO + Math.abs(stride) * n1 * n2 + 8);
                long d2 = Math.abs(stride) * n1;
                Memory s = filled(srcOff, (int) (rowBytes * n2 + 8), 7);
                Memory expected = filled(dstOff, dstBytes, 1);
                Memory got = filled(dstOff, dstBytes, 1);
                reference(s, 3, 0, rowBytes, width, expected, dO, 0, d2, stride, width, 1, n2, n1);
                MemoryAccess.strided3(s, 3, 0, rowBytes, width, got, dO, 0, d2, stride, width, 1, n2, n1);
                assertThat(bytes(got))
                        .as("strided3 (one plane) width %d stride %d", width, stride)
                        .isEqualTo(bytes(expected));
                // both of OneSetPacing's strategies, over the whole call: the same bytes
                long[] src = {0, rowBytes, width};
                long[] dst = {0, d2, stride};
                assertBothStrategies(s, 3, src, expected, dO, dst, width, 1, n2, n1, "stores stride " + stride);
            }
        }
    }

    @ParameterizedTest(name = "kinds {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void planesOfBlocksInOneCacheSetMoveWhatAByteLoopMoves(int kinds) {
        // two planes of two rows of three blocks, the blocks 64 KiB apart on the user side: pack and
        // unpack through strided3, and each of OneSetPacing's strategies over the whole call
        long set = 64 * 1024;
        int n3 = 2;
        int n2 = 2;
        int n1 = 3;
        for (int width : new int[] {1, 4, 12, 32}) {
            long u2 = set * n1;
            long u3 = u2 * n2 + 8;
            int userBytes = (int) (u3 * n3 + 16);
            long p1 = width;
            long p2 = p1 * n1;
            long p3 = p2 * n2;
            int packedBytes = (int) (p3 * n3 + 16);
            for (boolean pack : new boolean[] {true, false}) {
                Memory s = pack ? filled((kinds & 1) != 0, userBytes, 7) : filled((kinds & 2) != 0, packedBytes, 7);
                int dstBytes = pack ? packedBytes : userBytes;
                boolean dstOff = (kinds & (pack ? 2 : 1)) != 0;
                long[] src = pack ? new long[] {u3, u2, set} : new long[] {p3, p2, p1};
                long[] dst = pack ? new long[] {p3, p2, p1} : new long[] {u3, u2, set};
                Memory expected = filled(dstOff, dstBytes, 1);
                reference(s, 3, src[0], src[1], src[2], expected, 5, dst[0], dst[1], dst[2], width, n3, n2, n1);
                Memory got = filled(dstOff, dstBytes, 1);
                MemoryAccess.strided3(s, 3, src[0], src[1], src[2], got, 5, dst[0], dst[1], dst[2], width, n3, n2, n1);
                assertThat(bytes(got))
                        .as("strided3 width %d pack %s", width, pack)
                        .isEqualTo(bytes(expected));
                assertBothStrategies(s, 3, src, expected, 5, dst, width, n3, n2, n1, "pack " + pack);
            }
        }
    }

    /**
     * {@link StridedLoopCode#oneSetPlanes} by each of {@link OneSetPacing}'s strategies, from {@code s}
     * at {@code so} with strides {@code src} (plane, row, block) to a copy of {@code expected}'s
     * starting bytes at {@code dO} with strides {@code dst}: both must give {@code expected}.
     */
    private static void assertBothStrategies(
            Memory s,
            long so,
            long[] src,
            Memory expected,
            long dO,
            long[] dst,
            int width,
            int n3,
            int n2,
            int n1,
            String what) {
        for (boolean pace : new boolean[] {true, false}) {
            Memory got = filled(expected.base() == null, (int) expected.byteSize(), 1);
            new StridedLoopCode()
                    .oneSetPlanes(
                            pace ? OneSetPacing.PACED : 0,
                            s.base(),
                            s.address() + so,
                            src[0],
                            src[1],
                            src[2],
                            got.base(),
                            got.address() + dO,
                            dst[0],
                            dst[1],
                            dst[2],
                            width,
                            n3,
                            n2,
                            n1);
            assertThat(bytes(got))
                    .as("%s width %d %s", pace ? "paced" : "plain", width, what)
                    .isEqualTo(bytes(expected));
        }
    }

    @ParameterizedTest(name = "kinds {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void loadsFromOneCacheSetMoveWhatAByteLoopMoves(int kinds) {
        boolean srcOff = (kinds & 1) != 0;
        boolean dstOff = (kinds & 2) != 0;
        long set = 64 * 1024;
        // may be paced as stores are: blocks of up to 32 bytes
        for (int width : new int[] {1, 2, 3, 4, 7, 8, 12, 16, 20, 28, 32, 40}) {
            for (long stride : new long[] {set, -set, 2 * set}) {
                int n = 5;
                long so = 3 + (stride < 0 ? -stride * (n - 1) : 0);
                Memory s = filled(srcOff, (int) (so + Math.abs(stride) * n + 8), 7);
                Memory expected = filled(dstOff, width * n + 8, 1);
                Memory got = filled(dstOff, width * n + 8, 1);
                reference(s, so, 0, 0, stride, expected, 5, 0, 0, width, width, 1, 1, n);
                MemoryAccess.strided(s, so, stride, got, 5, width, width, n);
                assertThat(bytes(got))
                        .as("strided width %d stride %d", width, stride)
                        .isEqualTo(bytes(expected));
                if (MemoryAccess.mayPace(stride, width)) {
                    // paced and plain (OneSetPacing's strategies): the same bytes
                    long[] src = {0, 0, stride};
                    long[] dst = {0, 0, width};
                    assertBothStrategies(s, so, src, expected, 5, dst, width, 1, 1, n, "loads stride " + stride);
                }
            }
        }
    }

    /**
     * The paced loops' per-block call stays a call: {@code moveByCall}'s bytecode is larger than C2's
     * default limit for inlining a hot method (FreqInlineSize, 325 bytes), which is what makes it one.
     */
    @Test
    void theBlockCallIsTooLargeToInline() throws IOException {
        assertThat(codeLength(StridedLoopCode.class, "moveByCall")).isGreaterThan(325);
        assertThat(codeLength(StridedLoopCode.class, "move")).isLessThanOrEqualTo(325);
    }

    /** The length of the bytecode of {@code type}'s one method named {@code name}, read from its class file. */
    private static int codeLength(Class<?> type, String name) throws IOException {
        try (InputStream raw = type.getResourceAsStream(type.getSimpleName() + ".class");
                DataInputStream in = new DataInputStream(raw)) {
            in.skipNBytes(8);
            int n = in.readUnsignedShort();
            String[] utf8 = new String[n];
            for (int i = 1; i < n; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                    case 15 -> in.skipNBytes(3);
                    case 5, 6 -> {
                        in.skipNBytes(8);
                        i++;
                    }
                    default -> in.skipNBytes(4);
                }
            }
            in.skipNBytes(6);
            in.skipNBytes(2L * in.readUnsignedShort());
            int fields = in.readUnsignedShort();
            for (int f = 0; f < fields; f++) {
                in.skipNBytes(6);
                skipAttributes(in);
            }
            int methods = in.readUnsignedShort();
            for (int m = 0; m < methods; m++) {
                in.skipNBytes(2);
                String method = utf8[in.readUnsignedShort()];
                in.skipNBytes(2);
                int attributes = in.readUnsignedShort();
                for (int a = 0; a < attributes; a++) {
                    String attribute = utf8[in.readUnsignedShort()];
                    int length = in.readInt();
                    if (method.equals(name) && attribute.equals("Code")) {
                        in.skipNBytes(4);
                        return in.readInt();
                    }
                    in.skipNBytes(length);
                }
            }
        }
        throw new AssertionError(type + " has no method " + name);
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int n = in.readUnsignedShort();
        for (int a = 0; a < n; a++) {
            in.skipNBytes(2);
            in.skipNBytes(in.readInt());
        }
    }

    /**
     * {outer, inner} strides: a packed side (rows back to back), a transposed side (outer = width,
     * inner a multiple of it, so 16-byte blocks tile) or a random strided side; signs random.
     */
    private static long[] strides(Random r, int width, int n1, int n2, boolean packed) {
        if (packed) {
            return new long[] {(long) width * n1, width};
        }
        if (r.nextBoolean()) {
            long inner = (long) width * (n2 + r.nextInt(3)) * (r.nextInt(4) == 0 ? -1 : 1);
            return new long[] {width, inner};
        }
        long inner = (width + 4L * r.nextInt(3)) * (r.nextInt(4) == 0 ? -1 : 1);
        long outer = (Math.abs(inner) * n1 + 8L * r.nextInt(3)) * (r.nextInt(4) == 0 ? -1 : 1);
        return new long[] {outer, inner};
    }

    private static long span(long[] s, int width, int n1, int n2) {
        return (hi(s[0], n2, 0) - lo(s[0], n2)) + (hi(s[1], n1, width) - lo(s[1], n1)) + width;
    }

    /** Calls below {@link StridedLoops#HANDLE_BLOCKS} blocks are direct, the others go through the copy's handles: both move what a byte loop moves. */
    @ParameterizedTest(name = "kinds {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void callsOnBothSidesOfTheHandleThresholdMoveWhatAByteLoopMoves(int kinds) {
        boolean srcOff = (kinds & 1) != 0;
        boolean dstOff = (kinds & 2) != 0;
        int h = StridedLoops.HANDLE_BLOCKS;
        for (int n : new int[] {h - 1, h, 3 * h + 1}) {
            for (int width : new int[] {3, 16, 24, 200}) {
                long stride = width + 5;
                Memory s = filled(srcOff, (int) (stride * n + 16), 7);
                int dstBytes = width * n + 16;

                Memory expected = filled(dstOff, dstBytes, 1);
                Memory got = filled(dstOff, dstBytes, 1);
                reference(s, 3, 0, 0, stride, expected, 5, 0, 0, width, width, 1, 1, n);
                MemoryAccess.strided(s, 3, stride, got, 5, width, width, n);
                assertThat(bytes(got)).as("strided %d blocks of %d", n, width).isEqualTo(bytes(expected));

                // planes: one plane of n rows of one block
                Memory got3 = filled(dstOff, dstBytes, 1);
                MemoryAccess.strided3(s, 3, 0, stride, 0, got3, 5, 0, width, 0, width, 1, n, 1);
                assertThat(bytes(got3)).as("strided3 %d blocks of %d", n, width).isEqualTo(bytes(expected));

                // listed blocks, in reverse order: gathered, then scattered back
                long[] offsets = new long[n];
                for (int b = 0; b < n; b++) {
                    offsets[b] = 3 + (n - 1 - b) * stride;
                }
                Memory user = filled(srcOff, (int) (stride * n + 16), 7);
                Memory packed = filled(dstOff, dstBytes, 1);
                Memory expectedPacked = filled(dstOff, dstBytes, 1);
                for (int b = 0; b < n; b++) {
                    reference(user, offsets[b], 0, 0, 0, expectedPacked, 5 + (long) b * width, 0, 0, 0, width, 1, 1, 1);
                }
                ListedAccess.blocks(user, 0, offsets, null, width, 0, n, packed, 5, true);
                assertThat(bytes(packed))
                        .as("listed gather %d blocks of %d", n, width)
                        .isEqualTo(bytes(expectedPacked));
                Memory back = filled(srcOff, (int) (stride * n + 16), 2);
                Memory expectedBack = filled(srcOff, (int) (stride * n + 16), 2);
                for (int b = 0; b < n; b++) {
                    reference(packed, 5 + (long) b * width, 0, 0, 0, expectedBack, offsets[b], 0, 0, 0, width, 1, 1, 1);
                }
                ListedAccess.blocks(back, 0, offsets, null, width, 0, n, packed, 5, false);
                assertThat(bytes(back))
                        .as("listed scatter %d blocks of %d", n, width)
                        .isEqualTo(bytes(expectedBack));
            }
        }
    }

    @Test
    void aTransposeWithLeftoverRowsRoundTrips() {
        // FFT columns: 7 rows (one tile of 4 and 3 leftover rows) of 33 complex doubles at a 7-element row.
        int rows = 7;
        int cols = 33;
        long row = 16L * rows;
        Memory user = filled(true, (int) (row * cols), 3);
        Memory packed = memory(false, rows * cols * 16);
        MemoryAccess.strided3(user, 0, 0, 16, row, packed, 0, 0, 16L * cols, 16, 16, 1, rows, cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                assertThat(packed.getLong((i * cols + j) * 16L + 8)).isEqualTo(user.getLong(j * row + i * 16L + 8));
            }
        }
        Memory back = memory(true, (int) (row * cols));
        MemoryAccess.strided3(packed, 0, 0, 16L * cols, 16, back, 0, 0, 16, row, 16, 1, rows, cols);
        assertThat(bytes(back)).isEqualTo(bytes(user));
    }

    @Test
    void eachCombinationOfMemoryKindsAndWidthHasItsOwnCopyAndWiderBlocksShareOne() {
        Set<Class<?>> classes = new HashSet<>();
        byte[] heap = new byte[8];
        long[] widths = {1, 3, 4, 7, 8, 12, 20, 24, 28, 40, 63, 64, 65, 100, 128, 129, 4096};
        for (Object src : new Object[] {heap, null}) {
            for (Object dst : new Object[] {heap, null}) {
                for (long w : widths) {
                    StridedLoops loops = StridedLoops.of(src, dst, w, false, false);
                    assertThat(loops).isSameAs(StridedLoops.of(src, dst, w, false, false));
                    classes.add(loops.getClass());
                    if (GeneratedKernel.ENABLED) {
                        assertThat(loops.getClass().isHidden()).isTrue();
                    }
                }
                StridedLoops bulk = StridedLoops.of(src, dst, 4096, false, false);
                assertThat(StridedLoops.of(src, dst, 129, false, false)).isSameAs(bulk);
                // blocks that may share one cache set: word moves up to a line, bulk copies above
                assertThat(StridedLoops.of(src, dst, 64, true, false))
                        .isSameAs(StridedLoops.of(src, dst, 64, false, false));
                assertThat(StridedLoops.of(src, dst, 65, true, false)).isSameAs(bulk);
                // stores into one set: word moves up to four words, bulk copies above
                assertThat(StridedLoops.of(src, dst, 32, true, true))
                        .isSameAs(StridedLoops.of(src, dst, 32, false, false));
                assertThat(StridedLoops.of(src, dst, 33, true, true)).isSameAs(bulk);
                assertThat(StridedLoops.of(src, dst, 33, false, true)).isSameAs(bulk);
            }
        }
        // 15 widths up to 128 bytes and one copy for the two wider ones, per combination of kinds
        assertThat(classes).hasSize(GeneratedKernel.ENABLED ? 4 * 16 : 1);
    }
}
