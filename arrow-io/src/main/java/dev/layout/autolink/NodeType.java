package dev.layout.autolink;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.vector.types.pojo.Schema;

/** A registered node class: its id, serialized fields, Arrow schema and how to create instances. */
final class NodeType {
    final int id;
    final Class<?> type;
    final List<NodeField> fields;
    final Schema schema;
    final boolean isRecord;
    /** Classes: ()Object. Records: (Object[])Object over the canonical constructor. */
    final MethodHandle constructor;
    /**
     * Classes: {@code new T()} as a {@link Supplier} spun by {@link LambdaMetafactory} (a plain call the
     * JIT inlines; invoking the non-constant {@link #constructor} handle per node costs several times
     * the allocation), or the handle where the metafactory refuses the class. Records: null.
     */
    final Supplier<Object> factory;
    /** Positions in {@link #fields} of the reference fields (REF, REF_ARRAY, REF_LIST), in field order. */
    final int[] referenceFields;
    /** {@link #fields} as an array, for the compact form's per-node loops. */
    final NodeField[] fieldArray;
    /** A class type whose every field has a {@link FieldOffsets} offset: the compact form's direct loops apply. */
    final boolean direct;

    NodeType(int id, Class<?> type, List<NodeField> fields, Schema schema, boolean isRecord, MethodHandle constructor) {
        this.id = id;
        this.type = type;
        this.fields = fields;
        this.schema = schema;
        this.isRecord = isRecord;
        this.constructor = constructor;
        this.factory = isRecord ? null : factory(type, constructor);
        this.fieldArray = fields.toArray(new NodeField[0]);
        this.direct = !isRecord && fields.stream().allMatch(f -> f.offset >= 0);
        this.referenceFields = java.util.stream.IntStream.range(0, fields.size())
                .filter(i -> fields.get(i).kind.isReference())
                .toArray();
    }

    private FlatCodec flatCodec;
    private boolean flatCodecMade;

    /**
     * The generated codec of this type's {@link FlatRow} (null where the type is not flat or no
     * codec can be defined), made once per type: every thread's encoder and decoder shares it.
     */
    synchronized FlatCodec flatCodec() {
        if (!flatCodecMade) {
            flatCodec = FlatCodec.of(FlatRow.of(this));
            flatCodecMade = true;
        }
        return flatCodec;
    }

    @SuppressWarnings("unchecked")
    private static Supplier<Object> factory(Class<?> type, MethodHandle constructor) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
            MethodHandle ctor = lookup.findConstructor(type, MethodType.methodType(void.class));
            return (Supplier<Object>) LambdaMetafactory.metafactory(
                            lookup,
                            "get",
                            MethodType.methodType(Supplier.class),
                            MethodType.methodType(Object.class),
                            ctor,
                            MethodType.methodType(type))
                    .getTarget()
                    .invokeExact();
        } catch (Throwable e) {
            return () -> {
                try {
                    return (Object) constructor.invokeExact();
                } catch (RuntimeException | Error x) {
                    throw x;
                } catch (Throwable x) {
                    throw new IllegalStateException(x);
                }
            };
        }
    }
}
