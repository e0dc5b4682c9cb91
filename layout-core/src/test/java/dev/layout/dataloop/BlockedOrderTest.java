package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Strided nests whose outer loop has the finest user stride (Flash I/O's variables) run in a
 * cache-blocked order ({@link BlockedOrder}) and still pack exactly the bytes of the packed order,
 * and unpack them to the same places; overlapping nests unpack in packed order (the last write
 * wins). References are built from {@link Segment#flatten}, which never reorders.
 */
class BlockedOrderTest {
    /** The Flash I/O type of the benchmark suite with {@code blocks} 16^3 blocks (80 in the paper). */
    private static Datatype flash(int blocks) {
        Datatype x = Datatype.vector(8, 1, 24, Primitive.FLOAT64);
        Datatype y = Datatype.hvector(8, 1, 3072, x);
        Datatype z = Datatype.hvector(8, 1, 49152, y);
        Datatype b = Datatype.hvector(blocks, 1, 786432, z);
        return Datatype.hvector(24, 1, 8, b);
    }

    private static Memory memory(boolean offHeap, int n) {
        return offHeap ? Memory.ofBuffer(ByteBuffer.allocateDirect(n)).slice(0, n) : Memory.ofArray(new byte[n]);
    }

    @Test
    void flashIoMovesItsVariableLoopInsideEachBlock() {
        Dataloop d = DataloopCompiler.compileCount(flash(4), 1, Representation.NATIVE);
        BlockedOrder order = BlockedOrder.of(d, 128 * 1024); // a budget of one block's cells and a few more
        assertThat(order).as("blocked order of %s", d.toTreeString()).isNotNull();
        // For each of the 4 blocks, for each of the 24 variables: the block's 8^3 interior (4096 packed bytes).
        assertThat(order.loops()).extracting(BlockedOrder.Dim::count).containsExactly(4L, 24L);
        assertThat(order.loops()).extracting(BlockedOrder.Dim::user).containsExactly(786432L, 8L);
        assertThat(order.loops()).extracting(BlockedOrder.Dim::packed).containsExactly(4096L, 4 * 4096L);
        assertThat(order.inner().size).isEqualTo(4096);
        assertThat(order.disjoint()).isTrue();
        // A budget too small for one block's cells blocks at a finer level; none at all turns it off.
        BlockedOrder fine = BlockedOrder.of(d, 16 * 1024);
        assertThat(fine).isNotNull();
        assertThat(fine.loops()).extracting(BlockedOrder.Dim::count).containsExactly(4L, 8L, 24L);
        assertThat(fine.inner().size).isEqualTo(512);
        assertThat(BlockedOrder.of(d, 0)).isNull();
    }

    @Test
    void twoFieldsAndNarrowBlocksAreLeftInPackedOrder() {
        // Complex split into real and imaginary parts; RGBA bytes to planes: blocking did not pay there.
        Datatype split = Datatype.hvector(2, 1, 8, Datatype.vector(1 << 20, 1, 2, Primitive.FLOAT64));
        Datatype rgba = Datatype.hvector(4, 1, 1, Datatype.vector(1 << 22, 1, 4, Primitive.UINT8));
        Datatype rgb = Datatype.hvector(3, 1, 4, Datatype.vector(1 << 21, 1, 3, Primitive.FLOAT32));
        assertThat(BlockedOrder.of(
                        DataloopCompiler.compileCount(split, 1, Representation.NATIVE), KernelCost.CACHE_BYTES))
                .isNull();
        assertThat(BlockedOrder.of(
                        DataloopCompiler.compileCount(rgba, 1, Representation.NATIVE), KernelCost.CACHE_BYTES))
                .isNull();
        BlockedOrder planes =
                BlockedOrder.of(DataloopCompiler.compileCount(rgb, 1, Representation.NATIVE), KernelCost.CACHE_BYTES);
        assertThat(planes).isNotNull();
        assertThat(planes.chunkLoop()).isZero();
        assertThat(planes.moved().count()).isEqualTo(3);
    }

    @Test
    void nestsAlreadyInUserOrderAreLeftAlone() {
        long[] sizes = {64, 64, 64};
        Datatype face =
                Datatype.subarray(sizes, new long[] {64, 2, 64}, new long[] {0, 31, 0}, Order.C, Primitive.FLOAT32);
        Datatype block =
                Datatype.subarray(sizes, new long[] {40, 40, 40}, new long[] {4, 4, 4}, Order.C, Primitive.FLOAT64);
        for (Datatype t : List.of(face, block, Datatype.vector(100000, 1, 3, Primitive.FLOAT64))) {
            Dataloop d = DataloopCompiler.compileCount(t, 1, Representation.NATIVE);
            assertThat(BlockedOrder.of(d, KernelCost.CACHE_BYTES)).as("%s", t).isNull();
        }
    }

    /**
     * Fields that overlap the next record (4-byte fields every 4 bytes, records every 8): a blocked
     * order would write the records of one group before the next group's, so a byte shared across a
     * group boundary would keep the wrong field. Pack runs blocked; unpack keeps the packed order.
     */
    @ParameterizedTest(name = "user off-heap {0}, packed off-heap {1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    void overlappingRecordsUnpackInPackedOrder(boolean userOff, boolean packedOff) {
        Datatype t = Datatype.hvector(4, 1, 4, Datatype.hvector(5000, 1, 8, Primitive.INT32));
        BlockedOrder order =
                BlockedOrder.of(DataloopCompiler.compileCount(t, 1, Representation.NATIVE), KernelCost.CACHE_BYTES);
        assertThat(order).isNotNull();
        assertThat(order.chunkLoop()).as("records in groups").isZero();
        assertThat(order.disjoint()).isFalse();
        check(t, 1, 8, userOff, packedOff, new Random(3));
    }

    /**
     * Transposes by column types (a column resized to one element, a count of columns): the budget cuts
     * the rows into short runs, so the nest keeps its packed order ({@link BlockedOrder#MIN_RUN}), and
     * packs and unpacks the right bytes.
     */
    @ParameterizedTest(name = "user off-heap {0}, packed off-heap {1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    void transposesKeepThePackedOrder(boolean userOff, boolean packedOff) {
        Random r = new Random(17 + (userOff ? 1 : 0) + (packedOff ? 2 : 0));
        Datatype complex = Datatype.contiguous(2, Primitive.FLOAT64);
        for (Datatype element : List.of(Primitive.FLOAT32, Primitive.FLOAT64, complex)) {
            long w = element.byteSize();
            int cols = 1100 + r.nextInt(1000);
            int rows = 40 + r.nextInt(60);
            Datatype column = Datatype.resized(0, w, Datatype.vector(rows, 1, cols, element));
            Dataloop d = DataloopCompiler.compileCount(column, cols, Representation.NATIVE);
            assertThat(BlockedOrder.of(d, KernelCost.CACHE_BYTES))
                    .as("%d columns of %d x %d-byte", cols, rows, w)
                    .isNull();
            // a budget for runs of MIN_RUN + 1 rows (of 528 bytes, enough for a call of their own) blocks it
            long sweep = (cols - 1) * w + w;
            BlockedOrder order = BlockedOrder.of(d, (BlockedOrder.MIN_RUN + 1) * ((sweep + 63) / 64 * 64));
            if (w == 16 && rows > BlockedOrder.MIN_RUN + 1) {
                assertThat(order)
                        .as("%d rows, a budget for runs of %d", rows, BlockedOrder.MIN_RUN + 1)
                        .isNotNull();
                assertThat(order.chunk()).isEqualTo(BlockedOrder.MIN_RUN + 1);
            }
            check(column, cols, 8, userOff, packedOff, r);
        }
    }

    @ParameterizedTest(name = "user off-heap {0}, packed off-heap {1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    void flashIoPacksAndUnpacksTheBytesOfThePackedOrder(boolean userOff, boolean packedOff) {
        check(flash(4), 1, 209664, userOff, packedOff, new Random(11));
    }

    /**
     * Random nests: an outer loop of records' fields (stride one field, sometimes less, so fields
     * overlap), over two or three loops of records, some with two records per block, some nested in a
     * resized subarray (a displacement between levels), counts 1-3 of the whole.
     */
    @ParameterizedTest(name = "user off-heap {0}, packed off-heap {1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    void randomNestsPackAndUnpackTheBytesOfThePackedOrder(boolean userOff, boolean packedOff) {
        Random r = new Random(41 + (userOff ? 1 : 0) + (packedOff ? 2 : 0));
        int blocked = 0;
        int overlapping = 0;
        for (int trial = 0; trial < 24; trial++) {
            // Mostly blocks of 4 and 8 bytes (the ones that run blocked); some narrower ones and two-field
            // records, which stay in packed order, for the walk around them.
            Primitive p =
                    switch (r.nextInt(6)) {
                        case 0, 1 -> Primitive.FLOAT32;
                        case 2, 3 -> Primitive.FLOAT64;
                        case 4 -> Primitive.INT16;
                        default -> Primitive.INT8;
                    };
            long w = p.byteSize();
            int fields = r.nextInt(8) == 0 ? 2 : 3 + r.nextInt(19);
            long fieldStride = r.nextInt(6) == 0 ? Math.max(1, w / 2) : w * (1 + r.nextInt(2));
            long record = fields * fieldStride + w * r.nextInt(3);
            int c1 = 4 + r.nextInt(29);
            long s1 = record * (1 + r.nextInt(2));
            Datatype inner;
            if (r.nextBoolean()) {
                Datatype row = Datatype.hvector(c1, 1, s1, p);
                int c2 = 4 + r.nextInt(29);
                long s2 = c1 * s1 + record * r.nextInt(4);
                int blocklen = 1 + r.nextInt(2);
                Datatype plane = Datatype.hvector(c2, 1, s2, row);
                // Enough records that one pass over them does not fit the cache budget (else nothing moves).
                long sweep = Math.max(64, fields * fieldStride);
                int c3 = (int) Math.min(64, Math.max(2, 2 * KernelCost.CACHE_BYTES / (c1 * c2 * sweep) + r.nextInt(3)));
                inner = Datatype.hvector(
                        c3, blocklen, (c2 * s2) * (blocklen + r.nextInt(2)), Datatype.resized(0, c2 * s2, plane));
            } else {
                // A subarray of records: its dataloop starts at a displacement.
                Datatype rec = Datatype.resized(0, record, p);
                long sweep = Math.max(64, fields * fieldStride);
                long sub = (long) Math.ceil(Math.cbrt(2.0 * KernelCost.CACHE_BYTES / sweep)) + r.nextInt(3);
                long n = sub + r.nextInt(5);
                long start = r.nextInt((int) (n - sub) + 1);
                inner = Datatype.subarray(
                        new long[] {n, n, n},
                        new long[] {sub, sub, sub},
                        new long[] {start, start, start},
                        Order.C,
                        rec);
            }
            Datatype t = Datatype.hvector(fields, 1, fieldStride, inner);
            int count = 1 + (r.nextInt(3) == 0 ? r.nextInt(3) : 0);
            Dataloop d = DataloopCompiler.compileCount(t, count, Representation.NATIVE);
            BlockedOrder order = d == null ? null : BlockedOrder.of(d, KernelCost.CACHE_BYTES);
            if (order != null) {
                blocked++;
                overlapping += order.disjoint() ? 0 : 1;
            }
            check(t, count, 8, userOff, packedOff, r);
        }
        assertThat(blocked).as("nests run blocked").isGreaterThanOrEqualTo(8);
        assertThat(overlapping)
                .as("overlapping nests run blocked (pack) and in packed order (unpack)")
                .isGreaterThanOrEqualTo(1);
    }

    /** Whole-segment pack and unpack of {@code count} x {@code t} at {@code origin} against references built from the flattened runs. */
    private static void check(Datatype t, int count, long origin, boolean userOff, boolean packedOff, Random r) {
        long span = origin + t.trueUb() + (count - 1) * t.extent() + 16;
        int userBytes = (int) span;
        Memory user = memory(userOff, userBytes);
        for (int b = 0; b < userBytes; b++) {
            user.putByte(b, (byte) r.nextInt());
        }
        int packedBytes = (int) (t.byteSize() * count);
        List<Piece> runs = Segment.layout(t, count).flatten(Integer.MAX_VALUE);
        byte[] expected = new byte[packedBytes];
        int at = 0;
        for (Piece run : runs) {
            for (long i = 0; i < run.length(); i++) {
                expected[at++] = user.getByte(origin + run.offset() + i);
            }
        }
        assertThat(at).isEqualTo(packedBytes);

        Memory packed = memory(packedOff, packedBytes);
        assertThat(Segment.of(t, count, user, origin).pack(packed, 0, packedBytes))
                .isEqualTo(packedBytes);
        assertThat(packed.toArray(0, packedBytes))
                .as("pack of %d x %s", count, t)
                .isEqualTo(expected);
        // In pieces (runs of the moved loop's iterations run blocked when it is the outermost loop).
        long[] cuts = cuts(packedBytes, r);
        Memory pieces = memory(packedOff, packedBytes);
        Segment s = Segment.of(t, count, user, origin);
        for (int i = 0; i + 1 < cuts.length; i++) {
            assertThat(s.pack(pieces, cuts[i], cuts[i + 1] - cuts[i])).isEqualTo(cuts[i + 1] - cuts[i]);
        }
        assertThat(pieces.toArray(0, packedBytes))
                .as("pack of %d x %s in pieces %s", count, t, java.util.Arrays.toString(cuts))
                .isEqualTo(expected);

        // Unpack reference: fresh packed bytes (so overlapping blocks carry different values), the runs
        // written in packed order onto a patterned buffer (a later run overwrites an earlier one).
        for (int b = 0; b < packedBytes; b++) {
            expected[b] = (byte) r.nextInt();
            packed.putByte(b, expected[b]);
        }
        byte[] want = new byte[userBytes];
        for (int b = 0; b < userBytes; b++) {
            want[b] = (byte) (b * 13 + 5);
        }
        Memory back = memory(userOff, userBytes);
        for (int b = 0; b < userBytes; b++) {
            back.putByte(b, want[b]);
        }
        int from = 0;
        for (Piece run : runs) {
            for (long i = 0; i < run.length(); i++) {
                want[(int) (origin + run.offset() + i)] = expected[from++];
            }
        }
        Memory back2 = memory(userOff, userBytes);
        Memory.copy(back, 0, back2, 0, userBytes);
        assertThat(Segment.of(t, count, back, origin).unpack(packed, 0, packedBytes))
                .isEqualTo(packedBytes);
        assertThat(back.toArray(0, userBytes)).as("unpack of %d x %s", count, t).isEqualTo(want);
        Segment u = Segment.of(t, count, back2, origin);
        for (int i = 0; i + 1 < cuts.length; i++) {
            assertThat(u.unpack(packed, cuts[i], cuts[i + 1] - cuts[i])).isEqualTo(cuts[i + 1] - cuts[i]);
        }
        assertThat(back2.toArray(0, userBytes))
                .as("unpack of %d x %s in pieces %s", count, t, java.util.Arrays.toString(cuts))
                .isEqualTo(want);
    }

    /** 0, two to six random cut points, {@code n}: piece boundaries anywhere, including inside blocks. */
    private static long[] cuts(int n, Random r) {
        int k = 2 + r.nextInt(5);
        long[] c = new long[k + 2];
        for (int i = 1; i <= k; i++) {
            c[i] = r.nextInt(n + 1);
        }
        c[k + 1] = n;
        java.util.Arrays.sort(c);
        return c;
    }
}
