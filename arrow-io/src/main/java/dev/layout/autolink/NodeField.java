package dev.layout.autolink;

import java.lang.invoke.MethodHandle;
import org.apache.arrow.vector.types.pojo.Field;

/** One serialized field of a node type: its kind, Arrow field, accessors and (for references) target type. */
final class NodeField {
    enum Kind {
        BOOLEAN,
        BYTE,
        SHORT,
        CHAR,
        INT,
        LONG,
        FLOAT,
        DOUBLE,
        STRING,
        BYTES,
        REF,
        REF_ARRAY,
        REF_LIST;

        boolean isReference() {
            return this == REF || this == REF_ARRAY || this == REF_LIST;
        }
    }

    final String name;
    final Kind kind;
    final Class<?> javaType;
    final Field arrowField;
    /** (Object)T with T the exact field type (primitives unboxed, references as Object). */
    final MethodHandle getter;
    /** (Object,T)void; null for record components. */
    final MethodHandle setter;
    /** For references: the class of the target nodes; resolved to a type id when the registry is built. */
    final Class<?> target;

    int targetId = -1;
    final int component; // record component index, or -1
    /** {@link FieldOffsets} offset for direct access, or -1 (records): use the handles. */
    long offset = -1;

    NodeField(
            String name,
            Kind kind,
            Class<?> javaType,
            Field arrowField,
            MethodHandle getter,
            MethodHandle setter,
            Class<?> target,
            int component) {
        this.name = name;
        this.kind = kind;
        this.javaType = javaType;
        this.arrowField = arrowField;
        this.getter = getter;
        this.setter = setter;
        this.target = target;
        this.component = component;
    }
}
