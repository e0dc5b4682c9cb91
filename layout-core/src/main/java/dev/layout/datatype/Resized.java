package dev.layout.datatype;

import java.util.List;

/** {@code resized(lb, extent, old)}: the old type map with explicit (sticky) lb and ub markers. */
public final class Resized extends DerivedType {
    private final long newLb;
    private final long newExtent;
    private final Datatype oldType;

    Resized(long lb, long extent, Datatype oldType) {
        super("resized", props(lb, extent, oldType), oldType.isDense(), List.of(oldType));
        this.newLb = lb;
        this.newExtent = extent;
        this.oldType = oldType;
    }

    private static Props props(long lb, long extent, Datatype oldType) {
        Checks.notNull("resized", "oldType", oldType);
        Props p = new Props();
        p.size = oldType.byteSize();
        p.trueLb = oldType.trueLb();
        p.trueUb = oldType.trueUb();
        p.marked = true;
        p.lb = lb;
        p.ub = Checks.add("resized", lb, extent);
        p.alignment = oldType.alignment();
        p.homogeneous = oldType.homogeneousPrimitive();
        return p;
    }

    public Datatype oldType() {
        return oldType;
    }

    @Override
    public Combiner combiner() {
        return Combiner.RESIZED;
    }

    @Override
    public Envelope envelope() {
        return new Envelope(Combiner.RESIZED, List.of(), List.of(newLb, newExtent), List.of(oldType));
    }

    @Override
    public List<Datatype> children() {
        return List.of(oldType);
    }

    @Override
    boolean sameArguments(DerivedType o) {
        Resized r = (Resized) o;
        return newLb == r.newLb && newExtent == r.newExtent && oldType.equals(r.oldType);
    }

    @Override
    int argumentHash() {
        return (Long.hashCode(newLb) * 31 + Long.hashCode(newExtent)) * 31 + oldType.hashCode();
    }
}
