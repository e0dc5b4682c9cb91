package dev.layout.dataloop;

import dev.layout.bench.Meter;
import dev.layout.bench.PackSuite;
import dev.layout.bench.Target;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Locale;

/**
 * The resolution of the pack suite's statistic: the same hand-written loop against a second
 * compilation of itself. {@link RossCase} is loaded a second time through a class loader of its own
 * (child-first for {@code RossCase} and its nested classes, which use only public API), so the twin's
 * loops are separate classes with their own profiles and machine code, and the pair is raced exactly
 * as the suite races engine against hand loop (adjacent slices, median of pair ratios, {@link
 * PackSuite#paired}). A twin ratio away from 1.00 is what compiling and placing the same code twice
 * does to a row; an engine/manual ratio within that spread of 1.00 is parity. Both sides are called
 * through the same kind of method handle. One JVM per invocation; run it several times for the
 * spread across JVMs.
 *
 * <pre>java -cp ... dev.layout.dataloop.TwinLoopRace [heap|direct|offheap ...] [case ...]   (default: all three; the 3D XZ and XY faces and Indexed(float64))</pre>
 */
public final class TwinLoopRace {
  private TwinLoopRace() {}

  private static final int PAIRS = 12;
  private static final long SLICE_NANOS = 25_000_000L;
  private static final String[] DEFAULT_CASES = {"FACE_XZ_F32", "FACE_XY_F32", "INDEXED_F64"};
  private static final MethodType LOOP = MethodType.methodType(void.class, Object.class, long.class, Object.class, long.class);

  /** Loads {@code dev.layout.dataloop.RossCase*} itself; everything else from the parent. */
  static final class TwinLoader extends URLClassLoader {
    TwinLoader(URL classes, ClassLoader parent) {
      super(new URL[] {classes}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith(RossCase.class.getName())) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }

  /** The twin of {@code c} at {@code size}: the same case built by the second copy of {@link RossCase}. */
  static Object twinInstance(String c, RossCase.Size sizeWanted) throws ReflectiveOperationException {
    URL classes = RossCase.class.getProtectionDomain().getCodeSource().getLocation();
    Class<?> twin = new TwinLoader(classes, RossCase.class.getClassLoader()).loadClass(RossCase.class.getName());
    if (twin == RossCase.class) {
      throw new IllegalStateException("twin loop race: the second RossCase is the first one (class loader delegated)");
    }
    Class<?> size = Class.forName(RossCase.class.getName() + "$Size", true, twin.getClassLoader());
    Object constant = twin.getMethod("valueOf", String.class).invoke(null, c);
    Object wanted = size.getMethod("valueOf", String.class).invoke(null, sizeWanted.name());
    return twin.getMethod("create", size).invoke(constant, wanted);
  }

  /** A handle on {@code instance.name(Object, long, Object, long)}, bound to the instance. */
  static MethodHandle loop(Object instance, String name) throws ReflectiveOperationException {
    Class<?> base = Class.forName(RossCase.class.getName() + "$Instance", true, instance.getClass().getClassLoader());
    return MethodHandles.publicLookup().findVirtual(base, name, LOOP).bindTo(instance);
  }

  public static void main(String[] args) throws Throwable {
    java.util.List<Target> targets = Target.named(args, Target.values());
    java.util.List<String> cases = Target.others(args).stream().map(a -> RossCase.valueOf(a.toUpperCase(Locale.ROOT)).name()).toList();
    if (cases.isEmpty()) {
      cases = java.util.List.of(DEFAULT_CASES);
    }
    System.out.println("twin loop race: " + Meter.machine() + "; " + Meter.jvm());
    System.out.printf(Locale.ROOT, "%-22s %-6s %-8s %12s %12s %12s %8s %8s%n", "test", "op", "target", "manual MB/s", "twin MB/s", "engine MB/s",
        "twin/man", "eng/man");
    for (String c : cases) {
      RossCase.Instance in = RossCase.valueOf(c).create(RossCase.Size.FULL);
      Object twin = twinInstance(c, RossCase.Size.FULL);
      for (Target t : targets) {
        race(RossCase.valueOf(c).title(), in, twin, t);
      }
    }
  }

  private static void race(String title, RossCase.Instance in, Object twin, Target target) throws Throwable {
    long n = in.packedBytes;
    try (Target.Buf user = target.allocate(in.userBytes); Target.Buf packed = target.allocate(n)) {
      user.fillPattern();
      Segment seg = Segment.of(in.type, in.count, user.memory, in.origin);
      for (String op : new String[] {"pack", "unpack"}) {
        boolean pack = op.equals("pack");
        MethodHandle mine = loop(in, op);
        MethodHandle theirs = loop(twin, op);
        Object first = pack ? user.base : packed.base;
        long firstAt = pack ? user.address : packed.address;
        Object second = pack ? packed.base : user.base;
        long secondAt = pack ? packed.address : user.address;
        Runnable manual = () -> call(mine, first, firstAt, second, secondAt);
        Runnable copy = () -> call(theirs, first, firstAt, second, secondAt);
        Runnable engine = PackSuite.engine(seg, packed.memory, n, pack);
        Meter.warm(n, SLICE_NANOS, 4, manual, copy, engine);
        PackSuite.Paired tw = PackSuite.paired(manual, copy, n, SLICE_NANOS, PAIRS);
        PackSuite.Paired en = PackSuite.paired(manual, engine, n, SLICE_NANOS, PAIRS);
        System.out.printf(Locale.ROOT, "%-22s %-6s %-8s %12.1f %12.1f %12.1f %8.2f %8.2f%n", title, op, target.label(), tw.base(), tw.candidate(),
            en.candidate(), tw.ratio(), en.ratio());
      }
    }
  }

  private static void call(MethodHandle loop, Object a, long aAt, Object b, long bAt) {
    try {
      loop.invokeExact(a, aAt, b, bAt);
    } catch (Throwable e) {
      throw new IllegalStateException("twin loop race: hand loop failed: " + e, e);
    }
  }
}
