package dev.layout.datatype;

import java.util.List;

/**
 * {@code vector} and {@code hvector}: {@code count} blocks of {@code blocklength} old elements; block
 * starts are {@code stride} apart, in old extents ({@code vector}) or bytes ({@code hvector}).
 */
public final class Vector extends DerivedType {
    private final Combiner combiner;
    private final long count;
    private final long blocklength;
    private final long stride;
    private final long byteStride;
    private final Datatype oldType;

    Vector(Combiner combiner, long count, long blocklength, long stride, Datatype oldType) {
        super(
                combiner.notationName(),
                props(combiner, count, blocklength, stride, oldType),
                contiguousByStructure(combiner, count, blocklength, stride, oldType),
                List.of(oldType));
        this.combiner = combiner;
        this.count = count;
        this.blocklength = blocklength;
        this.stride = stride;
        this.oldType = oldType;
        this.byteStride = combiner == Combiner.VECTOR ? stride * oldType.extent() : stride;
    }

    private static Props props(Combiner combiner, long count, long blocklength, long stride, Datatype oldType) {
        String op = combiner.notationName();
        Checks.nonNegative(op, "count", count);
        Checks.nonNegative(op, "blocklength", blocklength);
        Checks.notNull(op, "oldType", oldType);
        long byteStride = combiner == Combiner.VECTOR ? Checks.mul(op, stride, oldType.extent()) : stride;
        BoundsAccumulator acc = new BoundsAccumulator(op);
        long[] s = acc.span(0, 0, count, byteStride);
        s = acc.span(s[0], s[1], blocklength, oldType.extent());
        acc.add(oldType, Checks.mul(op, count, blocklength), s[0], s[1]);
        return acc.finish();
    }

    private static boolean contiguousByStructure(Combiner c, long count, long bl, long stride, Datatype old) {
        long byteStride = c == Combiner.VECTOR ? stride * old.extent() : stride;
        RunCheck r = new RunCheck();
        for (long i = 0; i < Math.min(count, 2); i++) {
            r.copies(old, i * byteStride, bl, old.extent());
        }
        return r.ok();
    }

    public long count() {
        return count;
    }

    public long blocklength() {
        return blocklength;
    }

    /** The stride as given: in old extents for {@code vector}, in bytes for {@code hvector}. */
    public long stride() {
        return stride;
    }

    /** The stride in bytes. */
    public long byteStride() {
        return byteStride;
    }

    public Datatype oldType() {
        return oldType;
    }

    @Override
    public Combiner combiner() {
        return combiner;
    }

    @Override
    public Envelope envelope() {
        return combiner == Combiner.VECTOR
                ? new Envelope(combiner, List.of(count, blocklength, stride), List.of(), List.of(oldType))
                : new Envelope(combiner, List.of(count, blocklength), List.of(stride), List.of(oldType));
    }

    @Override
    public List<Datatype> children() {
        return List.of(oldType);
    }

    @Override
    boolean sameArguments(DerivedType o) {
        Vector v = (Vector) o;
        return count == v.count && blocklength == v.blocklength && stride == v.stride && oldType.equals(v.oldType);
    }

    @Override
    int argumentHash() {
        return ((Long.hashCode(count) * 31 + Long.hashCode(blocklength)) * 31 + Long.hashCode(stride)) * 31
                + oldType.hashCode();
    }
}
