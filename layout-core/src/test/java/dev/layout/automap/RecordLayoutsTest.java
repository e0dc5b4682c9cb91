package dev.layout.automap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutParser;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordLayoutsTest {
    record Pen(@LayoutField(length = 20) byte[] brand, int content, long unitPrice) {}

    record Point(double x, double y, int id) {}

    record Mixed(byte b, short s, char c, boolean flag, int i, float f, long l, double d) {}

    record Unsigned(
            @LayoutField(unsigned = true) int u,
            @LayoutField(unsigned = true, length = 2) short[] us) {}

    record Segment(Point from, Point to, byte tag) {}

    record Polygon(@LayoutField(length = 3) Point[] corners, int n) {}

    record Reordered(
            @LayoutField(order = 2) int a,
            @LayoutField(order = 0) double b,
            @LayoutField(order = 1) byte c) {}

    record Placed(
            @LayoutField(offset = 16) int a,
            @LayoutField(offset = 0) long b) {}

    record AllInts(int a, int b, int c) {}

    record Single(long v) {}

    static class Particle {
        @LayoutField(order = 0)
        double mass;

        @LayoutField(order = 1, length = 3)
        float[] velocity;

        @LayoutField(order = 2)
        private int id;

        String notMapped;
    }

    @Test
    void penMatchesTheCStruct() {
        // struct pen { char brand[20]; int content; long unit_price; } on LP64: offsets 0, 20, 24; sizeof 32
        RecordLayout<Pen> l = RecordLayouts.of(Pen.class);
        assertThat(l.datatype()).isEqualTo(LayoutParser.parse("struct([20,1,1], [0,20,24], [int8,int32,int64])"));
        assertThat(l.extent()).isEqualTo(32);
        assertThat(l.byteSize()).isEqualTo(32);
        assertThat(l.isGenerated()).isTrue();
    }

    @Test
    void naturalAlignmentPadsLikeC() {
        assertThat(RecordLayouts.of(Point.class).datatype().toString())
                .isEqualTo("struct([1,1,1], [0,8,16], [float64,float64,int32])");
        assertThat(RecordLayouts.of(Point.class).extent()).isEqualTo(24);
        RecordLayout<Mixed> m = RecordLayouts.of(Mixed.class);
        // b@0 s@2 c@4 flag@6 i@8 f@12 l@16 d@24, sizeof 32
        assertThat(m.datatype())
                .isEqualTo(
                        LayoutParser.parse(
                                "struct([1,1,1,1,1,1,1,1], [0,2,4,6,8,12,16,24], [int8,int16,uint16,uint8,int32,float32,int64,float64])"));
        assertThat(m.extent()).isEqualTo(32);
    }

    @Test
    void packedLayoutHasNoPadding() {
        RecordLayout<Point> p = RecordLayouts.of(Point.class, Alignment.PACKED);
        assertThat(p.extent()).isEqualTo(20);
        // MPICH would pad the struct to 24, so the extent is set explicitly.
        assertThat(p.datatype())
                .isEqualTo(LayoutParser.parse("resized(0, 20, struct([1,1,1], [0,8,16], [float64,float64,int32]))"));
        RecordLayout<Mixed> m = RecordLayouts.of(Mixed.class, Alignment.PACKED);
        assertThat(m.datatype().toString())
                .isEqualTo(
                        "resized(0, 30, struct([1,1,1,1,1,1,1,1], [0,1,3,5,6,10,14,22], [int8,int16,uint16,uint8,int32,float32,int64,float64]))");
    }

    @Test
    void unsignedCharAndBooleanChoices() {
        assertThat(RecordLayouts.of(Unsigned.class).datatype().toString())
                .isEqualTo("struct([1,2], [0,4], [uint32,uint16])");
        assertThat(RecordLayouts.of(Unsigned.class).extent()).isEqualTo(8);
    }

    @Test
    void nestedRecordsAreValues() {
        Datatype point = RecordLayouts.datatypeOf(Point.class);
        RecordLayout<Segment> s = RecordLayouts.of(Segment.class);
        assertThat(s.datatype())
                .isEqualTo(Datatype.struct(
                        new long[] {1, 1, 1},
                        new long[] {0, 24, 48},
                        List.of(point, point, dev.layout.datatype.Primitive.INT8)));
        assertThat(s.extent()).isEqualTo(56);
        RecordLayout<Polygon> poly = RecordLayouts.of(Polygon.class);
        assertThat(poly.datatype().toString())
                .isEqualTo("struct([3,1], [0,72], [struct([1,1,1], [0,8,16], [float64,float64,int32]),int32])");
        assertThat(poly.extent()).isEqualTo(80);
        assertThat(poly.fields().get(0).kind()).isEqualTo(MappedField.Kind.RECORD_ARRAY);
        assertThat(poly.fields().get(0).span()).isEqualTo(72);
    }

    @Test
    void explicitOrderAndOffsets() {
        assertThat(RecordLayouts.of(Reordered.class).datatype().toString())
                .isEqualTo("struct([1,1,1], [0,8,12], [float64,int8,int32])");
        assertThat(RecordLayouts.of(Reordered.class).fields().stream().map(MappedField::name))
                .containsExactly("b", "c", "a");
        assertThat(RecordLayouts.of(Placed.class).datatype().toString())
                .isEqualTo("struct([1,1], [16,0], [int32,int64])");
        assertThat(RecordLayouts.of(Placed.class).extent()).isEqualTo(24);
    }

    @Test
    void homogeneousAndSingleMemberStructs() {
        assertThat(RecordLayouts.of(AllInts.class).datatype().toString())
                .isEqualTo("struct([1,1,1], [0,4,8], [int32,int32,int32])");
        assertThat(RecordLayouts.of(AllInts.class).extent()).isEqualTo(12);
        assertThat(RecordLayouts.of(Single.class).datatype().toString()).isEqualTo("struct([1], [0], [int64])");
    }

    @Test
    void plainClassWithAnnotatedFields() {
        RecordLayout<Particle> p = RecordLayouts.of(Particle.class);
        assertThat(p.datatype().toString()).isEqualTo("struct([1,3,1], [0,8,20], [float64,float32,int32])");
        assertThat(p.extent()).isEqualTo(24);
        assertThat(p.isGenerated()).isTrue();
    }

    @Test
    void layoutsAreCached() {
        assertThat(RecordLayouts.of(Point.class)).isSameAs(RecordLayouts.of(Point.class));
        assertThat(RecordLayouts.of(Point.class)).isNotSameAs(RecordLayouts.of(Point.class, Alignment.PACKED));
    }

    // ---- errors ---------------------------------------------------------------------------------------

    record WithString(int a, String name) {}

    record WithList(List<Point> points) {}

    record VarArray(int[] values) {}

    record ArrayOfArrays(@LayoutField(length = 2) int[][] grid) {}

    record SelfA(int x, SelfB b) {}

    record SelfB(SelfA a) {}

    record LengthOnScalar(@LayoutField(length = 4) int a) {}

    record Overlap(
            @LayoutField(offset = 0) long a,
            @LayoutField(offset = 4) int b) {}

    record PartialOrder(@LayoutField(order = 0) int a, int b) {}

    record DuplicateOrder(
            @LayoutField(order = 1) int a,
            @LayoutField(order = 1) int b) {}

    record UnsignedDouble(@LayoutField(unsigned = true) double d) {}

    record Empty() {}

    static class Unordered {
        @LayoutField
        int a;

        @LayoutField
        int b;
    }

    static class FinalField {
        @LayoutField
        final int a = 1;
    }

    static class NoAnnotations {
        int a;
    }

    @Test
    void referencesThatAreNotMappedRecords() {
        assertThatThrownBy(() -> RecordLayouts.of(WithString.class))
                .isInstanceOf(UnmappableTypeException.class)
                .hasMessage(
                        "automap: field WithString.name type java.lang.String (expected: primitive, fixed-length array, record, "
                                + "or class with @LayoutField fields; references between objects need AutoLink)");
        assertThatThrownBy(() -> RecordLayouts.of(WithList.class))
                .hasMessageContaining("field WithList.points type java.util.List");
        assertThatThrownBy(() -> RecordLayouts.of(ArrayOfArrays.class))
                .hasMessageContaining("field ArrayOfArrays.grid type int[][]");
        assertThatThrownBy(() -> RecordLayouts.of(NoAnnotations.class))
                .hasMessageContaining("(expected: a record, or a concrete class with @LayoutField fields)");
        assertThatThrownBy(() -> RecordLayouts.of(Runnable.class)).hasMessageContaining("type java.lang.Runnable");
    }

    @Test
    void variableLengthFieldsWithoutMapping() {
        assertThatThrownBy(() -> RecordLayouts.of(VarArray.class))
                .isInstanceOf(UnmappableTypeException.class)
                .hasMessage(
                        "automap: field VarArray.values length -1 (expected: @LayoutField(length = n) with n >= 0 on a variable-length array field)");
        assertThatThrownBy(() -> RecordLayouts.of(LengthOnScalar.class))
                .hasMessage("automap: field LengthOnScalar.a length 4 (expected: -1, the field is not an array)");
    }

    @Test
    void recursiveValueLayouts() {
        assertThatThrownBy(() -> RecordLayouts.of(SelfA.class))
                .isInstanceOf(UnmappableTypeException.class)
                .hasMessage(
                        "automap: recursive value layout SelfA -> SelfB -> SelfA (expected: a finite value layout; link objects by reference with AutoLink instead)");
    }

    @Test
    void orderAndOffsetConflicts() {
        assertThatThrownBy(() -> RecordLayouts.of(Overlap.class))
                .hasMessage("automap: field Overlap.b offset 4 (expected: no overlap with field Overlap.a at [0, 8))");
        assertThatThrownBy(() -> RecordLayouts.of(PartialOrder.class))
                .hasMessage(
                        "automap: field PartialOrder.b order -1 (expected: >= 0, since other fields of PartialOrder have an order)");
        assertThatThrownBy(() -> RecordLayouts.of(DuplicateOrder.class))
                .hasMessage("automap: field DuplicateOrder.b order 1 (expected: distinct from field DuplicateOrder.a)");
        assertThatThrownBy(() -> RecordLayouts.of(Unordered.class))
                .hasMessageContaining("field Unordered.a order -1 (expected: an explicit order or offset");
        assertThatThrownBy(() -> RecordLayouts.of(UnsignedDouble.class))
                .hasMessage("automap: field UnsignedDouble.d unsigned true (expected: false on a double field)");
        assertThatThrownBy(() -> RecordLayouts.of(Empty.class))
                .hasMessage("automap: type " + Empty.class.getName() + " mapped fields 0 (expected: >= 1)");
        assertThatThrownBy(() -> RecordLayouts.of(FinalField.class))
                .hasMessageContaining("field FinalField.a is final");
    }
}
