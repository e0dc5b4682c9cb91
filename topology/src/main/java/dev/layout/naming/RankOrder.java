package dev.layout.naming;

/**
 * The order in which a {@link CartesianNaming} enumerates grid points by rank.
 *
 * <p>{@code C} (row-major): the last coordinate varies fastest, as {@code MPI_Cart_rank}. {@code F}
 * (column-major): the first coordinate varies fastest. A general permutation of the dimensions is
 * given to {@link CartesianNaming#withPermutation} instead.
 */
public enum RankOrder {
    /** Row-major: the last coordinate varies fastest. */
    C,
    /** Column-major: the first coordinate varies fastest. */
    F
}
