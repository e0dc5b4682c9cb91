package dev.layout.automap;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * AutoMap: derives a struct {@link Datatype} (and a fast codec) from a Java record, or from a plain
 * class whose mapped fields carry {@link LayoutField}.
 *
 * <p>Mapping rules:
 *
 * <ul>
 *   <li>{@code byte, short, int, long} map to {@code int8, int16, int32, int64} ({@code uint*} with
 *       {@code @LayoutField(unsigned = true)}); {@code float, double} to {@code float32, float64};
 *       {@code char} to {@code uint16}; {@code boolean} to {@code uint8} holding 0 or 1 (any
 *       non-zero byte reads back as true).
 *   <li>Arrays of those, and of mapped records, need {@code @LayoutField(length = n)}; they become a
 *       struct member of blocklength {@code n} (C's {@code T name[n]}). An array of another length
 *       fails at write time.
 *   <li>A field whose type is a record, or a class with {@code @LayoutField} fields, nests that
 *       class's layout (a value, like a C struct member, never a pointer).
 *   <li>Record components are laid out in declaration order; plain classes need {@code order} (or
 *       explicit offsets) because Java does not specify the order of declared fields. {@code
 *       order} reorders, {@code offset} places a field explicitly (overlaps are an error).
 *   <li>{@link Alignment#NATURAL} aligns each field to its largest primitive and rounds the extent
 *       like a C compiler; {@link Alignment#PACKED} uses no padding. When MPICH's struct padding
 *       would give another extent, the struct is wrapped in {@code resized(0, extent, ...)}.
 *   <li>Anything else (String, Object, List, interfaces, arrays of arrays, a record containing
 *       itself by value) is an {@link UnmappableTypeException}; linked structures are AutoLink's job.
 * </ul>
 *
 * Layouts are cached per class and alignment, and are thread-safe.
 */
public final class RecordLayouts {
    private RecordLayouts() {}

    private static final ClassValue<Map<Alignment, RecordLayout<?>>> CACHE = new ClassValue<>() {
        @Override
        protected Map<Alignment, RecordLayout<?>> computeValue(Class<?> type) {
            return java.util.Collections.synchronizedMap(new EnumMap<>(Alignment.class));
        }
    };

    /** Set to false ({@code -Dlayout.automap.generate=false}) to force the method-handle codec. */
    static volatile boolean generateCodecs = !"false".equals(System.getProperty("layout.automap.generate"));

    /** The naturally aligned layout of {@code type}. */
    public static <T> RecordLayout<T> of(Class<T> type) {
        return of(type, Alignment.NATURAL);
    }

    /** The layout of {@code type} under the given alignment rule. */
    public static <T> RecordLayout<T> of(Class<T> type, Alignment alignment) {
        if (type == null) {
            throw new NullPointerException("automap: type is null");
        }
        if (alignment == null) {
            throw new NullPointerException("automap: alignment is null");
        }
        return build(type, alignment, new ArrayDeque<>());
    }

    /** Shorthand for {@code of(type).datatype()}. */
    public static Datatype datatypeOf(Class<?> type) {
        return of(type).datatype();
    }

    /** True if {@code c} can be a nested value: a record, or a concrete class with {@code @LayoutField} fields. */
    public static boolean isMappable(Class<?> c) {
        if (c.isRecord()) {
            return true;
        }
        if (c.isPrimitive() || c.isArray() || c.isInterface() || c.isEnum() || Modifier.isAbstract(c.getModifiers())) {
            return false;
        }
        for (Field f : c.getDeclaredFields()) {
            if (f.isAnnotationPresent(LayoutField.class)) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private static <T> RecordLayout<T> build(Class<T> type, Alignment alignment, Deque<Class<?>> inProgress) {
        Map<Alignment, RecordLayout<?>> cached = CACHE.get(type);
        RecordLayout<?> hit = cached.get(alignment);
        if (hit != null) {
            return (RecordLayout<T>) hit;
        }
        if (inProgress.contains(type)) {
            List<Class<?>> cycle = new ArrayList<>(inProgress);
            java.util.Collections.reverse(cycle);
            cycle = cycle.subList(cycle.indexOf(type), cycle.size());
            String path = cycle.stream().map(Class::getSimpleName).collect(Collectors.joining(" -> ")) + " -> "
                    + type.getSimpleName();
            throw new UnmappableTypeException("automap: recursive value layout " + path
                    + " (expected: a finite value layout; link objects by reference with AutoLink instead)");
        }
        if (!isMappable(type)) {
            throw new UnmappableTypeException("automap: type " + type.getName()
                    + " (expected: a record, or a concrete class with @LayoutField fields)");
        }
        inProgress.push(type);
        try {
            RecordLayout<T> layout = derive(type, alignment, inProgress);
            cached.putIfAbsent(alignment, layout);
            return (RecordLayout<T>) cached.get(alignment);
        } finally {
            inProgress.pop();
        }
    }

    private static <T> RecordLayout<T> derive(Class<T> type, Alignment alignment, Deque<Class<?>> inProgress) {
        String owner = type.getSimpleName();
        List<FieldSpec> specs = new ArrayList<>();
        if (type.isRecord()) {
            RecordComponent[] comps = type.getRecordComponents();
            for (int i = 0; i < comps.length; i++) {
                RecordComponent rc = comps[i];
                FieldSpec f =
                        new FieldSpec(rc.getName(), owner + "." + rc.getName(), rc.getType(), rc.getAccessor(), null);
                f.declarationIndex = i;
                specs.add(f);
            }
        } else {
            int i = 0;
            for (Field fd : type.getDeclaredFields()) {
                if (!fd.isAnnotationPresent(LayoutField.class)) {
                    continue;
                }
                String path = owner + "." + fd.getName();
                if (Modifier.isStatic(fd.getModifiers())) {
                    throw new UnmappableTypeException(
                            "automap: field " + path + " is static (expected: an instance field)");
                }
                if (Modifier.isFinal(fd.getModifiers())) {
                    throw new UnmappableTypeException(
                            "automap: field " + path + " is final (expected: a non-final field, set when reading)");
                }
                FieldSpec f = new FieldSpec(fd.getName(), path, fd.getType(), null, fd);
                f.declarationIndex = i++;
                specs.add(f);
            }
            try {
                type.getDeclaredConstructor();
            } catch (NoSuchMethodException e) {
                throw new UnmappableTypeException("automap: class " + type.getName()
                        + " has no no-arg constructor (expected: one, to create instances when reading)");
            }
        }
        if (specs.isEmpty()) {
            throw new UnmappableTypeException("automap: type " + type.getName() + " mapped fields 0 (expected: >= 1)");
        }
        order(type, specs);

        // Classify.
        List<RecordCodec> nestedCodecs = new ArrayList<>();
        for (FieldSpec f : specs) {
            LayoutField a = annotation(f);
            Class<?> jt = f.javaType;
            if (jt.isArray()) {
                Class<?> comp = jt.getComponentType();
                int len = a == null ? -1 : a.length();
                if (len < 0) {
                    throw new UnmappableTypeException("automap: field " + f.path + " length " + len
                            + " (expected: @LayoutField(length = n) with n >= 0 on a variable-length array field)");
                }
                f.count = len;
                if (comp.isPrimitive()) {
                    f.kind = MappedField.Kind.PRIMITIVE_ARRAY;
                    f.primitive = primitive(f, comp, a);
                } else if (!comp.isArray() && isMappable(comp)) {
                    f.kind = MappedField.Kind.RECORD_ARRAY;
                    f.nested = build(comp, alignment, inProgress);
                } else {
                    throw unmappable(f, jt);
                }
            } else {
                if (a != null && a.length() >= 0) {
                    throw new UnmappableTypeException("automap: field " + f.path + " length " + a.length()
                            + " (expected: -1, the field is not an array)");
                }
                if (jt.isPrimitive()) {
                    f.kind = MappedField.Kind.PRIMITIVE;
                    f.primitive = primitive(f, jt, a);
                } else if (isMappable(jt)) {
                    f.kind = MappedField.Kind.RECORD;
                    f.nested = build(jt, alignment, inProgress);
                } else {
                    throw unmappable(f, jt);
                }
            }
            if (f.nested != null) {
                f.nestedIndex = nestedCodecs.size();
                nestedCodecs.add(f.nested.codec());
                if (a != null && a.unsigned()) {
                    throw new UnmappableTypeException(
                            "automap: field " + f.path + " unsigned true (expected: false on a record field)");
                }
            }
        }

        // Place.
        long cursor = 0;
        long end = 0;
        int maxAlign = 1;
        List<FieldSpec> placed = new ArrayList<>();
        for (FieldSpec f : specs) {
            LayoutField a = annotation(f);
            int align = alignment == Alignment.NATURAL ? fieldAlignment(f) : 1;
            maxAlign = Math.max(maxAlign, align);
            long span = Math.multiplyExact((long) f.count, f.elementExtent());
            long off;
            if (a != null && a.offset() >= 0) {
                off = a.offset();
            } else if (a != null && a.offset() != -1) {
                throw new UnmappableTypeException("automap: field " + f.path + " offset " + a.offset()
                        + " (expected: >= 0, or -1 for the next free offset)");
            } else {
                off = roundUp(cursor, align);
            }
            for (FieldSpec p : placed) {
                long pSpan = p.count * p.elementExtent();
                if (span > 0 && pSpan > 0 && off < p.offset + pSpan && p.offset < off + span) {
                    throw new UnmappableTypeException(
                            "automap: field " + f.path + " offset " + off + " (expected: no overlap with field "
                                    + p.path + " at [" + p.offset + ", " + (p.offset + pSpan) + "))");
                }
            }
            f.offset = off;
            placed.add(f);
            cursor = off + span;
            end = Math.max(end, cursor);
        }
        long extent = roundUp(end, maxAlign);

        long[] bl = new long[specs.size()];
        long[] disps = new long[specs.size()];
        List<Datatype> types = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            FieldSpec f = specs.get(i);
            bl[i] = f.count;
            disps[i] = f.offset;
            types.add(f.elementType());
        }
        Datatype dt = Datatype.struct(bl, disps, types);
        if (dt.lb() != 0 || dt.extent() != extent) {
            dt = Datatype.resized(0, extent, dt);
        }

        RecordCodec[] nested = nestedCodecs.toArray(new RecordCodec[0]);
        RecordCodec codec = null;
        boolean generated = false;
        if (generateCodecs) {
            try {
                codec = CodecGenerator.generate(type, specs, nested);
                generated = true;
            } catch (Throwable t) {
                if (t instanceof VirtualMachineError vme && !(t instanceof StackOverflowError)) {
                    throw vme;
                }
                codec = null; // fall back below
            }
        }
        if (codec == null) {
            try {
                codec = new HandleCodec(type, specs, nested);
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new UnmappableTypeException("automap: type " + type.getName() + " not accessible to layout-core: "
                        + e + " (expected: a class layout-core may access, e.g. in an open package)");
            }
        }
        codec.bind(type);
        List<MappedField> mapped = specs.stream().map(FieldSpec::toMapped).toList();
        return new RecordLayout<>(type, alignment, dt, extent, end, maxAlign, mapped, codec, generated);
    }

    private static void order(Class<?> type, List<FieldSpec> specs) {
        long withOrder = specs.stream()
                .filter(f -> annotation(f) != null && annotation(f).order() >= 0)
                .count();
        if (withOrder > 0) {
            for (FieldSpec f : specs) {
                LayoutField a = annotation(f);
                if (a == null || a.order() < 0) {
                    throw new UnmappableTypeException("automap: field " + f.path + " order "
                            + (a == null ? -1 : a.order()) + " (expected: >= 0, since other fields of "
                            + type.getSimpleName() + " have an order)");
                }
            }
            specs.sort(Comparator.comparingInt(f -> annotation(f).order()));
            for (int i = 1; i < specs.size(); i++) {
                if (annotation(specs.get(i)).order()
                        == annotation(specs.get(i - 1)).order()) {
                    throw new UnmappableTypeException("automap: field " + specs.get(i).path + " order "
                            + annotation(specs.get(i)).order() + " (expected: distinct from field "
                            + specs.get(i - 1).path + ")");
                }
            }
        } else if (!type.isRecord() && specs.size() > 1) {
            boolean allOffsets = specs.stream().allMatch(f -> annotation(f).offset() >= 0);
            if (!allOffsets) {
                FieldSpec f = specs.stream()
                        .filter(s -> annotation(s).offset() < 0)
                        .findFirst()
                        .orElseThrow();
                throw new UnmappableTypeException(
                        "automap: field " + f.path + " order -1 (expected: an explicit order or offset on every "
                                + "field of a plain class, whose field order Java does not specify)");
            }
            specs.sort(Comparator.comparingLong(f -> annotation(f).offset()));
        }
    }

    private static LayoutField annotation(FieldSpec f) {
        if (f.field != null) {
            return f.field.getAnnotation(LayoutField.class);
        }
        // Record component annotations are propagated to the component (RECORD_COMPONENT target).
        for (RecordComponent rc : f.accessor.getDeclaringClass().getRecordComponents()) {
            if (rc.getName().equals(f.name)) {
                return rc.getAnnotation(LayoutField.class);
            }
        }
        return null;
    }

    private static int fieldAlignment(FieldSpec f) {
        if (f.nested != null) {
            return f.nested.byteAlignment();
        }
        return (int) f.primitive.byteSize();
    }

    private static Primitive primitive(FieldSpec f, Class<?> p, LayoutField a) {
        boolean unsigned = a != null && a.unsigned();
        Primitive prim;
        if (p == byte.class) {
            prim = unsigned ? Primitive.UINT8 : Primitive.INT8;
        } else if (p == short.class) {
            prim = unsigned ? Primitive.UINT16 : Primitive.INT16;
        } else if (p == int.class) {
            prim = unsigned ? Primitive.UINT32 : Primitive.INT32;
        } else if (p == long.class) {
            prim = unsigned ? Primitive.UINT64 : Primitive.INT64;
        } else {
            if (unsigned) {
                throw new UnmappableTypeException(
                        "automap: field " + f.path + " unsigned true (expected: false on a " + p.getName() + " field)");
            }
            if (p == float.class) {
                prim = Primitive.FLOAT32;
            } else if (p == double.class) {
                prim = Primitive.FLOAT64;
            } else if (p == char.class) {
                prim = Primitive.UINT16;
            } else {
                prim = Primitive.UINT8; // boolean
            }
        }
        return prim;
    }

    private static UnmappableTypeException unmappable(FieldSpec f, Class<?> jt) {
        return new UnmappableTypeException("automap: field " + f.path + " type " + jt.getTypeName()
                + " (expected: primitive, fixed-length array, record, or class with @LayoutField fields;"
                + " references between objects need AutoLink)");
    }

    private static long roundUp(long v, long align) {
        long r = v % align;
        return r == 0 ? v : v + align - r;
    }
}
