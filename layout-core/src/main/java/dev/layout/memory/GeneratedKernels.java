package dev.layout.memory;

import static dev.layout.bytecode.ClassBytes.*;

import dev.layout.bytecode.ClassBytes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What {@link WordKernel} and {@link PlaneKernel} share: the switch, the bound on generated classes,
 * defining a hidden class in this package (so it reads {@code Memory.U}) and the emitted move.
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
    return instantiate(cb.toBytes(), what);
  }

  /** Defines a hidden class in this package from {@code classFile} and calls its no-argument constructor. */
  static Object instantiate(byte[] classFile, String what) {
    try {
      MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(classFile, true);
      return hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke();
    } catch (Throwable e) {
      throw new IllegalStateException("could not define the generated kernel for " + what + ": " + e, e);
    }
  }

  /** A package-private constructor calling {@code superName}'s. */
  static void constructor(ClassBytes cb, String superName) {
    cb.code().aload(0).invoke(INVOKESPECIAL, superName, "<init>", "()V").op(RETURN).end(0, "<init>", "()V", 1, 1);
  }

  /**
   * Emits {@code U.putX(obj[to], addr[to] + toOff, U.getX(obj[from], addr[from] + fromOff))} for an
   * 8-byte ({@code wide}) or 4-byte word; objects and addresses are locals.
   */
  static void move(ClassBytes.Code c, boolean wide, int toObj, int toAddr, long toOff, int fromObj, int fromAddr, long fromOff) {
    c.field(GETSTATIC, "dev/layout/memory/Memory", "U", "L" + UNSAFE + ";");
    c.aload(toObj);
    address(c, toAddr, toOff);
    c.field(GETSTATIC, "dev/layout/memory/Memory", "U", "L" + UNSAFE + ";");
    c.aload(fromObj);
    address(c, fromAddr, fromOff);
    if (wide) {
      c.invoke(INVOKEVIRTUAL, UNSAFE, "getLong", "(Ljava/lang/Object;J)J");
      c.invoke(INVOKEVIRTUAL, UNSAFE, "putLong", "(Ljava/lang/Object;JJ)V");
    } else {
      c.invoke(INVOKEVIRTUAL, UNSAFE, "getInt", "(Ljava/lang/Object;J)I");
      c.invoke(INVOKEVIRTUAL, UNSAFE, "putInt", "(Ljava/lang/Object;JI)V");
    }
  }

  private static void address(ClassBytes.Code c, int local, long offset) {
    c.lload(local);
    if (offset != 0) {
      c.ldcLong(offset).op(LADD);
    }
  }
}
