package dev.layout.datatype;

import java.util.List;

/**
 * Base of the constructed datatypes: caches size, bounds and the other derived attributes once, at
 * construction (as Yaksa does), so that queries are O(1) and validation cannot be bypassed.
 */
public abstract sealed class DerivedType implements Datatype
        permits Contiguous, Vector, Indexed, Struct, Subarray, Darray, Resized {

    final long byteSize;
    final long lb;
    final long ub;
    final long trueLb;
    final long trueUb;
    final boolean marked;
    final int alignment;
    final Primitive homogeneous;
    final boolean contiguous;
    final boolean dense;
    final int depth;
    private int hash;

    DerivedType(String op, Props p, boolean denseByStructure, List<Datatype> children) {
        int d = 0;
        for (Datatype c : children) {
            d = Math.max(d, c.depth());
        }
        this.depth = d + 1;
        TypeLimits.checkDepth(op, depth);
        this.byteSize = p.size;
        this.lb = p.lb;
        this.ub = p.ub;
        this.trueLb = p.trueLb;
        this.trueUb = p.trueUb;
        this.marked = p.marked;
        this.alignment = p.alignment;
        this.homogeneous = p.homogeneous;
        Checks.sub(op, ub, lb);
        Checks.sub(op, trueUb, trueLb);
        this.dense = denseByStructure && byteSize > 0 && byteSize == trueUb - trueLb;
        this.contiguous = dense && byteSize == ub - lb && lb == trueLb;
    }

    @Override
    public final long byteSize() {
        return byteSize;
    }

    @Override
    public final long lb() {
        return lb;
    }

    @Override
    public final long ub() {
        return ub;
    }

    @Override
    public final long trueLb() {
        return trueLb;
    }

    @Override
    public final long trueUb() {
        return trueUb;
    }

    @Override
    public final boolean hasExplicitBounds() {
        return marked;
    }

    @Override
    public final int alignment() {
        return alignment;
    }

    @Override
    public final Primitive homogeneousPrimitive() {
        return homogeneous;
    }

    @Override
    public final boolean isContiguous() {
        return contiguous;
    }

    @Override
    public final boolean isDense() {
        return dense;
    }

    /**
     * Whether copies of a dense {@code child} placed at the given starts (in order) form one run:
     * each copy must begin where the previous one's data ended.
     */
    static final class RunCheck {
        private long next = Long.MIN_VALUE;
        private boolean ok = true;

        /** Adds {@code n} copies of {@code child} at {@code start + j * step}. */
        RunCheck copies(Datatype child, long start, long n, long step) {
            if (n == 0 || child.byteSize() == 0 || !ok) {
                return this;
            }
            if (!child.isDense() || (n > 1 && step != child.byteSize())) {
                ok = false;
                return this;
            }
            long first = start + child.trueLb();
            if (next != Long.MIN_VALUE && first != next) {
                ok = false;
            }
            next = first + n * child.byteSize();
            return this;
        }

        boolean ok() {
            return ok;
        }
    }

    @Override
    public final int depth() {
        return depth;
    }

    /** The types this one is built from, in argument order (one for all but struct). */
    public abstract List<Datatype> children();

    abstract boolean sameArguments(DerivedType other);

    abstract int argumentHash();

    @Override
    public final boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DerivedType other) || other.combiner() != combiner() || other.hashCode() != hashCode()) {
            return false;
        }
        return sameArguments(other);
    }

    @Override
    public final int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 31 * combiner().hashCode() + argumentHash();
            if (h == 0) {
                h = 1;
            }
            hash = h;
        }
        return h;
    }

    @Override
    public final String toString() {
        return NotationWriter.write(this);
    }

    /** The computed attributes of a new type. */
    static final class Props {
        long size;
        long lb;
        long ub;
        long trueLb;
        long trueUb;
        boolean marked;
        int alignment;
        Primitive homogeneous;
    }

    /**
     * Accumulates the bounds of a type made of copies of children. Each call to {@link #add} stands
     * for copies of one child at displacements whose minimum and maximum are {@code dMin} and
     * {@code dMax} (both attained). MPI 4.1 reading: markers are sticky and, where present, alone
     * decide lb/ub; children with an empty type map and no markers contribute nothing.
     */
    static final class BoundsAccumulator {
        private final String op;
        long size;
        boolean hasData;
        long dataLb = Long.MAX_VALUE;
        long dataUb = Long.MIN_VALUE;
        boolean hasUnmarked;
        long unmarkedLb = Long.MAX_VALUE;
        long unmarkedUb = Long.MIN_VALUE;
        boolean marked;
        long markLb = Long.MAX_VALUE;
        long markUb = Long.MIN_VALUE;
        int alignment;
        Primitive homogeneous;
        boolean mixed;

        BoundsAccumulator(String op) {
            this.op = op;
        }

        /** {@code copies} copies of {@code child} spanning displacements {@code [dMin, dMax]}. */
        void add(Datatype child, long copies, long dMin, long dMax) {
            if (copies == 0) {
                return;
            }
            if (child.byteSize() > 0) {
                size = Checks.add(op, size, Checks.mul(op, copies, child.byteSize()));
                hasData = true;
                dataLb = Math.min(dataLb, Checks.add(op, dMin, child.trueLb()));
                dataUb = Math.max(dataUb, Checks.add(op, dMax, child.trueUb()));
                alignment = Math.max(alignment, child.alignment());
                Primitive h = child.homogeneousPrimitive();
                if (h == null || (homogeneous != null && homogeneous != h)) {
                    mixed = true;
                } else {
                    homogeneous = h;
                }
            }
            if (child.hasExplicitBounds()) {
                marked = true;
                markLb = Math.min(markLb, Checks.add(op, dMin, child.lb()));
                markUb = Math.max(markUb, Checks.add(op, dMax, child.ub()));
            } else if (child.byteSize() > 0) {
                hasUnmarked = true;
                unmarkedLb = Math.min(unmarkedLb, Checks.add(op, dMin, child.lb()));
                unmarkedUb = Math.max(unmarkedUb, Checks.add(op, dMax, child.ub()));
            }
        }

        /** The minimum and maximum of {@code i * step} for {@code 0 <= i < n} added to [lo, hi]: returns {lo', hi'}. */
        long[] span(long lo, long hi, long n, long step) {
            if (n <= 0) {
                return new long[] {lo, hi};
            }
            long last = Checks.mul(op, n - 1, step);
            return new long[] {Checks.add(op, lo, Math.min(0, last)), Checks.add(op, hi, Math.max(0, last))};
        }

        Props finish() {
            Props p = new Props();
            p.size = size;
            if (hasData) {
                p.trueLb = dataLb;
                p.trueUb = dataUb;
            }
            if (marked) {
                p.marked = true;
                p.lb = markLb;
                p.ub = markUb;
            } else if (hasUnmarked) {
                p.lb = unmarkedLb;
                p.ub = unmarkedUb;
            }
            p.alignment = hasData ? alignment : 0;
            p.homogeneous = hasData && !mixed ? homogeneous : null;
            return p;
        }
    }
}
