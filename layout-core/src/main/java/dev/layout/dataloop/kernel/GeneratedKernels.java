package dev.layout.dataloop.kernel;

import static dev.layout.bytecode.ClassBytes.*;

import dev.layout.bytecode.ClassBytes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What {@link WordKernel} and {@link PlaneKernel} share: the switch, the bound on generated classes,
 * defining a hidden class in this package (so it reads {@code MemoryAccess.U}) and the emitted move.
 */
final class GeneratedKernels {
    /** How many distinct shapes get a generated class, per kind of kernel; a bound on metaspace for programs with many types. */
    static final int MAX_CLASSES = 1024;

    /** {@code -Dlayout.kernels.generate=false} turns generation off (the engine's generic loops run). */
    static final boolean ENABLED = !"false".equals(System.getProperty("layout.kernels.generate"));

    private static final String UNSAFE = "sun/misc/Unsafe";

    private GeneratedKernels() {}

    /** The cached kernel for {@code key}, generated on first request; null when generation is off or the bound is reached. */
    static <K, V> V cached(ConcurrentHashMap<K, V> cache, K key, Function<K, V> generate) {
        if (!ENABLED) {
            return null;
        }
        V v = cache.get(key);
        if (v != null || cache.size() >= MAX_CLASSES) {
            return v;
        }
        return cache.computeIfAbsent(key, generate);
    }

    /** Defines the class and calls its no-argument constructor. */
    static Object instantiate(ClassBytes cb, String what) {
        return instantiate(cb.toBytes(), null, what);
    }

    /**
     * Defines a hidden class in this package from {@code classFile} and calls its no-argument
     * constructor; the class gets {@code classData} (read with {@link MethodHandles#classData}) when
     * it is not null.
     */
    static Object instantiate(byte[] classFile, Object classData, String what) {
        try {
            MethodHandles.Lookup hidden = classData == null
                    ? MethodHandles.lookup().defineHiddenClass(classFile, true)
                    : MethodHandles.lookup().defineHiddenClassWithClassData(classFile, classData, true);
            return hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("could not define the generated kernel for " + what + ": " + e, e);
        }
    }

    /** A package-private constructor calling {@code superName}'s. */
    static void constructor(ClassBytes cb, String superName) {
        cb.code()
                .aload(0)
                .invoke(INVOKESPECIAL, superName, "<init>", "()V")
                .op(RETURN)
                .end(0, "<init>", "()V", 1, 1);
    }

    /** Refuses a kinds value other than 0-3. */
    static void checkKinds(String what, int kinds) {
        if (kinds < 0 || kinds > 3) {
            throw new IllegalArgumentException(
                    what + ": kinds " + kinds + " (expected: 0-3 from MemoryAccess.baseKinds)");
        }
    }

    /**
     * Emits, at the start of a kernel for {@code kinds} ({@link MemoryAccess#baseKinds}), code that
     * replaces the user base (local {@code userLocal}) and the packed base ({@code packedLocal}) with
     * the constant null where that memory is off-heap and with a {@code byte[]} (what every heap {@code
     * Memory} is) checked not to be null where it is an array. Exploits: C2 compiles an Unsafe access
     * whose base may be null, or an array of unknown type, as a "mixed" access (kept in order by
     * barriers, not unrolled); with the kind and the array type fixed in the code, not only in the
     * profile, the moves compile as a hand-written loop's for that memory.
     */
    static void fixBases(ClassBytes.Code c, int kinds, int userLocal, int packedLocal) {
        fixBase(c, (kinds & 1) != 0, userLocal);
        fixBase(c, (kinds & 2) != 0, packedLocal);
    }

    private static void fixBase(ClassBytes.Code c, boolean offHeap, int local) {
        if (offHeap) {
            c.op(ACONST_NULL).astore(local);
        } else {
            c.aload(local)
                    .invoke(
                            INVOKESTATIC,
                            "java/util/Objects",
                            "requireNonNull",
                            "(Ljava/lang/Object;)Ljava/lang/Object;")
                    .checkcast("[B")
                    .astore(local);
        }
    }

    /**
     * Emits {@code U.putX(obj[to], addr[to] + toOff, U.getX(obj[from], addr[from] + fromOff))} for a
     * word of {@code bytes} (1, 2, 4 or 8); objects and addresses are locals.
     */
    static void move(
            ClassBytes.Code c, int bytes, int toObj, int toAddr, long toOff, int fromObj, int fromAddr, long fromOff) {
        String t =
                switch (bytes) {
                    case 8 -> "J";
                    case 4 -> "I";
                    case 2 -> "S";
                    case 1 -> "B";
                    default -> throw new IllegalArgumentException("move: bytes " + bytes + " (expected: 1, 2, 4 or 8)");
                };
        String name =
                switch (bytes) {
                    case 8 -> "Long";
                    case 4 -> "Int";
                    case 2 -> "Short";
                    default -> "Byte";
                };
        c.field(GETSTATIC, "dev/layout/dataloop/kernel/MemoryAccess", "U", "L" + UNSAFE + ";");
        c.aload(toObj);
        address(c, toAddr, toOff);
        c.field(GETSTATIC, "dev/layout/dataloop/kernel/MemoryAccess", "U", "L" + UNSAFE + ";");
        c.aload(fromObj);
        address(c, fromAddr, fromOff);
        c.invoke(INVOKEVIRTUAL, UNSAFE, "get" + name, "(Ljava/lang/Object;J)" + t);
        c.invoke(INVOKEVIRTUAL, UNSAFE, "put" + name, "(Ljava/lang/Object;J" + t + ")V");
    }

    private static void address(ClassBytes.Code c, int local, long offset) {
        c.lload(local);
        if (offset != 0) {
            c.ldcLong(offset).op(LADD);
        }
    }
}
