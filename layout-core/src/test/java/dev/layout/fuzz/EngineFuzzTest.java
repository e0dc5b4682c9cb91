package dev.layout.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.layout.dataloop.Packing;
import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Distribution;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzzes type construction and the engine together: a type built from fuzzed constructor
 * arguments (any values, valid or not), a fuzzed count, buffer size and origin. Construction may
 * only fail with IllegalArgumentException; the engine may only refuse with IndexOutOfBounds or
 * IllegalArgument before touching memory, and when it runs, pack/unpack/flatten must agree with
 * each other and never write outside the type map (the guard bytes around the buffer survive).
 */
class EngineFuzzTest {
    @FuzzTest(maxDuration = "2m")
    void packUnpackFlatten(FuzzedDataProvider data) {
        Datatype t;
        try {
            t = type(data, 3);
        } catch (IllegalArgumentException expected) {
            return;
        }
        long count = data.consumeLong(-2, 4);
        int size = data.consumeInt(0, 4096);
        long origin = data.consumeLong(-64, 4096);
        byte[] src = data.consumeBytes(size);
        src = Arrays.copyOf(src, size);
        if (t.byteSize() > 1 << 16 || Math.abs(count) * t.byteSize() > 1 << 16) {
            return;
        }
        byte[] packed;
        try {
            packed = Packing.pack(t, count, src, origin);
        } catch (IndexOutOfBoundsException | IllegalArgumentException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        assertThat((long) packed.length).isEqualTo(t.byteSize() * count);
        // unpack into a copy with guard bytes, then pack again: the same bytes come back
        byte[] guarded = new byte[src.length + 32];
        Arrays.fill(guarded, (byte) 0x77);
        Packing.unpack(t, count, Memory.ofArray(packed), 0, Memory.ofArray(guarded), origin + 16);
        for (int i = 0; i < 16; i++) {
            assertThat(guarded[i]).isEqualTo((byte) 0x77);
            assertThat(guarded[guarded.length - 1 - i]).isEqualTo((byte) 0x77);
        }
        // flatten covers exactly size*count bytes inside the buffer
        long covered = 0;
        Segment s = Segment.layout(t, count);
        while (s.remaining() > 0) {
            for (Piece p : s.flatten(1024)) {
                assertThat(origin + p.offset()).isBetween(0L, (long) src.length);
                assertThat(origin + p.offset() + p.length()).isLessThanOrEqualTo(src.length);
                covered += p.length();
            }
        }
        assertThat(covered).isEqualTo(packed.length);
        // a segmented pack in two pieces equals the whole
        if (packed.length > 1) {
            long cut = data.consumeLong(0, packed.length);
            Segment seg = Segment.of(t, count, Memory.ofArray(src), origin);
            byte[] again = new byte[packed.length];
            seg.seek(cut);
            seg.pack(Memory.ofArray(again), cut, packed.length);
            seg.seek(0);
            seg.pack(Memory.ofArray(again), 0, cut);
            assertThat(again).isEqualTo(packed);
        }
    }

    /** A type from fuzzed arguments: any values, so invalid ones exercise the factories' checks. */
    static Datatype type(FuzzedDataProvider d, int depth) {
        if (depth == 0 || d.remainingBytes() < 4 || d.consumeInt(0, 5) == 0) {
            return d.pickValue(Primitive.values());
        }
        Datatype old = type(d, depth - 1);
        switch (d.consumeInt(0, 10)) {
            case 0:
                return Datatype.contiguous(d.consumeLong(-2, 8), old);
            case 1:
                return Datatype.vector(d.consumeLong(-1, 6), d.consumeLong(-1, 4), d.consumeLong(-8, 8), old);
            case 2:
                return Datatype.hvector(d.consumeLong(-1, 6), d.consumeLong(-1, 4), d.consumeLong(-100, 100), old);
            case 3:
                return Datatype.indexed(longs(d, -1, 4), longs(d, -8, 16), old);
            case 4:
                return Datatype.hindexed(longs(d, -1, 4), longs(d, -64, 128), old);
            case 5:
                return Datatype.indexedBlock(d.consumeLong(-1, 4), longs(d, -8, 16), old);
            case 6:
                return Datatype.hindexedBlock(d.consumeLong(-1, 4), longs(d, -64, 128), old);
            case 7: {
                List<Datatype> types = new ArrayList<>();
                int n = d.consumeInt(0, 3);
                for (int i = 0; i < n; i++) {
                    types.add(i == 0 ? old : type(d, depth - 1));
                }
                return Datatype.struct(longs(d, -1, 3), longs(d, -64, 128), types);
            }
            case 8:
                return Datatype.subarray(
                        longs(d, -1, 5), longs(d, -1, 5), longs(d, -1, 5), d.pickValue(Order.values()), old);
            case 9: {
                int n = d.consumeInt(0, 3);
                Distribution[] ds = new Distribution[n];
                for (int i = 0; i < n; i++) {
                    ds[i] = d.pickValue(Distribution.values());
                }
                long[] dargs = longs(d, -2, 3);
                for (int i = 0; i < dargs.length; i++) {
                    if (dargs[i] == -2) {
                        dargs[i] = Datatype.DEFAULT_DARG;
                    }
                }
                return Datatype.darray(
                        d.consumeLong(-1, 8),
                        d.consumeLong(-1, 8),
                        longs(d, -1, 6),
                        ds,
                        dargs,
                        longs(d, -1, 3),
                        d.pickValue(Order.values()),
                        old);
            }
            default:
                return Datatype.resized(d.consumeLong(-32, 32), d.consumeLong(-32, 64), old);
        }
    }

    private static long[] longs(FuzzedDataProvider d, long lo, long hi) {
        int n = d.consumeInt(0, 4);
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = d.consumeLong(lo, hi);
        }
        return a;
    }
}
