package dev.layout.dataloop;

/** The byte representation of the packed stream. */
public enum Representation {
    /** The machine's own bytes (little-endian): what {@code MPI_Pack} produces. */
    NATIVE,
    /** MPI's portable {@code external32}: every primitive but {@code byte} big-endian. */
    EXTERNAL32
}
