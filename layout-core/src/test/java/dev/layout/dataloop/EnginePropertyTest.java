package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.TypeSignature;
import dev.layout.memory.Memory;
import dev.layout.testing.Buffers;
import dev.layout.testing.RandomTypes;
import dev.layout.testing.TypeMaps;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Algebraic laws of the engine against the naive type-map interpreter, on random nested types. */
class EnginePropertyTest {

    @Provide
    Arbitrary<Datatype> types() {
        return RandomTypes.types(4, 4096);
    }

    @Property(tries = 400)
    void packEqualsTypeMapInterpreter(
            @ForAll("types") Datatype t, @ForAll @IntRange(min = 1, max = 3) int count, @ForAll long seed) {
        Buffers b = Buffers.around(t, count, 5, seed);
        byte[] engine = Packing.pack(t, count, b.bytes(), b.origin());
        assertThat(engine).as(t.toString()).isEqualTo(TypeMaps.naivePack(t, count, b.bytes(), b.origin(), false));
    }

    @Property(tries = 300)
    void external32EqualsByteSwappedTypeMap(
            @ForAll("types") Datatype t, @ForAll @IntRange(min = 1, max = 3) int count, @ForAll long seed) {
        Buffers b = Buffers.around(t, count, 3, seed);
        byte[] engine = Packing.packExternal32(t, count, b.bytes(), b.origin());
        assertThat(engine).as(t.toString()).isEqualTo(TypeMaps.naivePack(t, count, b.bytes(), b.origin(), true));
    }

    @Property(tries = 300)
    void chunkedPackInRandomOrderEqualsWholePack(
            @ForAll("types") Datatype t,
            @ForAll @IntRange(min = 1, max = 3) int count,
            @ForAll long seed,
            @ForAll("representations") Representation rep) {
        Buffers b = Buffers.around(t, count, 2, seed);
        Memory user = Memory.ofArray(b.bytes());
        Segment whole = rep == Representation.NATIVE
                ? Segment.of(t, count, user, b.origin())
                : Segment.external32(t, count, user, b.origin());
        byte[] expect = new byte[(int) whole.byteSize()];
        whole.pack(Memory.ofArray(expect), 0, expect.length);

        Random r = new Random(seed);
        List<long[]> chunks = new ArrayList<>();
        for (long at = 0; at < expect.length; ) {
            long len = Math.min(expect.length - at, 1 + r.nextInt(Math.max(1, expect.length / 3 + 1)));
            chunks.add(new long[] {at, len});
            at += len;
        }
        Collections.shuffle(chunks, r);
        byte[] got = new byte[expect.length];
        Segment s = rep == Representation.NATIVE
                ? Segment.of(t, count, user, b.origin())
                : Segment.external32(t, count, user, b.origin());
        for (long[] c : chunks) {
            s.seek(c[0]);
            assertThat(s.pack(Memory.ofArray(got), c[0], c[1])).isEqualTo(c[1]);
            assertThat(s.position()).isEqualTo(c[0] + c[1]);
        }
        assertThat(got).as(t.toString()).isEqualTo(expect);
    }

    @Property(tries = 300)
    void unpackOfPackRestoresExactlyTheTypeMapBytes(
            @ForAll("types") Datatype t,
            @ForAll @IntRange(min = 1, max = 3) int count,
            @ForAll long seed,
            @ForAll("representations") Representation rep) {
        long[] offsets = TypeMaps.byteOffsets(t, count);
        long[] sorted = offsets.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            Assume.that(sorted[i] != sorted[i - 1]); // overlapping types are pack-only
        }
        Buffers b = Buffers.around(t, count, 4, seed);
        byte[] packed = rep == Representation.NATIVE
                ? Packing.pack(t, count, b.bytes(), b.origin())
                : Packing.packExternal32(t, count, b.bytes(), b.origin());
        byte[] dst = new byte[b.bytes().length];
        Arrays.fill(dst, (byte) 0x5A);
        Segment s = rep == Representation.NATIVE
                ? Segment.of(t, count, Memory.ofArray(dst), b.origin())
                : Segment.external32(t, count, Memory.ofArray(dst), b.origin());
        Random r = new Random(seed);
        while (s.remaining() > 0) {
            long at = s.position();
            long len = Math.min(s.remaining(), 1 + r.nextInt(64));
            s.unpack(Memory.ofArray(packed), at, len);
        }
        byte[] expect = new byte[dst.length];
        Arrays.fill(expect, (byte) 0x5A);
        for (long o : offsets) {
            expect[(int) (b.origin() + o)] = b.bytes()[(int) (b.origin() + o)];
        }
        assertThat(dst).as(t.toString()).isEqualTo(expect);
    }

    @Property(tries = 300)
    void flattenCoversExactlyTheTypeMapInOrder(
            @ForAll("types") Datatype t,
            @ForAll @IntRange(min = 1, max = 3) int count,
            @ForAll @LongRange(min = 1, max = 5) long maxPieces) {
        long[] expect = TypeMaps.byteOffsets(t, count);
        Segment s = Segment.layout(t, count);
        long[] got = new long[expect.length];
        int p = 0;
        Piece previous = null;
        while (s.remaining() > 0) {
            List<Piece> pieces = s.flatten((int) maxPieces);
            assertThat(pieces).isNotEmpty().hasSizeLessThanOrEqualTo((int) maxPieces);
            for (Piece piece : pieces) {
                if (previous != null && pieces.indexOf(piece) > 0) {
                    assertThat(previous.offset() + previous.length())
                            .as("adjacent pieces are merged")
                            .isNotEqualTo(piece.offset());
                }
                for (long k = 0; k < piece.length(); k++) {
                    got[p++] = piece.offset() + k;
                }
                previous = piece;
            }
        }
        assertThat(got).as(t.toString()).isEqualTo(expect);
    }

    @Property(tries = 300)
    void signatureIsTheRunLengthCodeOfTheTypeMap(
            @ForAll("types") Datatype t, @ForAll @IntRange(min = 0, max = 3) int count) {
        List<TypeSignature.Run> expect = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            for (TypeMaps.Entry e : TypeMaps.typeMap(t)) {
                if (!expect.isEmpty() && expect.get(expect.size() - 1).primitive() == e.primitive()) {
                    TypeSignature.Run last = expect.remove(expect.size() - 1);
                    expect.add(new TypeSignature.Run(last.primitive(), last.count() + 1));
                } else {
                    expect.add(new TypeSignature.Run(e.primitive(), 1));
                }
            }
        }
        assertThat(TypeSignature.of(t, count).runs()).as(t.toString()).isEqualTo(expect);
    }

    /**
     * Yaksa's cross-layout check: pack with type A, unpack with a different type B of the same
     * signature (A's primitives scattered at other displacements), pack with B again: same bytes.
     */
    @Property(tries = 300)
    void packWithOneLayoutUnpackWithAnotherOfTheSameSignature(@ForAll("types") Datatype a, @ForAll long seed) {
        List<TypeMaps.Entry> map = TypeMaps.typeMap(a);
        Assume.that(!map.isEmpty());
        Random r = new Random(seed);
        long[] bl = new long[map.size()];
        long[] disp = new long[map.size()];
        List<Datatype> types = new ArrayList<>();
        long at = r.nextInt(5);
        for (int i = 0; i < map.size(); i++) {
            bl[i] = 1;
            disp[i] = at;
            types.add(map.get(i).primitive());
            at += map.get(i).primitive().byteSize() + r.nextInt(3);
        }
        Datatype b = Datatype.struct(bl, disp, types);
        assertThat(TypeSignature.of(b)).isEqualTo(TypeSignature.of(a));
        Buffers src = Buffers.around(a, 1, 2, seed);
        byte[] packedA = Packing.pack(a, 1, src.bytes(), src.origin());
        byte[] dst = new byte[(int) b.trueUb() + 4];
        Packing.unpack(b, 1, packedA, dst, 0);
        assertThat(Packing.pack(b, 1, dst, 0)).isEqualTo(packedA);
        byte[] ext = Packing.packExternal32(a, 1, src.bytes(), src.origin());
        byte[] dst2 = new byte[dst.length];
        Packing.unpackExternal32(b, 1, Memory.ofArray(ext), 0, Memory.ofArray(dst2), 0);
        assertThat(dst2).isEqualTo(dst);
    }

    @Provide
    Arbitrary<Representation> representations() {
        return net.jqwik.api.Arbitraries.of(Representation.class);
    }
}
