package dev.layout.autolink;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The node types AutoLink may encode and, on the receiving side, instantiate. Only registered
 * classes are ever created when expanding (unlike Java serialization, a packet cannot name a
 * class); sender and receiver must register the same classes in the same order, which the header
 * packet checks through a fingerprint of the types and their fields.
 *
 * <p>A node type is a concrete class with a no-arg constructor (any access), or a record. Its
 * serialized fields are all non-static, non-transient instance fields (superclasses included), of
 * these kinds:
 *
 * <ul>
 *   <li>{@code boolean, byte, short, char, int, long, float, double}: Arrow bit, int8, int16,
 *       uint16, int32, int64, float32, float64 columns;
 *   <li>{@code String} (utf8 column) and {@code byte[]} (binary column), nullable;
 *   <li>a reference to a registered type: an int32 column of indices in that type's table, -1 for
 *       null; the runtime class must be exactly the registered one;
 *   <li>an array {@code R[]} or {@code List<R>} of a registered type: a list of int32 indices
 *       (null list for a null array/list; decoded lists are {@link ArrayList}s).
 * </ul>
 *
 * Records may hold arrays and lists of references but not single references (a record is built
 * with all its components, before the objects it would point to may exist).
 *
 * <pre>{@code
 * TypeRegistry reg = TypeRegistry.of(TreeNode.class, Leaf.class);
 * }</pre>
 */
public final class TypeRegistry {
    private final List<NodeType> types;
    private final Map<Class<?>, NodeType> byClass;
    private final long fingerprint;

    private TypeRegistry(List<NodeType> types) {
        this.types = List.copyOf(types);
        this.byClass = new HashMap<>();
        for (NodeType t : types) {
            byClass.put(t.type, t);
        }
        this.fingerprint = computeFingerprint();
    }

    /** Registers {@code classes} in this order (type id = position). */
    public static TypeRegistry of(Class<?>... classes) {
        if (classes == null) {
            throw new NullPointerException("autolink: classes is null");
        }
        Set<Class<?>> set = new LinkedHashSet<>();
        for (int i = 0; i < classes.length; i++) {
            Class<?> c = classes[i];
            if (c == null) {
                throw new NullPointerException("autolink: classes[" + i + "] is null");
            }
            if (!set.add(c)) {
                throw new IllegalArgumentException(
                        "autolink: classes[" + i + "] " + c.getName() + " (expected: registered once)");
            }
        }
        if (set.size() > Short.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "autolink: type count " + set.size() + " (expected: <= " + Short.MAX_VALUE + ")");
        }
        List<NodeType> types = new ArrayList<>();
        int id = 0;
        for (Class<?> c : set) {
            types.add(describe(id++, c));
        }
        for (NodeType t : types) {
            for (NodeField f : t.fields) {
                if (f.target != null) {
                    NodeType target = types.stream()
                            .filter(x -> x.type == f.target)
                            .findFirst()
                            .orElse(null);
                    if (target == null) {
                        throw new IllegalArgumentException("autolink: field " + t.type.getSimpleName() + "." + f.name
                                + " target " + f.target.getName() + " (expected: a registered type)");
                    }
                    f.targetId = target.id;
                }
            }
        }
        return new TypeRegistry(types);
    }

    /** The registered classes in type-id order. */
    public List<Class<?>> types() {
        return types.stream().<Class<?>>map(t -> t.type).toList();
    }

    public int size() {
        return types.size();
    }

    /** The Arrow schema of {@code type}'s packets. */
    public Schema schema(Class<?> type) {
        NodeType t = byClass.get(type);
        if (t == null) {
            throw new IllegalArgumentException("autolink: type " + type.getName() + " (expected: a registered type)");
        }
        return t.schema;
    }

    /** A hash of the registered types and their fields; the header packet carries it. */
    public long fingerprint() {
        return fingerprint;
    }

    NodeType type(int id) {
        return types.get(id);
    }

    NodeType typeOf(Class<?> c) {
        return byClass.get(c);
    }

    private long computeFingerprint() {
        StringBuilder sb = new StringBuilder();
        for (NodeType t : types) {
            sb.append(t.type.getName()).append('{');
            for (NodeField f : t.fields) {
                sb.append(f.name)
                        .append(':')
                        .append(f.kind)
                        .append(':')
                        .append(f.targetId)
                        .append(';');
            }
            sb.append('}');
        }
        // FNV-1a 64
        long h = 0xcbf29ce484222325L;
        for (byte b : sb.toString().getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        return h;
    }

    // ---- introspection -----------------------------------------------------------------------------

    private static NodeType describe(int id, Class<?> c) {
        String op = "autolink";
        if (c.isPrimitive() || c.isArray() || c.isInterface() || c.isEnum() || Modifier.isAbstract(c.getModifiers())) {
            throw new IllegalArgumentException(
                    op + ": type " + c.getName() + " (expected: a concrete class or record)");
        }
        MethodHandles.Lookup lookup;
        try {
            lookup = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(op + ": type " + c.getName()
                    + " not accessible (expected: a class in a package open to layout): " + e);
        }
        List<NodeField> fields = new ArrayList<>();
        try {
            if (c.isRecord()) {
                RecordComponent[] comps = c.getRecordComponents();
                Class<?>[] ptypes = new Class<?>[comps.length];
                for (int i = 0; i < comps.length; i++) {
                    RecordComponent rc = comps[i];
                    ptypes[i] = rc.getType();
                    MethodHandle getter = lookup.unreflect(rc.getAccessor());
                    NodeField f = field(c, rc.getName(), rc.getType(), rc.getGenericType(), getter, null, i);
                    if (f.kind == NodeField.Kind.REF) {
                        throw new IllegalArgumentException(
                                op + ": field " + c.getSimpleName() + "." + rc.getName()
                                        + " kind single reference (expected: a class node type for single references; records may hold arrays or lists of references)");
                    }
                    fields.add(f);
                }
                Constructor<?> ctor = c.getDeclaredConstructor(ptypes);
                MethodHandle mh = lookup.unreflectConstructor(ctor)
                        .asSpreader(Object[].class, comps.length)
                        .asType(MethodType.methodType(Object.class, Object[].class));
                return new NodeType(id, c, fields, schema(fields), true, mh);
            }
            List<Class<?>> chain = new ArrayList<>();
            for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                chain.add(0, k);
            }
            for (Class<?> k : chain) {
                MethodHandles.Lookup kl = MethodHandles.privateLookupIn(k, MethodHandles.lookup());
                java.lang.reflect.Field[] declared = k.getDeclaredFields();
                Arrays.sort(declared, (a, b) -> a.getName().compareTo(b.getName())); // stable across JVMs
                for (java.lang.reflect.Field fd : declared) {
                    int mod = fd.getModifiers();
                    if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || fd.isSynthetic()) {
                        continue;
                    }
                    if (Modifier.isFinal(mod)) {
                        throw new IllegalArgumentException(op + ": field " + k.getSimpleName() + "." + fd.getName()
                                + " is final (expected: non-final fields in class node types, or a record)");
                    }
                    NodeField nf = field(
                            k,
                            fd.getName(),
                            fd.getType(),
                            fd.getGenericType(),
                            kl.unreflectGetter(fd),
                            kl.unreflectSetter(fd),
                            -1);
                    nf.offset = FieldOffsets.of(fd);
                    fields.add(nf);
                }
            }
            Constructor<?> ctor;
            try {
                ctor = c.getDeclaredConstructor();
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException(
                        op + ": type " + c.getName() + " has no no-arg constructor (expected: one, or a record)");
            }
            MethodHandle mh = lookup.unreflectConstructor(ctor).asType(MethodType.methodType(Object.class));
            return new NodeType(id, c, fields, schema(fields), false, mh);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(op + ": type " + c.getName() + " not accessible: " + e);
        }
    }

    private static NodeField field(
            Class<?> owner,
            String name,
            Class<?> t,
            Type generic,
            MethodHandle getter,
            MethodHandle setter,
            int component) {
        NodeField.Kind kind;
        ArrowType at;
        boolean nullable = false;
        Class<?> target = null;
        if (t == boolean.class) {
            kind = NodeField.Kind.BOOLEAN;
            at = ArrowType.Bool.INSTANCE;
        } else if (t == byte.class) {
            kind = NodeField.Kind.BYTE;
            at = new ArrowType.Int(8, true);
        } else if (t == short.class) {
            kind = NodeField.Kind.SHORT;
            at = new ArrowType.Int(16, true);
        } else if (t == char.class) {
            kind = NodeField.Kind.CHAR;
            at = new ArrowType.Int(16, false);
        } else if (t == int.class) {
            kind = NodeField.Kind.INT;
            at = new ArrowType.Int(32, true);
        } else if (t == long.class) {
            kind = NodeField.Kind.LONG;
            at = new ArrowType.Int(64, true);
        } else if (t == float.class) {
            kind = NodeField.Kind.FLOAT;
            at = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
        } else if (t == double.class) {
            kind = NodeField.Kind.DOUBLE;
            at = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
        } else if (t == String.class) {
            kind = NodeField.Kind.STRING;
            at = ArrowType.Utf8.INSTANCE;
            nullable = true;
        } else if (t == byte[].class) {
            kind = NodeField.Kind.BYTES;
            at = ArrowType.Binary.INSTANCE;
            nullable = true;
        } else if (t.isArray()
                && !t.getComponentType().isPrimitive()
                && !t.getComponentType().isArray()) {
            kind = NodeField.Kind.REF_ARRAY;
            at = ArrowType.List.INSTANCE;
            nullable = true;
            target = t.getComponentType();
        } else if (t == List.class
                && generic instanceof ParameterizedType pt
                && pt.getActualTypeArguments()[0] instanceof Class<?> el) {
            kind = NodeField.Kind.REF_LIST;
            at = ArrowType.List.INSTANCE;
            nullable = true;
            target = el;
        } else if (!t.isPrimitive()
                && !t.isArray()
                && !t.isInterface()
                && !java.util.Collection.class.isAssignableFrom(t)
                && !java.util.Map.class.isAssignableFrom(t)
                && !t.getName().startsWith("java.")) {
            kind = NodeField.Kind.REF;
            at = new ArrowType.Int(32, true);
            target = t;
        } else {
            throw new IllegalArgumentException(
                    "autolink: field " + owner.getSimpleName() + "." + name + " type " + generic.getTypeName()
                            + " (expected: primitive, String, byte[], a registered type, or an array or List<> of a registered type)");
        }
        Field arrow;
        if (at instanceof ArrowType.List) {
            Field child = new Field("item", new FieldType(false, new ArrowType.Int(32, true), null), null);
            arrow = new Field(name, new FieldType(true, at, null), List.of(child));
        } else {
            arrow = new Field(name, new FieldType(nullable, at, null), null);
        }
        MethodType gt = MethodType.methodType(t.isPrimitive() ? t : Object.class, Object.class);
        MethodHandle g = getter.asType(gt);
        MethodHandle s = setter == null
                ? null
                : setter.asType(MethodType.methodType(void.class, Object.class, t.isPrimitive() ? t : Object.class));
        return new NodeField(name, kind, t, arrow, g, s, target, component);
    }

    private static Schema schema(List<NodeField> fields) {
        return new Schema(fields.stream().map(f -> f.arrowField).toList());
    }

    @Override
    public String toString() {
        return "TypeRegistry" + types();
    }
}
