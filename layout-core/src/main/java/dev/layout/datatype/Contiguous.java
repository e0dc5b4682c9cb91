package dev.layout.datatype;

import java.util.List;

/** {@code contig(count, old)}: {@code count} copies of the old type, one old extent apart. */
public final class Contiguous extends DerivedType {
    private final long count;
    private final Datatype oldType;

    Contiguous(long count, Datatype oldType) {
        super(
                "contig",
                props(count, oldType),
                new RunCheck().copies(oldType, 0, count, oldType.extent()).ok(),
                List.of(oldType));
        this.count = count;
        this.oldType = oldType;
    }

    private static Props props(long count, Datatype oldType) {
        Checks.nonNegative("contig", "count", count);
        Checks.notNull("contig", "oldType", oldType);
        BoundsAccumulator acc = new BoundsAccumulator("contig");
        long[] s = acc.span(0, 0, count, oldType.extent());
        acc.add(oldType, count, s[0], s[1]);
        return acc.finish();
    }

    public long count() {
        return count;
    }

    public Datatype oldType() {
        return oldType;
    }

    @Override
    public Combiner combiner() {
        return Combiner.CONTIGUOUS;
    }

    @Override
    public Envelope envelope() {
        return new Envelope(Combiner.CONTIGUOUS, List.of(count), List.of(), List.of(oldType));
    }

    @Override
    public List<Datatype> children() {
        return List.of(oldType);
    }

    @Override
    boolean sameArguments(DerivedType o) {
        Contiguous c = (Contiguous) o;
        return count == c.count && oldType.equals(c.oldType);
    }

    @Override
    int argumentHash() {
        return Long.hashCode(count) * 31 + oldType.hashCode();
    }
}
