package dev.layout.automap;

import dev.layout.memory.Memory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.List;

/**
 * The fallback codec: method handles obtained once, invoked generically. Correct everywhere the
 * generated codec is, several times slower; used when a hidden class cannot be defined next to the
 * mapped class (e.g. a package of a named module that is not opened to layout-core).
 */
final class HandleCodec extends RecordCodec {
    private final List<FieldSpec> fields;
    private final RecordCodec[] nested;
    private final MethodHandle[] getters; // (Object)Object
    private final MethodHandle[] setters; // (Object,Object)void, plain classes only
    private final MethodHandle constructor; // records: (Object[])Object spreader; plain: ()Object
    private final boolean isRecord;
    private final int[] declToField;

    HandleCodec(Class<?> type, List<FieldSpec> fields, RecordCodec[] nested) throws ReflectiveOperationException {
        this.fields = fields;
        this.nested = nested;
        this.isRecord = type.isRecord();
        MethodHandles.Lookup l = MethodHandles.lookup();
        getters = new MethodHandle[fields.size()];
        setters = new MethodHandle[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            FieldSpec f = fields.get(i);
            if (f.accessor != null) {
                f.accessor.setAccessible(true);
                getters[i] = l.unreflect(f.accessor).asType(MethodType.methodType(Object.class, Object.class));
            } else {
                f.field.setAccessible(true);
                getters[i] = l.unreflectGetter(f.field).asType(MethodType.methodType(Object.class, Object.class));
                setters[i] = l.unreflectSetter(f.field)
                        .asType(MethodType.methodType(void.class, Object.class, Object.class));
            }
        }
        if (isRecord) {
            RecordComponent[] comps = type.getRecordComponents();
            Class<?>[] types = new Class<?>[comps.length];
            declToField = new int[comps.length];
            for (int i = 0; i < comps.length; i++) {
                types[i] = comps[i].getType();
            }
            for (int i = 0; i < fields.size(); i++) {
                declToField[fields.get(i).declarationIndex] = i;
            }
            Constructor<?> c = type.getDeclaredConstructor(types);
            c.setAccessible(true);
            constructor = l.unreflectConstructor(c)
                    .asSpreader(Object[].class, comps.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } else {
            declToField = null;
            Constructor<?> c = type.getDeclaredConstructor();
            c.setAccessible(true);
            constructor = l.unreflectConstructor(c).asType(MethodType.methodType(Object.class));
        }
    }

    @Override
    public void write(Object value, Memory m, long offset) {
        try {
            for (int i = 0; i < fields.size(); i++) {
                FieldSpec f = fields.get(i);
                Object v = (Object) getters[i].invokeExact(value);
                long o = offset + f.offset;
                switch (f.kind) {
                    case PRIMITIVE -> writePrimitive(v, m, o);
                    case PRIMITIVE_ARRAY -> writePrimitiveArray(f, v, m, o);
                    case RECORD -> nested[f.nestedIndex].write(AutoMapSupport.nonNull(v, f.path), m, o);
                    case RECORD_ARRAY ->
                        nested[f.nestedIndex].writeArrayField((Object[]) v, f.count, m, o, f.nested.extent(), f.path);
                }
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("write: " + t, t);
        }
    }

    private static void writePrimitive(Object v, Memory m, long o) {
        if (v instanceof Integer x) {
            m.putInt(o, x);
        } else if (v instanceof Long x) {
            m.putLong(o, x);
        } else if (v instanceof Double x) {
            m.putDouble(o, x);
        } else if (v instanceof Float x) {
            m.putFloat(o, x);
        } else if (v instanceof Short x) {
            m.putShort(o, x);
        } else if (v instanceof Character x) {
            m.putShort(o, (short) x.charValue());
        } else if (v instanceof Byte x) {
            m.putByte(o, x);
        } else {
            m.putByte(o, (byte) (((Boolean) v) ? 1 : 0));
        }
    }

    private static void writePrimitiveArray(FieldSpec f, Object v, Memory m, long o) {
        Class<?> c = f.javaType.getComponentType();
        int n = f.count;
        String p = f.path;
        if (c == int.class) {
            AutoMapSupport.putInts((int[]) v, n, m, o, p);
        } else if (c == long.class) {
            AutoMapSupport.putLongs((long[]) v, n, m, o, p);
        } else if (c == double.class) {
            AutoMapSupport.putDoubles((double[]) v, n, m, o, p);
        } else if (c == float.class) {
            AutoMapSupport.putFloats((float[]) v, n, m, o, p);
        } else if (c == short.class) {
            AutoMapSupport.putShorts((short[]) v, n, m, o, p);
        } else if (c == char.class) {
            AutoMapSupport.putChars((char[]) v, n, m, o, p);
        } else if (c == byte.class) {
            AutoMapSupport.putBytes((byte[]) v, n, m, o, p);
        } else {
            AutoMapSupport.putBooleans((boolean[]) v, n, m, o, p);
        }
    }

    private Object readField(FieldSpec f, Memory m, long offset) {
        long o = offset + f.offset;
        switch (f.kind) {
            case PRIMITIVE -> {
                Class<?> c = f.javaType;
                if (c == int.class) return m.getInt(o);
                if (c == long.class) return m.getLong(o);
                if (c == double.class) return m.getDouble(o);
                if (c == float.class) return m.getFloat(o);
                if (c == short.class) return m.getShort(o);
                if (c == char.class) return (char) m.getShort(o);
                if (c == byte.class) return m.getByte(o);
                return m.getByte(o) != 0;
            }
            case PRIMITIVE_ARRAY -> {
                Class<?> c = f.javaType.getComponentType();
                int n = f.count;
                if (c == int.class) return AutoMapSupport.getInts(n, m, o);
                if (c == long.class) return AutoMapSupport.getLongs(n, m, o);
                if (c == double.class) return AutoMapSupport.getDoubles(n, m, o);
                if (c == float.class) return AutoMapSupport.getFloats(n, m, o);
                if (c == short.class) return AutoMapSupport.getShorts(n, m, o);
                if (c == char.class) return AutoMapSupport.getChars(n, m, o);
                if (c == byte.class) return AutoMapSupport.getBytes(n, m, o);
                return AutoMapSupport.getBooleans(n, m, o);
            }
            case RECORD -> {
                return nested[f.nestedIndex].read(m, o);
            }
            default -> {
                return nested[f.nestedIndex].readArrayField(f.count, m, o, f.nested.extent());
            }
        }
    }

    @Override
    public Object read(Memory m, long offset) {
        try {
            if (isRecord) {
                Object[] args = new Object[declToField.length];
                for (int d = 0; d < args.length; d++) {
                    args[d] = readField(fields.get(declToField[d]), m, offset);
                }
                return (Object) constructor.invokeExact(args);
            }
            Object o = (Object) constructor.invokeExact();
            for (int i = 0; i < fields.size(); i++) {
                setters[i].invokeExact(o, readField(fields.get(i), m, offset));
            }
            return o;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("read: " + t, t);
        }
    }
}
