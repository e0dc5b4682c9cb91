package dev.layout.datatype;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The type signature of a datatype (MPI 4.1, 5.1): the sequence of its primitives in pack order,
 * displacements dropped, kept run-length encoded so that {@code contig(10^9, int32)} is one run.
 * Two types match for communication (send with one, receive with the other) when their
 * signatures for the respective counts are equal.
 *
 * <pre>{@code
 * TypeSignature.of(LayoutParser.parse("struct([2,1], [0,8], [float32,int32])"))
 *     // [float32 x2, int32 x1]
 * }</pre>
 */
public final class TypeSignature {
    /** One run: {@code count} consecutive {@code primitive}s. */
    public record Run(Primitive primitive, long count) {
        @Override
        public String toString() {
            return primitive.notationName() + " x" + count;
        }
    }

    /** Most runs a signature may have before {@link #of} refuses ({@code layout.signature.maxRuns}). */
    public static final int MAX_RUNS = Integer.getInteger("layout.signature.maxRuns", 1 << 22);

    private final List<Run> runs;

    private TypeSignature(List<Run> runs) {
        this.runs = Collections.unmodifiableList(runs);
    }

    /** The signature of one element of {@code type}. */
    public static TypeSignature of(Datatype type) {
        return new TypeSignature(build(Checks.notNull("signature", "type", type)));
    }

    /** The signature of {@code count} consecutive elements. */
    public static TypeSignature of(Datatype type, long count) {
        Checks.nonNegative("signature", "count", count);
        return new TypeSignature(repeat(build(type), count));
    }

    public List<Run> runs() {
        return runs;
    }

    /** Total number of primitives. */
    public long length() {
        long n = 0;
        for (Run r : runs) {
            n = Checks.add("signature", n, r.count());
        }
        return n;
    }

    /** True when every primitive is {@code p} (or the signature is empty). */
    public boolean isAll(Primitive p) {
        return runs.stream().allMatch(r -> r.primitive() == p);
    }

    /**
     * True when this signature is a whole number of repetitions of {@code unit}'s (e.g. a filetype
     * built from an etype, in MPI-IO's sense).
     */
    public boolean isMultipleOf(TypeSignature unit) {
        if (unit.runs.isEmpty()) {
            return runs.isEmpty();
        }
        long ul = unit.length();
        long tl = length();
        if (tl % ul != 0) {
            return false;
        }
        return equals(new TypeSignature(repeat(new ArrayList<>(unit.runs), tl / ul)));
    }

    private static List<Run> build(Datatype t) {
        switch (t.combiner()) {
            case NAMED:
                return new ArrayList<>(List.of(new Run((Primitive) t, 1)));
            case CONTIGUOUS: {
                Contiguous c = (Contiguous) t;
                return repeat(build(c.oldType()), c.count());
            }
            case VECTOR:
            case HVECTOR: {
                Vector v = (Vector) t;
                return repeat(build(v.oldType()), Checks.mul("signature", v.count(), v.blocklength()));
            }
            case INDEXED:
            case HINDEXED:
            case INDEXED_BLOCK:
            case HINDEXED_BLOCK: {
                Indexed x = (Indexed) t;
                long total = 0;
                for (int b = 0; b < x.blockCount(); b++) {
                    total = Checks.add("signature", total, x.blocklength(b));
                }
                return repeat(build(x.oldType()), total);
            }
            case STRUCT: {
                Struct s = (Struct) t;
                List<Run> out = new ArrayList<>();
                for (int i = 0; i < s.memberCount(); i++) {
                    append(out, repeat(build(s.type(i)), s.blocklength(i)));
                }
                return out;
            }
            case RESIZED:
                return build(((Resized) t).oldType());
            case SUBARRAY:
                return build(((Subarray) t).lowered());
            case DARRAY:
                return build(((Darray) t).lowered());
            default:
                throw new AssertionError(t.combiner());
        }
    }

    private static List<Run> repeat(List<Run> unit, long times) {
        if (times == 0 || unit.isEmpty()) {
            return new ArrayList<>();
        }
        if (unit.size() == 1) {
            Run r = unit.get(0);
            return new ArrayList<>(List.of(new Run(r.primitive(), Checks.mul("signature", r.count(), times))));
        }
        if (unit.get(0).primitive() == unit.get(unit.size() - 1).primitive() && times > 1) {
            // The last run of one copy merges with the first of the next.
            checkRuns((unit.size() - 1) * times + 1);
        } else {
            checkRuns(unit.size() * times);
        }
        List<Run> out = new ArrayList<>();
        for (long i = 0; i < times; i++) {
            append(out, unit);
        }
        return out;
    }

    private static void append(List<Run> out, List<Run> more) {
        for (Run r : more) {
            if (!out.isEmpty() && out.get(out.size() - 1).primitive() == r.primitive()) {
                Run last = out.remove(out.size() - 1);
                out.add(new Run(r.primitive(), Checks.add("signature", last.count(), r.count())));
            } else {
                out.add(r);
            }
        }
        checkRuns(out.size());
    }

    private static void checkRuns(long n) {
        if (n > MAX_RUNS) {
            throw new LayoutLimitException(
                    "signature: runs " + n + " (expected: <= " + MAX_RUNS + ", config key layout.signature.maxRuns)");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TypeSignature s && s.runs.equals(runs);
    }

    @Override
    public int hashCode() {
        return runs.hashCode();
    }

    @Override
    public String toString() {
        return runs.toString();
    }
}
