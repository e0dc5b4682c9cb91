package dev.layout.dataloop;

import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import java.util.Objects;

/**
 * Per thread, the segments of its last few operations, re-aimed for the next one on the same count
 * of an equal type: a repeated pack, unpack or typed send makes no new {@link Segment} (some 3 KB with
 * its kernels). A segment is taken out for an operation and given back when nothing uses it any more,
 * so an operation nested in another (or one whose segment another thread still fills, as a receive)
 * never shares it. {@link Packing}'s one-call forms and the transport's typed sends use it.
 *
 * <pre>{@code
 * Segment s = ThreadSegments.take(type, count, memory, origin);
 * try { s.pack(out, 0, s.byteSize()); } finally { ThreadSegments.give(s); }
 * }</pre>
 */
public final class ThreadSegments {
    /** Segments kept per thread: a few types in turn (a halo exchange's rows and columns) all hit. */
    static final int KEPT = 4;

    private static final ThreadLocal<Segment[]> FREE = ThreadLocal.withInitial(() -> new Segment[KEPT]);

    private ThreadSegments() {}

    /**
     * A segment over {@code count} elements of {@code type} at byte {@code origin} of {@code memory}
     * (native representation): one of this thread's free ones re-aimed, or a new one. Checks the
     * footprint as {@link Segment#of}.
     *
     * @throws NullPointerException if type or memory is null
     * @throws IllegalArgumentException or IndexOutOfBoundsException if the elements do not fit the memory
     */
    public static Segment take(Datatype type, long count, Memory memory, long origin) {
        return take(type, count, Representation.NATIVE, memory, origin);
    }

    static Segment take(Datatype type, long count, Representation rep, Memory memory, long origin) {
        Objects.requireNonNull(memory, Segment.USER_NULL);
        Segment[] free = FREE.get();
        for (int i = 0; i < free.length; i++) {
            Segment s = free[i];
            if (s != null && s.serves(type, count, rep)) {
                free[i] = null;
                s.aim(memory, origin);
                return s;
            }
        }
        return new Segment(type, count, rep, memory, origin);
    }

    /** Gives back a segment this thread took, once nothing uses it: it lets go of its memory and may serve the next take. */
    public static void give(Segment s) {
        s.release();
        Segment[] free = FREE.get();
        for (int i = 0; i < free.length; i++) {
            if (free[i] == null) {
                free[i] = s;
                return;
            }
        }
        System.arraycopy(free, 0, free, 1, free.length - 1); // full: the oldest goes
        free[0] = s;
    }
}
