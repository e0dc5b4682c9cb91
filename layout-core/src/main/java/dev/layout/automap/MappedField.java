package dev.layout.automap;

import dev.layout.datatype.Datatype;

/**
 * One field of a {@link RecordLayout}: its Java name and type, the datatype of one element, the
 * element count (1 for scalars, the array length for arrays) and the byte offset in the record.
 *
 * @param kind what the field holds
 * @param elementType the datatype of one element (a primitive, or a nested record's datatype)
 * @param nested the nested layout for {@link Kind#RECORD} and {@link Kind#RECORD_ARRAY}, else null
 */
public record MappedField(
        String name,
        Class<?> javaType,
        Kind kind,
        Datatype elementType,
        long count,
        long offset,
        RecordLayout<?> nested) {

    /** The kinds of mapped fields. */
    public enum Kind {
        PRIMITIVE,
        PRIMITIVE_ARRAY,
        RECORD,
        RECORD_ARRAY
    }

    /** Bytes the field spans in the record: {@code count} element extents. */
    public long span() {
        return count * elementType.extent();
    }
}
