package dev.layout.datatype;

import java.util.List;

/**
 * An MPI derived datatype: an immutable description of a type map (a sequence of primitives at byte
 * displacements) plus optional lb/ub markers, with exactly the MPI 4.1 semantics for size, bounds,
 * extents and the type signature.
 *
 * <p>Built with static factories named after the MPI constructors; every argument is validated up
 * front and every size/offset computation is overflow-checked, so a {@code Datatype} that exists is
 * consistent. {@link #toString()} prints the layout notation ({@code ../spec/notation.md}).
 *
 * <pre>{@code
 * Datatype column = Datatype.vector(4, 1, 4, Primitive.FLOAT32);   // vector(4, 1, 4, float32)
 * column.byteSize();   // 16
 * column.extent();     // 52
 * }</pre>
 *
 * <p>Where MPI leaves a choice to the implementation (the alignment padding of structs without
 * explicit bounds), this follows MPICH. Markers set by {@code resized}, {@code subarray} and
 * {@code darray} are sticky through every constructor; a struct with marked members takes its bounds
 * from the marked members only; empty type maps contribute nothing (MPI 4.1 reading).
 */
public sealed interface Datatype permits Primitive, DerivedType {

    /** The darray argument meaning "the default distribution argument" ({@code MPI_DISTRIBUTE_DFLT_DARG}). */
    long DEFAULT_DARG = -49767;

    // ---- MPI constructors --------------------------------------------------------------------

    /** {@code MPI_Type_contiguous}: {@code count} copies of {@code oldType}, one extent apart. */
    static Datatype contiguous(long count, Datatype oldType) {
        return new Contiguous(count, oldType);
    }

    /** {@code MPI_Type_vector}: {@code count} blocks of {@code blocklength} elements, {@code stride} elements apart. */
    static Datatype vector(long count, long blocklength, long stride, Datatype oldType) {
        return new Vector(Combiner.VECTOR, count, blocklength, stride, oldType);
    }

    /** {@code MPI_Type_create_hvector}: like {@link #vector} with the stride in bytes. */
    static Datatype hvector(long count, long blocklength, long byteStride, Datatype oldType) {
        return new Vector(Combiner.HVECTOR, count, blocklength, byteStride, oldType);
    }

    /** {@code MPI_Type_indexed}: blocks at displacements counted in extents of {@code oldType}. */
    static Datatype indexed(long[] blocklengths, long[] displacements, Datatype oldType) {
        return new Indexed(Combiner.INDEXED, blocklengths, displacements, oldType);
    }

    /** {@code MPI_Type_create_hindexed}: blocks at byte displacements. */
    static Datatype hindexed(long[] blocklengths, long[] byteDisplacements, Datatype oldType) {
        return new Indexed(Combiner.HINDEXED, blocklengths, byteDisplacements, oldType);
    }

    /** {@code MPI_Type_create_indexed_block}: equal blocks at displacements in extents of {@code oldType}. */
    static Datatype indexedBlock(long blocklength, long[] displacements, Datatype oldType) {
        return new Indexed(Combiner.INDEXED_BLOCK, blocklength, displacements, oldType);
    }

    /** {@code MPI_Type_create_hindexed_block}: equal blocks at byte displacements. */
    static Datatype hindexedBlock(long blocklength, long[] byteDisplacements, Datatype oldType) {
        return new Indexed(Combiner.HINDEXED_BLOCK, blocklength, byteDisplacements, oldType);
    }

    /** {@code MPI_Type_create_struct}: member {@code i} is {@code blocklengths[i]} copies of {@code types[i]} at a byte displacement. */
    static Datatype struct(long[] blocklengths, long[] byteDisplacements, List<? extends Datatype> types) {
        return new Struct(blocklengths, byteDisplacements, types);
    }

    /** {@code MPI_Type_create_subarray}: a sub-block of an n-dimensional array; lb 0, extent of the whole array. */
    static Datatype subarray(long[] sizes, long[] subsizes, long[] starts, Order order, Datatype oldType) {
        return new Subarray(sizes, subsizes, starts, order, oldType);
    }

    /** {@code MPI_Type_create_darray}: process {@code rank}'s part of a block/cyclic distributed array. */
    static Datatype darray(
            long size,
            long rank,
            long[] gsizes,
            Distribution[] distribs,
            long[] dargs,
            long[] psizes,
            Order order,
            Datatype oldType) {
        return new Darray(size, rank, gsizes, distribs, dargs, psizes, order, oldType);
    }

    /** {@code MPI_Type_create_resized}: the same type map with lb and extent set (sticky markers). */
    static Datatype resized(long lb, long extent, Datatype oldType) {
        return new Resized(lb, extent, oldType);
    }

    // ---- introspection --------------------------------------------------------------------------

    /** The constructor that made this type ({@code MPI_Type_get_envelope}). */
    Combiner combiner();

    /** The constructor and its arguments ({@code MPI_Type_get_contents}). */
    Envelope envelope();

    /** Bytes of data in one element ({@code MPI_Type_size_x}); the packed size of one element. */
    long byteSize();

    /** Lower bound of one element ({@code MPI_Type_get_extent_x}). */
    long lb();

    /** Upper bound: {@code lb() + extent()}. */
    long ub();

    /** Extent: the distance between consecutive elements of a count. May be negative after {@code resized}. */
    default long extent() {
        return ub() - lb();
    }

    /** Lowest data byte ({@code MPI_Type_get_true_extent_x}); 0 when the type has no data. */
    long trueLb();

    /** One past the highest data byte; 0 when the type has no data. */
    long trueUb();

    default long trueExtent() {
        return trueUb() - trueLb();
    }

    default Bounds bounds() {
        return new Bounds(lb(), ub(), trueLb(), trueUb());
    }

    /** True if lb and ub come from explicit markers (resized, subarray, darray), which are sticky. */
    boolean hasExplicitBounds();

    /** The largest primitive size in the type map (MPICH's struct alignment); 0 for an empty type map. */
    int alignment();

    /** The one primitive every entry of the type map has, or null if the map mixes primitives or is empty. */
    Primitive homogeneousPrimitive();

    /**
     * True when one element's data is exactly the bytes {@code [lb, lb + byteSize)} in pack order
     * (so packing is one copy and a count of elements is one larger copy).
     */
    boolean isContiguous();

    /**
     * True when one element's data is a single run of bytes in pack order, {@code [trueLb, trueUb)},
     * whatever the extent (e.g. {@code resized(0, 8, float32)} or a padded struct).
     */
    boolean isDense();

    /** Nesting depth: 0 for primitives. */
    int depth();

    /** True if the type map has no entries (size 0). */
    default boolean isEmpty() {
        return byteSize() == 0;
    }
}
