package dev.layout.autolink;

import static dev.layout.bytecode.ClassBytes.*;

import dev.layout.bytecode.ClassBytes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Modifier;

/**
 * The compact-form writer and reader of one {@link FlatRow} type, generated per type: straight-line
 * code with the field offsets and widths as constants, instead of the per-field loop and switch over
 * the row's codes (which cost the encoder about as much as the fields themselves). References go
 * back to the encoder and decoder, which number, check and link them: a field whose declared class
 * is final to {@link CompactEncoder#finalReference} (no class check: the field can hold nothing
 * else) with the target's type id as a constant, others to {@link CompactEncoder#flatReference}; a
 * field whose target is a class to {@link CompactDecoder#classTarget} (the node exists once
 * introduced), one whose target is a record to {@link CompactDecoder#flatTarget} (linked after the
 * record is read). Booleans read through {@link CompactDecoder#bool}. Same bytes as the loops.
 */
abstract class FlatCodec {
    /** The row this codec was generated from, and its record's bytes (set once, when made). */
    FlatRow row;

    int width;

    /**
     * Writes o's record at raw position {@code p} of {@code b} ({@link FlatRow#BYTES} plus the
     * index; room for {@link FlatRow#width} bytes ensured) and returns the raw position past it.
     */
    abstract long write(Object o, byte[] b, long p, CompactEncoder e, FlatRow row);

    /** Reads o's record at raw position {@code p} of {@code b} ({@link FlatRow#width} bytes there, checked) and returns the position past it. */
    abstract long read(Object o, byte[] b, long p, CompactDecoder d, FlatRow row);

    private static final String SELF = ClassBytes.internalName(FlatCodec.class);
    private static final String UNSAFE = "sun/misc/Unsafe";
    private static final String U = "Lsun/misc/Unsafe;";
    private static final String OBJECT = "Ljava/lang/Object;";
    private static final String OFFSETS = ClassBytes.internalName(FieldOffsets.class);
    private static final String ENCODER = ClassBytes.internalName(CompactEncoder.class);
    private static final String DECODER = ClassBytes.internalName(CompactDecoder.class);
    private static final String ROW = ClassBytes.internalName(FlatRow.class);

    /** The generated codec of {@code row}, or null where none can be defined (the callers keep their loops). */
    static FlatCodec of(FlatRow row) {
        if (row == null) {
            return null;
        }
        try {
            ClassBytes cb = new ClassBytes(SELF + "$$Row", SELF);
            cb.defaultConstructor(SELF);
            emitWrite(cb, row);
            emitRead(cb, row);
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(cb.toBytes(), true);
            FlatCodec codec =
                    (FlatCodec) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class))
                            .invoke();
            codec.row = row;
            codec.width = row.width;
            return codec;
        } catch (Throwable e) {
            return null;
        }
    }

    /** The Unsafe accessor suffix and descriptor of a width code (a boolean's byte is 0 or 1). */
    private static String[] kind(int code) {
        return switch (code) {
            case FlatRow.BOOLEAN, FlatRow.BYTE -> new String[] {"Byte", "B", "1"};
            case FlatRow.W2 -> new String[] {"Short", "S", "2"};
            case FlatRow.W4 -> new String[] {"Int", "I", "4"};
            case FlatRow.W8 -> new String[] {"Long", "J", "8"};
            default -> new String[] {"Int", "I", "4"}; // REF: an int32 node number
        };
    }

    // locals of both methods: 0 this, 1 o, 2 b, 3-4 p, 5 encoder or decoder, 6 row
    private static void emitWrite(ClassBytes cb, FlatRow row) {
        ClassBytes.Code c = cb.code();
        for (int k = 0; k < row.codes.length; k++) {
            String[] kd = kind(row.codes[k]);
            c.field(GETSTATIC, OFFSETS, "U", U).aload(2).lload(3);
            if (row.codes[k] == FlatRow.REF && Modifier.isFinal(row.fields[k].target.getModifiers())) {
                // a field of a final class holds only that class: no class check, the type id a constant
                c.aload(5);
                fieldGet(c, row.offsets[k], "Object", OBJECT);
                c.ldcInt(row.fields[k].targetId);
                c.invoke(INVOKEVIRTUAL, ENCODER, "finalReference", "(" + OBJECT + "I)I");
            } else if (row.codes[k] == FlatRow.REF) {
                c.aload(5);
                fieldGet(c, row.offsets[k], "Object", OBJECT);
                c.aload(6).ldcInt(k);
                c.invoke(INVOKEVIRTUAL, ENCODER, "flatReference", "(" + OBJECT + "L" + ROW + ";I)I");
            } else {
                fieldGet(c, row.offsets[k], kd[0], kd[1]);
            }
            c.invoke(INVOKEVIRTUAL, UNSAFE, "put" + kd[0], "(" + OBJECT + "J" + kd[1] + ")V");
            advance(c, kd);
        }
        c.lload(3).op(LRETURN);
        c.end(ACC_PUBLIC | ACC_FINAL, "write", "(" + OBJECT + "[BJL" + ENCODER + ";L" + ROW + ";)J", 12, 7);
    }

    private static void emitRead(ClassBytes cb, FlatRow row) {
        ClassBytes.Code c = cb.code();
        for (int k = 0; k < row.codes.length; k++) {
            int code = row.codes[k];
            String[] kd = kind(code);
            c.field(GETSTATIC, OFFSETS, "U", U).aload(1).ldcLong(row.offsets[k]);
            if (code == FlatRow.REF && !row.fields[k].target.isRecord()) {
                // a class node exists from its introduction on: no deferred link, the type id a constant
                c.aload(5);
                bufferGet(c, kd);
                c.ldcInt(row.fields[k].targetId).aload(6).ldcInt(k);
                c.invoke(INVOKEVIRTUAL, DECODER, "classTarget", "(IIL" + ROW + ";I)" + OBJECT);
                c.invoke(INVOKEVIRTUAL, UNSAFE, "putObject", "(" + OBJECT + "J" + OBJECT + ")V");
            } else if (code == FlatRow.REF) {
                c.aload(5).aload(1).aload(6).ldcInt(k);
                bufferGet(c, kd);
                c.invoke(INVOKEVIRTUAL, DECODER, "flatTarget", "(" + OBJECT + "L" + ROW + ";II)" + OBJECT);
                c.invoke(INVOKEVIRTUAL, UNSAFE, "putObject", "(" + OBJECT + "J" + OBJECT + ")V");
            } else if (code == FlatRow.BOOLEAN) {
                bufferGet(c, kd);
                c.invoke(INVOKESTATIC, DECODER, "bool", "(B)Z");
                c.invoke(INVOKEVIRTUAL, UNSAFE, "putBoolean", "(" + OBJECT + "JZ)V");
            } else {
                bufferGet(c, kd);
                c.invoke(INVOKEVIRTUAL, UNSAFE, "put" + kd[0], "(" + OBJECT + "J" + kd[1] + ")V");
            }
            advance(c, kd);
        }
        c.lload(3).op(LRETURN);
        c.end(ACC_PUBLIC | ACC_FINAL, "read", "(" + OBJECT + "[BJL" + DECODER + ";L" + ROW + ";)J", 14, 7);
    }

    /** Pushes {@code U.get<kind>(o, off)}: o is local 1, the offset a constant. */
    private static void fieldGet(ClassBytes.Code c, long off, String kind, String desc) {
        c.field(GETSTATIC, OFFSETS, "U", U).aload(1).ldcLong(off);
        c.invoke(INVOKEVIRTUAL, UNSAFE, "get" + kind, "(" + OBJECT + "J)" + desc);
    }

    /** Pushes {@code U.get<kind>(b, p)}. */
    private static void bufferGet(ClassBytes.Code c, String[] kd) {
        c.field(GETSTATIC, OFFSETS, "U", U).aload(2).lload(3);
        c.invoke(INVOKEVIRTUAL, UNSAFE, "get" + kd[0], "(" + OBJECT + "J)" + kd[1]);
    }

    /** p += the field's width. */
    private static void advance(ClassBytes.Code c, String[] kd) {
        c.lload(3).ldcLong(Long.parseLong(kd[2])).op(LADD).lstore(3);
    }
}
