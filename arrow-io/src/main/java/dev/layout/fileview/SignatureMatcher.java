package dev.layout.fileview;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Envelope;
import dev.layout.datatype.Primitive;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks that a type's signature (its sequence of primitives) is a whole number of copies of the
 * etype's signature, without expanding the type map: homogeneous subtrees are single runs, and
 * repeated children stop once the phase within the etype cycle repeats.
 *
 * <p>This lives here rather than in layout-core because only file views need it; it reads types
 * through the public {@link Datatype#envelope()} only.
 */
final class SignatureMatcher {
    private static final int MAX_ETYPE_ENTRIES = 1 << 16;
    private final Primitive[] cycle;

    private SignatureMatcher(Primitive[] cycle) {
        this.cycle = cycle;
    }

    /** Null if {@code type}'s signature is {@code etype}'s repeated a whole number of times, else a reason. */
    static String mismatch(Datatype etype, Datatype type) {
        List<Primitive> entries = new ArrayList<>();
        if (!expand(etype, entries)) {
            return "etype has more than " + MAX_ETYPE_ENTRIES + " primitive entries";
        }
        SignatureMatcher m = new SignatureMatcher(entries.toArray(new Primitive[0]));
        try {
            long phase = m.walk(type, 0);
            if (phase != 0) {
                return "its signature ends " + phase + " primitives into an etype";
            }
            return null;
        } catch (Mismatch e) {
            return e.getMessage();
        }
    }

    private static boolean expand(Datatype t, List<Primitive> out) {
        if (out.size() > MAX_ETYPE_ENTRIES) {
            return false;
        }
        Primitive h = t.homogeneousPrimitive();
        if (h != null || t.byteSize() == 0) {
            long n = h == null ? 0 : t.byteSize() / h.byteSize();
            if (n > MAX_ETYPE_ENTRIES) {
                return false;
            }
            for (long i = 0; i < n; i++) {
                out.add(h);
            }
            return out.size() <= MAX_ETYPE_ENTRIES;
        }
        Envelope e = t.envelope();
        return switch (e.combiner()) {
            case STRUCT -> {
                for (int i = 0; i < e.datatypes().size(); i++) {
                    for (long c = 0; c < e.integers().get(i + 1); c++) {
                        if (!expand(e.datatypes().get(i), out)) {
                            yield false;
                        }
                    }
                }
                yield true;
            }
            case RESIZED -> expand(e.datatypes().get(0), out);
            default -> {
                Datatype child = e.datatypes().get(0);
                long copies = t.byteSize() / child.byteSize();
                for (long c = 0; c < copies; c++) {
                    if (!expand(child, out)) {
                        yield false;
                    }
                }
                yield true;
            }
        };
    }

    /** Consumes {@code t}'s signature starting at {@code phase} of the etype cycle; returns the new phase. */
    private long walk(Datatype t, long phase) {
        if (t.byteSize() == 0) {
            return phase;
        }
        Primitive h = t.homogeneousPrimitive();
        if (h != null) {
            return run(h, t.byteSize() / h.byteSize(), phase);
        }
        Envelope e = t.envelope();
        return switch (e.combiner()) {
            case STRUCT -> {
                long p = phase;
                for (int i = 0; i < e.datatypes().size(); i++) {
                    p = copies(e.datatypes().get(i), e.integers().get(i + 1), p);
                }
                yield p;
            }
            case RESIZED -> walk(e.datatypes().get(0), phase);
            case NAMED -> throw new IllegalStateException("named type without a primitive: " + t);
            default -> {
                Datatype child = e.datatypes().get(0);
                yield copies(child, t.byteSize() / child.byteSize(), phase);
            }
        };
    }

    /** {@code n} copies of {@code child}: the phase sequence is eventually periodic, so skip whole periods. */
    private long copies(Datatype child, long n, long phase) {
        if (n == 0 || child.byteSize() == 0) {
            return phase;
        }
        Map<Long, Long> seen = new HashMap<>();
        long p = phase;
        for (long i = 0; i < n; i++) {
            Long first = seen.putIfAbsent(p, i);
            if (first != null) {
                long period = i - first;
                long left = (n - i) % period;
                for (long j = 0; j < left; j++) {
                    p = walk(child, p);
                }
                return p;
            }
            p = walk(child, p);
        }
        return p;
    }

    private long run(Primitive prim, long count, long phase) {
        int len = cycle.length;
        long check = Math.min(count, len);
        for (long i = 0; i < check; i++) {
            Primitive want = cycle[(int) ((phase + i) % len)];
            if (want != prim) {
                throw new Mismatch("primitive " + prim.notationName() + " where the etype has " + want.notationName());
            }
        }
        return (phase + count % len) % len;
    }

    private static final class Mismatch extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Mismatch(String message) {
            super(message, null, false, false);
        }
    }
}
