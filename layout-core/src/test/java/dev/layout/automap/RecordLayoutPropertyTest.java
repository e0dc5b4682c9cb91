package dev.layout.automap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.dataloop.Packing;
import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class RecordLayoutPropertyTest {
    record Inner(short s, double d) {}

    record Sample(
            byte b,
            int i,
            Inner inner,
            @LayoutField(length = 3) long[] ls,
            char c,
            float f,
            boolean z) {}

    @Provide
    Arbitrary<Sample> samples() {
        Arbitrary<Inner> inner =
                Combinators.combine(Arbitraries.shorts(), Arbitraries.doubles()).as(Inner::new);
        return Combinators.combine(
                        Arbitraries.bytes(),
                        Arbitraries.integers(),
                        inner,
                        Arbitraries.longs().array(long[].class).ofSize(3),
                        Arbitraries.chars(),
                        Arbitraries.floats(),
                        Arbitraries.of(true, false))
                .as(Sample::new);
    }

    private static boolean same(Sample a, Sample b) {
        return a.b() == b.b()
                && a.i() == b.i()
                && a.inner().equals(b.inner())
                && java.util.Arrays.equals(a.ls(), b.ls())
                && a.c() == b.c()
                && Float.compare(a.f(), b.f()) == 0
                && a.z() == b.z();
    }

    @Property(tries = 200)
    void writeThenReadIsIdentity(@ForAll("samples") Sample s, @ForAll @IntRange(max = 40) int offset) {
        for (Alignment a : Alignment.values()) {
            RecordLayout<Sample> l = RecordLayouts.of(Sample.class, a);
            Memory m = Memory.ofArray(new byte[offset + (int) l.extent()]);
            l.write(s, m, offset);
            assertThat(same(l.read(m, offset), s)).isTrue();
        }
    }

    /** The codec writes exactly the bytes the datatype describes: packing them gives the fields in order, packed. */
    @Property(tries = 200)
    void packedBytesAreTheFieldsInOrder(@ForAll("samples") Sample s) {
        for (Alignment a : Alignment.values()) {
            RecordLayout<Sample> l = RecordLayouts.of(Sample.class, a);
            Memory m = Memory.ofArray(new byte[(int) l.extent()]);
            l.write(s, m, 0);
            byte[] packed = Packing.pack(l.datatype(), 1, m.toArray(0, (int) l.extent()), 0);
            ByteBuffer bb = ByteBuffer.wrap(packed).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(bb.get()).isEqualTo(s.b());
            assertThat(bb.getInt()).isEqualTo(s.i());
            assertThat(bb.getShort()).isEqualTo(s.inner().s());
            assertThat(Double.doubleToRawLongBits(bb.getDouble()))
                    .isEqualTo(Double.doubleToRawLongBits(s.inner().d()));
            for (long v : s.ls()) {
                assertThat(bb.getLong()).isEqualTo(v);
            }
            assertThat(bb.getChar()).isEqualTo(s.c());
            assertThat(Float.floatToRawIntBits(bb.getFloat())).isEqualTo(Float.floatToRawIntBits(s.f()));
            assertThat(bb.get()).isEqualTo((byte) (s.z() ? 1 : 0));
            assertThat(bb.hasRemaining()).isFalse();
        }
    }

    @Property(tries = 50)
    void arraysRoundTrip(@ForAll("samples") Sample s, @ForAll @IntRange(max = 20) int count) {
        RecordLayout<Sample> l = RecordLayouts.of(Sample.class);
        Sample[] in = new Sample[count];
        java.util.Arrays.fill(in, s);
        Memory m = Memory.ofArray(new byte[(int) l.footprint(count)]);
        l.writeArray(in, 0, count, m, 0);
        Sample[] out = l.readArray(m, 0, count);
        for (Sample o : out) {
            assertThat(same(o, s)).isTrue();
        }
    }
}
