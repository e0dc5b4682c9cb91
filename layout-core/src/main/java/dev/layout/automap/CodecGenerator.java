package dev.layout.automap;

import static dev.layout.bytecode.ClassBytes.*;

import dev.layout.bytecode.ClassBytes;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.RecordComponent;
import java.util.List;

/**
 * Generates a {@link RecordCodec} subclass per mapped class: straight-line bytecode that calls the
 * record accessors (or reads the fields) and the {@link dev.layout.memory.Memory} accessors at
 * constant offsets, so the JIT sees the same code as a hand-written loop. Defined as a hidden
 * nestmate class in the mapped class's package, so private fields and nested private records work.
 */
final class CodecGenerator {
    private static final String MEMORY = "dev/layout/memory/Memory";
    private static final String CODEC = "dev/layout/automap/RecordCodec";
    private static final String SUPPORT = "dev/layout/automap/AutoMapSupport";
    private static final String CODEC_ARRAY = "[L" + CODEC + ";";

    private CodecGenerator() {}

    /** Returns a generated codec, or throws a {@link ReflectiveOperationException}/{@link LinkageError} if the class cannot be defined here. */
    static RecordCodec generate(Class<?> type, List<FieldSpec> fields, RecordCodec[] nested) throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
        // Fail early (and fall back) rather than at first use if something is not accessible.
        lookup.accessClass(type);
        for (FieldSpec f : fields) {
            lookup.accessClass(f.elementClass());
            if (f.accessor != null) {
                lookup.unreflect(f.accessor);
            } else {
                lookup.unreflectGetter(f.field);
                lookup.unreflectSetter(f.field);
            }
        }
        String owner = ClassBytes.internalName(type);
        ClassBytes cb = new ClassBytes(ClassBytes.hiddenName(type, "AutoMapCodec"), CODEC);
        cb.field(ACC_STATIC, "nested", CODEC_ARRAY);
        cb.defaultConstructor(CODEC);
        emitWrite(cb, type, owner, fields);
        emitRead(cb, type, owner, fields);
        MethodHandles.Lookup hidden =
                lookup.defineHiddenClass(cb.toBytes(), true, MethodHandles.Lookup.ClassOption.NESTMATE);
        Class<?> hc = hidden.lookupClass();
        hidden.findStaticSetter(hc, "nested", RecordCodec[].class).invoke(nested);
        RecordCodec codec = (RecordCodec) hidden.findConstructor(hc, java.lang.invoke.MethodType.methodType(void.class))
                .invoke();
        return codec;
    }

    private static void getValue(ClassBytes.Code c, String owner, FieldSpec f, int local) {
        c.aload(local);
        if (f.accessor != null) {
            c.invoke(INVOKEVIRTUAL, owner, f.accessor.getName(), "()" + ClassBytes.descriptor(f.javaType));
        } else {
            c.field(GETFIELD, owner, f.field.getName(), ClassBytes.descriptor(f.javaType));
        }
    }

    private static void memOffset(ClassBytes.Code c, int memLocal, int offLocal, long disp) {
        c.aload(memLocal).lload(offLocal).ldcLong(disp).op(LADD);
    }

    private static String arrayHelperSuffix(Class<?> prim) {
        String n = prim.getName();
        return Character.toUpperCase(n.charAt(0)) + n.substring(1) + "s";
    }

    private static void emitWrite(ClassBytes cb, Class<?> type, String owner, List<FieldSpec> fields) {
        // locals: 0 this, 1 value, 2 memory, 3-4 offset, 5 typed value
        ClassBytes.Code c = cb.code();
        c.aload(1).checkcast(owner).astore(5);
        for (FieldSpec f : fields) {
            switch (f.kind) {
                case PRIMITIVE -> {
                    memOffset(c, 2, 3, f.offset);
                    getValue(c, owner, f, 5);
                    Class<?> p = f.javaType;
                    String put;
                    if (p == boolean.class || p == byte.class) {
                        put = "putByte:(JB)V";
                    } else if (p == short.class) {
                        put = "putShort:(JS)V";
                    } else if (p == char.class) {
                        c.op(I2S);
                        put = "putShort:(JS)V";
                    } else if (p == int.class) {
                        put = "putInt:(JI)V";
                    } else if (p == long.class) {
                        put = "putLong:(JJ)V";
                    } else if (p == float.class) {
                        put = "putFloat:(JF)V";
                    } else {
                        put = "putDouble:(JD)V";
                    }
                    String[] nd = put.split(":");
                    c.invoke(INVOKEVIRTUAL, MEMORY, nd[0], nd[1]);
                }
                case PRIMITIVE_ARRAY -> {
                    getValue(c, owner, f, 5);
                    c.ldcInt(f.count);
                    memOffset(c, 2, 3, f.offset);
                    c.ldcString(f.path);
                    Class<?> comp = f.javaType.getComponentType();
                    c.invoke(
                            INVOKESTATIC,
                            SUPPORT,
                            "put" + arrayHelperSuffix(comp),
                            "(" + ClassBytes.descriptor(f.javaType) + "IL" + MEMORY + ";JLjava/lang/String;)V");
                }
                case RECORD -> {
                    c.field(GETSTATIC, cb.thisName(), "nested", CODEC_ARRAY)
                            .ldcInt(f.nestedIndex)
                            .op(AALOAD);
                    getValue(c, owner, f, 5);
                    c.ldcString(f.path)
                            .invoke(
                                    INVOKESTATIC,
                                    SUPPORT,
                                    "nonNull",
                                    "(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;");
                    memOffset(c, 2, 3, f.offset);
                    c.invoke(INVOKEVIRTUAL, CODEC, "write", "(Ljava/lang/Object;L" + MEMORY + ";J)V");
                }
                case RECORD_ARRAY -> {
                    c.field(GETSTATIC, cb.thisName(), "nested", CODEC_ARRAY)
                            .ldcInt(f.nestedIndex)
                            .op(AALOAD);
                    getValue(c, owner, f, 5);
                    c.ldcInt(f.count);
                    memOffset(c, 2, 3, f.offset);
                    c.ldcLong(f.nested.extent()).ldcString(f.path);
                    c.invoke(
                            INVOKEVIRTUAL,
                            CODEC,
                            "writeArrayField",
                            "([Ljava/lang/Object;IL" + MEMORY + ";JJLjava/lang/String;)V");
                }
            }
        }
        c.op(RETURN);
        c.end(ACC_PUBLIC, "write", "(Ljava/lang/Object;L" + MEMORY + ";J)V", 16, 6);
    }

    private static int pushRead(ClassBytes.Code c, ClassBytes cb, FieldSpec f) {
        // locals: 1 memory, 2-3 offset; returns the slots the value takes
        switch (f.kind) {
            case PRIMITIVE -> {
                memOffset(c, 1, 2, f.offset);
                Class<?> p = f.javaType;
                if (p == boolean.class) {
                    c.invoke(INVOKEVIRTUAL, MEMORY, "getByte", "(J)B")
                            .invoke(INVOKESTATIC, SUPPORT, "toBoolean", "(B)Z");
                } else if (p == byte.class) {
                    c.invoke(INVOKEVIRTUAL, MEMORY, "getByte", "(J)B");
                } else if (p == short.class) {
                    c.invoke(INVOKEVIRTUAL, MEMORY, "getShort", "(J)S");
                } else if (p == char.class) {
                    c.invoke(INVOKEVIRTUAL, MEMORY, "getShort", "(J)S").op(I2C);
                } else if (p == int.class) {
                    c.invoke(INVOKEVIRTUAL, MEMORY, "getInt", "(J)I");
                } else if (p == long.class) {
                    c.invoke(INVOKEVIRTUAL, MEMORY, "getLong", "(J)J");
                    return 2;
                } else if (p == float.class) {
                    c.invoke(INVOKEVIRTUAL, MEMORY, "getFloat", "(J)F");
                } else {
                    c.invoke(INVOKEVIRTUAL, MEMORY, "getDouble", "(J)D");
                    return 2;
                }
                return 1;
            }
            case PRIMITIVE_ARRAY -> {
                c.ldcInt(f.count);
                memOffset(c, 1, 2, f.offset);
                c.invoke(
                        INVOKESTATIC,
                        SUPPORT,
                        "get" + arrayHelperSuffix(f.javaType.getComponentType()),
                        "(IL" + MEMORY + ";J)" + ClassBytes.descriptor(f.javaType));
                return 1;
            }
            case RECORD -> {
                c.field(GETSTATIC, cb.thisName(), "nested", CODEC_ARRAY)
                        .ldcInt(f.nestedIndex)
                        .op(AALOAD);
                memOffset(c, 1, 2, f.offset);
                c.invoke(INVOKEVIRTUAL, CODEC, "read", "(L" + MEMORY + ";J)Ljava/lang/Object;")
                        .checkcast(ClassBytes.internalName(f.javaType));
                return 1;
            }
            default -> {
                c.field(GETSTATIC, cb.thisName(), "nested", CODEC_ARRAY)
                        .ldcInt(f.nestedIndex)
                        .op(AALOAD);
                c.ldcInt(f.count);
                memOffset(c, 1, 2, f.offset);
                c.ldcLong(f.nested.extent());
                c.invoke(INVOKEVIRTUAL, CODEC, "readArrayField", "(IL" + MEMORY + ";JJ)[Ljava/lang/Object;")
                        .checkcast(ClassBytes.descriptor(f.javaType));
                return 1;
            }
        }
    }

    private static void emitRead(ClassBytes cb, Class<?> type, String owner, List<FieldSpec> fields) {
        ClassBytes.Code c = cb.code();
        int slots = 0;
        if (type.isRecord()) {
            RecordComponent[] comps = type.getRecordComponents();
            FieldSpec[] byDecl = new FieldSpec[comps.length];
            for (FieldSpec f : fields) {
                byDecl[f.declarationIndex] = f;
            }
            StringBuilder desc = new StringBuilder("(");
            c.op2(NEW, cb.classRef(owner)).op(DUP);
            for (FieldSpec f : byDecl) {
                slots += pushRead(c, cb, f);
                desc.append(ClassBytes.descriptor(f.javaType));
            }
            c.invoke(INVOKESPECIAL, owner, "<init>", desc.append(")V").toString());
            c.op(ARETURN);
        } else {
            c.op2(NEW, cb.classRef(owner))
                    .op(DUP)
                    .invoke(INVOKESPECIAL, owner, "<init>", "()V")
                    .astore(4);
            for (FieldSpec f : fields) {
                c.aload(4);
                pushRead(c, cb, f);
                c.field(PUTFIELD, owner, f.field.getName(), ClassBytes.descriptor(f.javaType));
            }
            c.aload(4).op(ARETURN);
        }
        c.end(ACC_PUBLIC, "read", "(L" + MEMORY + ";J)Ljava/lang/Object;", slots + 16, 5);
    }
}
