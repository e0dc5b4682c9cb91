package dev.layout.automap;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/** Build-time description of one mapped field, with what the codecs need to reach it. */
final class FieldSpec {
    final String name;
    final String path; // Owner.name, for messages
    final Class<?> javaType;
    final Method accessor; // records
    final Field field; // plain classes
    MappedField.Kind kind;
    Primitive primitive; // element primitive for PRIMITIVE / PRIMITIVE_ARRAY
    RecordLayout<?> nested;
    int count = 1;
    long offset;
    int nestedIndex = -1;
    int declarationIndex;

    FieldSpec(String name, String path, Class<?> javaType, Method accessor, Field field) {
        this.name = name;
        this.path = path;
        this.javaType = javaType;
        this.accessor = accessor;
        this.field = field;
    }

    Datatype elementType() {
        return nested != null ? nested.datatype() : primitive;
    }

    long elementExtent() {
        return nested != null ? nested.extent() : primitive.byteSize();
    }

    Class<?> elementClass() {
        return javaType.isArray() ? javaType.getComponentType() : javaType;
    }

    MappedField toMapped() {
        return new MappedField(name, javaType, kind, elementType(), count, offset, nested);
    }
}
