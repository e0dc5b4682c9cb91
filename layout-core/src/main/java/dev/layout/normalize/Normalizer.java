package dev.layout.normalize;

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

  @Override
  public String toString() {
    return "Normalizer[" + model + "]";
  }
}
