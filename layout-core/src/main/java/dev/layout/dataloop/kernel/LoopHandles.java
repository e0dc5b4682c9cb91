package dev.layout.dataloop.kernel;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;

/**
 * Handles to a kernel object's loops, through which the kernels ({@link StridedLoops}, {@link
 * GeneratedKernel}) make their long calls. Exploits: a call through a handle that is not a constant
 * is never inlined, so the loop runs compiled as a method of its own, whoever calls it. A call site
 * that has met one kernel class (a JVM moving one shape) is otherwise inlined into the walk, where the
 * loop shares the walk's registers: there a listed loop kept its packed pointer on the stack, a store
 * and a load per block (benchmarks/issue-22-rounds.md, session 40).
 */
final class LoopHandles {
    /**
     * Calls of at least this many loop iterations (blocks, or a generated kernel's rows) go through the
     * handles. Why a count of iterations: the handle costs once per call (about ten nanoseconds), a
     * spilled loop a few cycles per iteration, so the handle pays from a few dozen iterations whatever
     * their width; smaller calls are direct.
     */
    static final int MIN_ITERATIONS = 64;

    private LoopHandles() {}

    /**
     * {@code owner}'s method {@code name} (one of that name) as a handle bound to {@code target}: calling it
     * runs {@code target}'s override.
     */
    static MethodHandle bind(Class<?> owner, String name, Object target) {
        try {
            for (Method m : owner.getDeclaredMethods()) {
                if (m.getName().equals(name)) {
                    return MethodHandles.lookup().unreflect(m).bindTo(target);
                }
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(
                    "kernel loops: " + owner.getSimpleName() + "." + name + " not accessible", e);
        }
        throw new IllegalStateException("kernel loops: no method " + owner.getSimpleName() + "." + name);
    }

    /** The loops throw no checked exception; anything else they throw goes on as it is. */
    static RuntimeException unchecked(Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        return t instanceof RuntimeException r ? r : new IllegalStateException("kernel loops: " + t, t);
    }
}
