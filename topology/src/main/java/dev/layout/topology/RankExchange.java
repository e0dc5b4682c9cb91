package dev.layout.topology;

/**
 * The few collective exchanges that graph creation and the Cartesianity check need, over a fully
 * connected set of ranks. The communicator package implements it; keeping it here lets this
 * package stay free of communicators. Every method is collective: all ranks call it in the same
 * order.
 */
public interface RankExchange {

    /** This rank, 0..size-1. */
    int rank();

    /** The number of ranks. */
    int size();

    /** Root's data at every rank. */
    byte[] bcast(byte[] data, int root);

    /** At root: every rank's data in rank order; elsewhere: null. */
    byte[][] gather(byte[] data, int root);

    /** Every rank's data in rank order. */
    byte[][] allgather(byte[] data);

    /** Sends {@code toEach[i]} to rank i; returns what each rank sent here, in rank order. */
    byte[][] alltoall(byte[][] toEach);

    /** Whether {@code value} is true at every rank. */
    default boolean allTrue(boolean value) {
        for (byte[] b : allgather(new byte[] {(byte) (value ? 1 : 0)})) {
            if (b[0] == 0) {
                return false;
            }
        }
        return true;
    }
}
