package dev.layout.autolink;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * Direct field access for the fields of class node types (not records: the JDK refuses their
 * offsets). The codec reads and writes millions of fields per graph; a non-constant method handle
 * costs a customization check and an indirect call each time, an offset is one load or store. Only
 * objects of the field's exact declaring class hierarchy ever reach these offsets: aggregation
 * checks every node's class exactly, and expansion creates the nodes itself.
 */
final class FieldOffsets {
    private FieldOffsets() {}

    static final sun.misc.Unsafe U = unsafe();

    private static sun.misc.Unsafe unsafe() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // method handles only
        }
    }

    /** The field's offset, or -1 where only its method handles may be used. */
    @SuppressWarnings("deprecation")
    static long of(Field f) {
        if (U == null
                || Modifier.isStatic(f.getModifiers())
                || f.getDeclaringClass().isRecord()
                || f.getDeclaringClass().isHidden()) {
            return -1;
        }
        try {
            return U.objectFieldOffset(f);
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
