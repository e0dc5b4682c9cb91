package dev.layout.datatype;

/** How a datatype was made: the MPI combiner ({@code MPI_COMBINER_*}) of {@link Datatype#envelope()}. */
public enum Combiner {
    NAMED,
    CONTIGUOUS,
    VECTOR,
    HVECTOR,
    INDEXED,
    HINDEXED,
    INDEXED_BLOCK,
    HINDEXED_BLOCK,
    STRUCT,
    SUBARRAY,
    DARRAY,
    RESIZED;

    /** The constructor's name in the layout notation ({@code contig}, {@code indexed_block}, ...). */
    public String notationName() {
        return switch (this) {
            case NAMED -> "named";
            case CONTIGUOUS -> "contig";
            case VECTOR -> "vector";
            case HVECTOR -> "hvector";
            case INDEXED -> "indexed";
            case HINDEXED -> "hindexed";
            case INDEXED_BLOCK -> "indexed_block";
            case HINDEXED_BLOCK -> "hindexed_block";
            case STRUCT -> "struct";
            case SUBARRAY -> "subarray";
            case DARRAY -> "darray";
            case RESIZED -> "resized";
        };
    }
}
