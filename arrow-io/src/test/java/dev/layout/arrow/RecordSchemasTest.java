package dev.layout.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.automap.LayoutField;
import dev.layout.automap.MappedField;
import dev.layout.automap.RecordLayout;
import dev.layout.automap.RecordLayouts;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class RecordSchemasTest {
    record Point(double x, double y, int id) {}

    record Mixed(byte b, short s, char c, boolean flag, int i, float f, long l, double d) {}

    record Unsigned(
            @LayoutField(unsigned = true) int u,
            @LayoutField(unsigned = true, length = 2) short[] us) {}

    record Polygon(@LayoutField(length = 3) Point[] corners, int n) {}

    record Segment(Point from, Point to, byte tag) {}

    @Test
    void primitivesMapToArrowTypesInLayoutOrder() {
        assertThat(RecordSchemas.schema(RecordLayouts.of(Point.class)).toString())
                .startsWith(
                        "Schema<x: FloatingPoint(DOUBLE) not null, y: FloatingPoint(DOUBLE) not null, id: Int(32, true) not null>");
        assertThat(RecordSchemas.schema(RecordLayouts.of(Mixed.class)).getFields())
                .extracting(f -> f.getName() + " " + f.getType())
                .containsExactly(
                        "b Int(8, true)",
                        "s Int(16, true)",
                        "c Int(16, false)",
                        "flag Bool",
                        "i Int(32, true)",
                        "f FloatingPoint(SINGLE)",
                        "l Int(64, true)",
                        "d FloatingPoint(DOUBLE)");
        assertThat(RecordSchemas.schema(RecordLayouts.of(Unsigned.class)).toString())
                .startsWith(
                        "Schema<u: Int(32, false) not null, us: FixedSizeList(2)<item: Int(16, false) not null> not null>");
    }

    @Test
    void nestedRecordsAreStructsAndRecordArraysFixedSizeListsOfStructs() {
        Schema polygon = RecordSchemas.schema(RecordLayouts.of(Polygon.class));
        assertThat(polygon.toString())
                .startsWith(
                        "Schema<corners: FixedSizeList(3)<item: Struct<x: FloatingPoint(DOUBLE) not null,"
                                + " y: FloatingPoint(DOUBLE) not null, id: Int(32, true) not null> not null> not null, n: Int(32, true) not null>");
        Field from = RecordSchemas.schema(RecordLayouts.of(Segment.class)).findField("from");
        assertThat(from.getType().toString()).isEqualTo("Struct");
        assertThat(from.getChildren()).extracting(Field::getName).containsExactly("x", "y", "id");
        assertThat(from.getMetadata())
                .containsEntry(
                        LayoutIpc.DATATYPE_KEY,
                        RecordLayouts.of(Point.class).datatype().toString());
    }

    @Test
    void everyFieldCarriesItsByteOffsetAndTheSchemaTheDatatype() {
        for (Class<? extends Record> c :
                java.util.List.of(Point.class, Mixed.class, Unsigned.class, Polygon.class, Segment.class)) {
            RecordLayout<?> layout = RecordLayouts.of(c);
            Schema s = RecordSchemas.schema(layout);
            assertThat(s.getCustomMetadata())
                    .containsEntry(LayoutIpc.DATATYPE_KEY, layout.datatype().toString());
            assertThat(s.getFields()).hasSameSizeAs(layout.fields());
            for (MappedField f : layout.fields()) {
                assertThat(s.findField(f.name()).getMetadata())
                        .as("%s.%s", c.getSimpleName(), f.name())
                        .containsEntry(RecordSchemas.OFFSET_KEY, Long.toString(f.offset()));
            }
        }
    }

    @Test
    void arrowBuildsVectorsForTheSchemas() {
        try (BufferAllocator alloc = new RootAllocator()) {
            for (Class<? extends Record> c :
                    java.util.List.of(Point.class, Mixed.class, Unsigned.class, Polygon.class, Segment.class)) {
                try (VectorSchemaRoot root =
                        VectorSchemaRoot.create(RecordSchemas.schema(RecordLayouts.of(c)), alloc)) {
                    root.allocateNew();
                    assertThat(root.getFieldVectors())
                            .hasSize(RecordLayouts.of(c).fields().size());
                }
            }
            try (VectorSchemaRoot root = VectorSchemaRoot.create(
                    new Schema(java.util.List.of(RecordSchemas.struct("points", RecordLayouts.of(Point.class)))),
                    alloc)) {
                assertThat(root.getVector("points").getField().getChildren()).hasSize(3);
            }
            assertThat(alloc.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void nullArgumentsAreNamed() {
        assertThatThrownBy(() -> RecordSchemas.schema(null)).hasMessage("schema: layout is null");
        assertThatThrownBy(() -> RecordSchemas.struct(null, RecordLayouts.of(Point.class)))
                .hasMessage("struct: name is null");
    }
}
