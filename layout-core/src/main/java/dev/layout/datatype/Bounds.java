package dev.layout.datatype;

/** The bounds of one element of a datatype, in bytes from its origin (MPI 4.1, section 5.1). */
public record Bounds(long lb, long ub, long trueLb, long trueUb) {
    public long extent() {
        return ub - lb;
    }

    public long trueExtent() {
        return trueUb - trueLb;
    }
}
