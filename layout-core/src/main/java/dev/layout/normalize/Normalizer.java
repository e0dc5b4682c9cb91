package dev.layout.normalize;

import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutPrinter;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The normalizer: least-cost type reconstruction under a {@link CostModel}.
 *
 * <p>{@link #reconstruct(DisplacementSequence)} returns a path of minimum cost over <em>all</em>
 * con/vec/idx paths that expand exactly to the sequence (not only those derivable from the
 * paper's {@code TypePath}); how the paper's algorithm is extended to get there is documented on
 * {@code Reconstruction} (package-private) and in the package documentation.
 *
 * <pre>{@code
 * Normalizer normalizer = Normalizer.of(CostModel.storage(1, 4, 3));
 * TypePath p = normalizer.reconstruct(DisplacementSequence.parse("5,6,8,9,10,12,13,14,16"));
 * p.toString();                   // vec(3,4,idx(3,<5,6,8>,con(1)))
 * p.cost(normalizer.model());     // 11
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class Normalizer {

    private final CostModel model;

    private Normalizer(CostModel model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    /** A normalizer optimizing {@code model}. @throws NullPointerException if model is null */
    public static Normalizer of(CostModel model) {
        return new Normalizer(model);
    }

    /** A normalizer for {@link CostModel#defaults()}. */
    public static Normalizer defaults() {
        return new Normalizer(CostModel.defaults());
    }

    /** The cost model this normalizer minimizes. */
    public CostModel model() {
        return model;
    }

    /**
     * A least-cost path describing {@code x} exactly. Time {@code O(n sqrt n)} in the worst case,
     * memory {@code O(n)}.
     *
     * @throws IllegalArgumentException if every path's cost overflows a {@code long}
     * @throws NullPointerException if {@code x} is null
     */
    public TypePath reconstruct(DisplacementSequence x) {
        return Reconstruction.optimal(x.array(), model);
    }

    /** Shorthand for {@code Normalizer.of(model).reconstruct(x)}. */
    public static TypePath reconstruct(DisplacementSequence x, CostModel model) {
        return Reconstruction.optimal(x.array(), model);
    }

    /**
     * A datatype with the identical type map, lb and extent as {@code type} and a cost under this
     * normalizer's model that is never higher (section 5, Theorem 2, without expanding the type
     * map; section 6 for indexed nodes; homogeneous structs become indexed).
     *
     * <pre>{@code
     * Datatype t = LayoutParser.parse("indexed_block(1, [5,6,8,9,10,12,13,14,16], int32)");
     * Normalizer.of(CostModel.storage(1, 4, 3)).normalize(t);
     * // vector(3, 1, 1, indexed_block(1, [5,6,8], int32)): cost 13 -> 11, same lb and extent
     * }</pre>
     *
     * @throws NullPointerException if type is null
     */
    public Datatype normalize(Datatype type) {
        Objects.requireNonNull(type, "type");
        return TypeNormalization.normalize(type, model);
    }

    /** The cost of a datatype description under this normalizer's model ({@link DatatypeCost}). */
    public long cost(Datatype type) {
        return DatatypeCost.cost(type, model);
    }

    /** {@link #normalize} with the cost before and after, e.g. for what ships to another process. */
    public Report report(Datatype type) {
        Datatype after = normalize(type);
        return new Report(type, after, cost(type), cost(after));
    }

    /**
     * What ships to another process for {@code type} (a halo region, a file view's filetype): the
     * layout notation of its normalized form, with the notation's UTF-8 size and the cost before and
     * after. The receiver parses the notation and gets the same type map, lb and extent.
     *
     * <pre>{@code
     * Shipment s = Normalizer.defaults().ship(LayoutParser.parse("indexed_block(1, [0,1,2,3,8,9,10,11], float64)"));
     * s.notation();                    // vector(2, 4, 8, float64)
     * s.bytesBefore(); s.bytesAfter(); // 46, 24
     * }</pre>
     *
     * @throws NullPointerException if type is null
     */
    public Shipment ship(Datatype type) {
        Report r = report(type);
        String after = LayoutPrinter.print(r.after());
        return new Shipment(
                after, utf8Bytes(LayoutPrinter.print(type)), utf8Bytes(after), r.costBefore(), r.costAfter());
    }

    private static long utf8Bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * A normalized description as shipped: its notation, the notation's UTF-8 bytes and the cost
     * before and after normalization.
     */
    public record Shipment(String notation, long bytesBefore, long bytesAfter, long costBefore, long costAfter) {
        @Override
        public String toString() {
            return bytesBefore + " -> " + bytesAfter + " bytes, cost " + costBefore + " -> " + costAfter;
        }
    }

    /** A normalization with its cost before and after. */
    public record Report(Datatype before, Datatype after, long costBefore, long costAfter) {
        @Override
        public String toString() {
            return after + " cost before=" + costBefore + " after=" + costAfter;
        }
    }

    @Override
    public String toString() {
        return "Normalizer[" + model + "]";
    }
}
