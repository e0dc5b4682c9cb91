package dev.layout.datatype;

/** Array storage order for subarray and darray. */
public enum Order {
    /** Row-major: the last dimension varies fastest ({@code MPI_ORDER_C}). */
    C,
    /** Column-major: the first dimension varies fastest ({@code MPI_ORDER_FORTRAN}). */
    F;

    public long mpiCode() {
        return this == C ? 56 : 57;
    }
}
