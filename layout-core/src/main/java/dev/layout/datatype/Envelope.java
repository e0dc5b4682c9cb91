package dev.layout.datatype;

import java.util.List;

/**
 * What {@code MPI_Type_get_envelope} and {@code MPI_Type_get_contents} return: the combiner and the
 * constructor's arguments, split as MPI splits them into integers, addresses (byte displacements and
 * strides) and datatypes. The integer order is MPI's (e.g. for darray: size, rank, ndims, gsizes,
 * distribs, dargs, psizes, order, with distribs as {@link Distribution#mpiCode()}, dargs with
 * {@link Datatype#DEFAULT_DARG}, and order as {@link Order#mpiCode()}).
 */
public record Envelope(Combiner combiner, List<Long> integers, List<Long> addresses, List<Datatype> datatypes) {
    public Envelope {
        integers = List.copyOf(integers);
        addresses = List.copyOf(addresses);
        datatypes = List.copyOf(datatypes);
    }
}
