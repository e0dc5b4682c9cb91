package dev.layout.automap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.dataloop.Packing;
import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
    record Point(double x, double y, int id) {}

    record Mixed(byte b, short s, char c, boolean flag, int i, float f, long l, double d) {}

    record Pen(@LayoutField(length = 5) byte[] brand, int content, long unitPrice) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Pen p
                    && Arrays.equals(brand, p.brand)
                    && content == p.content
                    && unitPrice == p.unitPrice;
        }

        @Override
        public int hashCode() {
            return content;
        }
    }

    record Polygon(
            @LayoutField(length = 2) Point[] corners,
            @LayoutField(length = 2) boolean[] flags,
            Point center) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Polygon p
                    && Arrays.equals(corners, p.corners)
                    && Arrays.equals(flags, p.flags)
                    && center.equals(p.center);
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    private static final class Hidden {
        @LayoutField(order = 1)
        private long b;

        @LayoutField(order = 0)
        private char a;

        @LayoutField(order = 2, length = 2)
        private double[] c;
    }

    @Test
    void writesTheBytesTheDatatypeDescribes() {
        RecordLayout<Point> l = RecordLayouts.of(Point.class);
        Memory m = Memory.ofArray(new byte[64]);
        l.write(new Point(1.5, -2.25, 7), m, 8);
        assertThat(m.getDouble(8)).isEqualTo(1.5);
        assertThat(m.getDouble(16)).isEqualTo(-2.25);
        assertThat(m.getInt(24)).isEqualTo(7);
        assertThat(l.read(m, 8)).isEqualTo(new Point(1.5, -2.25, 7));
        // The datatype packs the same data the codec wrote.
        byte[] packed = Packing.pack(l.datatype(), 1, m.toArray(8, 24), 0);
        assertThat(Memory.ofArray(packed).getInt(16)).isEqualTo(7);
    }

    @Test
    void roundTripsEveryPrimitiveKind() {
        for (Alignment a : Alignment.values()) {
            RecordLayout<Mixed> l = RecordLayouts.of(Mixed.class, a);
            Memory m = Memory.ofBuffer(ByteBuffer.allocateDirect(100));
            Mixed v = new Mixed(
                    (byte) -3, (short) -300, '\uFFFE', true, Integer.MIN_VALUE, Float.NaN, Long.MAX_VALUE, -0.0);
            l.write(v, m, 3);
            assertThat(l.read(m, 3)).isEqualTo(v);
            Mixed w = new Mixed((byte) 0, (short) 0, 'x', false, 0, 1f, 0, 2);
            l.write(w, m, 3);
            assertThat(l.read(m, 3)).isEqualTo(w);
        }
    }

    @Test
    void arraysOfRecords() {
        RecordLayout<Pen> l = RecordLayouts.of(Pen.class);
        Pen[] pens = new Pen[10];
        for (int i = 0; i < pens.length; i++) {
            pens[i] = new Pen(new byte[] {(byte) i, 1, 2, 3, 4}, i * 10, i * 1000L);
        }
        Memory m = Memory.ofArray(new byte[(int) l.footprint(10)]);
        l.writeArray(pens, 0, 10, m, 0);
        assertThat(m.getInt(l.extent() * 3 + 8)).isEqualTo(30);
        assertThat(l.readArray(m, 0, 10)).containsExactly(pens);
        List<Pen> list = List.of(pens);
        Memory m2 = Memory.ofArray(new byte[(int) l.footprint(10)]);
        assertThat(l.writeAll(list, m2, 0)).isEqualTo(l.footprint(10));
        assertThat(m2.toArray(0, (int) m2.byteSize())).isEqualTo(m.toArray(0, (int) m.byteSize()));
    }

    @Test
    void nestedRecordsAndRecordArrays() {
        RecordLayout<Polygon> l = RecordLayouts.of(Polygon.class);
        Polygon p = new Polygon(
                new Point[] {new Point(1, 2, 3), new Point(4, 5, 6)}, new boolean[] {true, false}, new Point(7, 8, 9));
        Memory m = Memory.ofArray(new byte[(int) l.extent()]);
        l.write(p, m, 0);
        assertThat(l.read(m, 0)).isEqualTo(p);
    }

    @Test
    void privateClassWithPrivateFields() {
        RecordLayout<Hidden> l = RecordLayouts.of(Hidden.class);
        assertThat(l.isGenerated()).isTrue();
        assertThat(l.datatype().toString()).isEqualTo("struct([1,1,2], [0,8,16], [uint16,int64,float64])");
        Hidden h = new Hidden();
        h.a = 'q';
        h.b = -5;
        h.c = new double[] {0.5, 0.25};
        Memory m = Memory.ofArray(new byte[32]);
        l.write(h, m, 0);
        Hidden r = l.read(m, 0);
        assertThat(r.a).isEqualTo('q');
        assertThat(r.b).isEqualTo(-5);
        assertThat(r.c).containsExactly(0.5, 0.25);
    }

    @Test
    void handleFallbackProducesTheSameBytes() throws Exception {
        RecordLayout<Polygon> gen = RecordLayouts.of(Polygon.class);
        List<FieldSpec> specs = null;
        RecordLayouts.generateCodecs = false;
        try {
            // A fresh class so the cache does not hand back the generated layout.
            record Fresh(
                    @LayoutField(length = 2) Point[] corners,
                    @LayoutField(length = 2) boolean[] flags,
                    Point center) {}
            RecordLayout<Fresh> slow = RecordLayouts.of(Fresh.class);
            assertThat(slow.isGenerated()).isFalse();
            assertThat(slow.datatype()).isEqualTo(gen.datatype());
            Polygon p = new Polygon(
                    new Point[] {new Point(1, 2, 3), new Point(4, 5, 6)},
                    new boolean[] {false, true},
                    new Point(7, 8, 9));
            Memory a = Memory.ofArray(new byte[(int) gen.extent()]);
            Memory b = Memory.ofArray(new byte[(int) gen.extent()]);
            gen.write(p, a, 0);
            slow.write(new Fresh(p.corners(), p.flags(), p.center()), b, 0);
            assertThat(b.toArray(0, (int) gen.extent())).isEqualTo(a.toArray(0, (int) gen.extent()));
            Fresh f = slow.read(b, 0);
            assertThat(new Polygon(f.corners(), f.flags(), f.center())).isEqualTo(p);
        } finally {
            RecordLayouts.generateCodecs = true;
        }
        assertThat(specs).isNull();
    }

    @Test
    void errorsAtWriteTimeTouchNothing() {
        RecordLayout<Pen> l = RecordLayouts.of(Pen.class);
        Memory m = Memory.ofArray(new byte[64]);
        assertThatThrownBy(() -> l.write(new Pen(new byte[4], 1, 2), m, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("write: Pen.brand length 4 (expected: 5)");
        assertThatThrownBy(() -> l.write(new Pen(null, 1, 2), m, 0))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("write: Pen.brand is null");
        assertThatThrownBy(() -> l.write(new Pen(new byte[5], 1, 2), m, 48))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("write: bytes [48, 72) outside memory of 64 bytes");
        assertThatThrownBy(() -> l.write(null, m, 0)).hasMessage("write: value is null");
        RecordLayout<Polygon> poly = RecordLayouts.of(Polygon.class);
        Memory pm = Memory.ofArray(new byte[(int) poly.extent()]);
        assertThatThrownBy(() ->
                        poly.write(new Polygon(new Point[] {null, null}, new boolean[2], new Point(0, 0, 0)), pm, 0))
                .hasMessage("write: Polygon.corners[0] is null");
        assertThatThrownBy(() -> poly.write(
                        new Polygon(new Point[] {new Point(0, 0, 0), new Point(0, 0, 0)}, new boolean[2], null), pm, 0))
                .hasMessage("write: Polygon.center is null");
        assertThatThrownBy(() -> l.readArray(m, 0, 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> l.writeArray(new Pen[] {new Pen(new byte[5], 0, 0), null}, 0, 2, m, 0))
                .hasMessage("writeArray: values[1] is null");
        assertThat(m.toArray(0, 64)).containsOnly(0);
    }
}
