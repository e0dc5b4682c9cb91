package dev.layout.arrow;

import dev.layout.automap.MappedField;
import dev.layout.automap.RecordLayout;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * AutoMap layouts as Arrow schemas: a mapped record is an Arrow struct whose children are its
 * fields in layout order — primitives by their layout-core type ({@code boolean} as Arrow's Bool,
 * unsigned fields as unsigned ints), fixed-length arrays as fixed-size lists, nested records as
 * nested structs. Nothing is nullable (a mapped record holds values, never references). Each
 * field carries its byte offset in the record ({@link #OFFSET_KEY}), and the struct and schema the
 * record's datatype in layout notation ({@link LayoutIpc#DATATYPE_KEY}), so the columnar and the
 * packed form of the same records can be told apart and converted.
 *
 * <pre>{@code
 * record Point(double x, double y, int id) {}
 * RecordSchemas.schema(RecordLayouts.of(Point.class));
 * // Schema<x: FloatingPoint(DOUBLE) not null, y: FloatingPoint(DOUBLE) not null, id: Int(32, true) not null>
 * }</pre>
 */
public final class RecordSchemas {
    /** Field metadata: the field's byte offset in its record. */
    public static final String OFFSET_KEY = "layout.offset";

    private RecordSchemas() {}

    /** A schema with one column per field of {@code layout} (a record batch of records). */
    public static Schema schema(RecordLayout<?> layout) {
        if (layout == null) {
            throw new NullPointerException("schema: layout is null");
        }
        return new Schema(
                children(layout),
                Map.of(LayoutIpc.DATATYPE_KEY, layout.datatype().toString()));
    }

    /** The record as one struct field named {@code name} (e.g. a column of records, or a nested member). */
    public static Field struct(String name, RecordLayout<?> layout) {
        if (name == null || layout == null) {
            throw new NullPointerException("struct: " + (name == null ? "name" : "layout") + " is null");
        }
        return new Field(
                name,
                new FieldType(
                        false,
                        ArrowType.Struct.INSTANCE,
                        null,
                        Map.of(LayoutIpc.DATATYPE_KEY, layout.datatype().toString())),
                children(layout));
    }

    private static List<Field> children(RecordLayout<?> layout) {
        List<Field> out = new ArrayList<>();
        for (MappedField f : layout.fields()) {
            Map<String, String> meta = Map.of(OFFSET_KEY, Long.toString(f.offset()));
            Field element =
                    switch (f.kind()) {
                        case PRIMITIVE, PRIMITIVE_ARRAY ->
                            new Field(
                                    f.kind() == MappedField.Kind.PRIMITIVE ? f.name() : "item",
                                    new FieldType(
                                            false,
                                            arrowType(f),
                                            null,
                                            f.kind() == MappedField.Kind.PRIMITIVE ? meta : null),
                                    null);
                        case RECORD, RECORD_ARRAY ->
                            f.kind() == MappedField.Kind.RECORD
                                    ? withMetadata(struct(f.name(), f.nested()), meta)
                                    : struct("item", f.nested());
                    };
            if (f.kind() == MappedField.Kind.PRIMITIVE_ARRAY || f.kind() == MappedField.Kind.RECORD_ARRAY) {
                element = new Field(
                        f.name(),
                        new FieldType(false, new ArrowType.FixedSizeList(Math.toIntExact(f.count())), null, meta),
                        List.of(element));
            }
            out.add(element);
        }
        return out;
    }

    private static Field withMetadata(Field f, Map<String, String> extra) {
        Map<String, String> m = new java.util.HashMap<>(f.getMetadata());
        m.putAll(extra);
        return new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), null, m), f.getChildren());
    }

    private static ArrowType arrowType(MappedField f) {
        Class<?> j = f.javaType().isArray() ? f.javaType().getComponentType() : f.javaType();
        if (j == boolean.class) {
            return ArrowType.Bool.INSTANCE;
        }
        Datatype t = f.elementType();
        if (!(t instanceof Primitive p)) {
            throw new IllegalArgumentException(
                    "schema: field " + f.name() + " element type " + t + " (expected: a primitive)");
        }
        return switch (p) {
            case BYTE, INT8 -> new ArrowType.Int(8, true);
            case INT16 -> new ArrowType.Int(16, true);
            case INT32 -> new ArrowType.Int(32, true);
            case INT64 -> new ArrowType.Int(64, true);
            case UINT8 -> new ArrowType.Int(8, false);
            case UINT16 -> new ArrowType.Int(16, false);
            case UINT32 -> new ArrowType.Int(32, false);
            case UINT64 -> new ArrowType.Int(64, false);
            case FLOAT32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
        };
    }
}
