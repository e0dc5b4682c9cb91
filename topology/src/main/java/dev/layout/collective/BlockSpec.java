package dev.layout.collective;

import dev.layout.dataloop.Segment;
import dev.layout.dataloop.ThreadSegments;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.transport.TypedRegion;

/**
 * A block of any collective described by a datatype: {@code count}
 * elements of {@code datatype} whose origin is byte {@code origin} of {@code buffer}. Sending packs
 * through the dataloop engine; receiving unpacks straight into the buffer, so halo rows, columns and
 * corners move without user-side packing.
 *
 * <pre>{@code
 * Datatype column = LayoutParser.parse("subarray([6,6], [4,1], [1,1], C, float64)");
 * Block west = BlockSpec.of(matrixBytes, 0, 1, column);
 * }</pre>
 *
 * The footprint is checked when the spec is made, so a block that does not fit its buffer fails
 * before any collective starts.
 */
public record BlockSpec(Memory buffer, long origin, long count, Datatype datatype) implements TypedBlock {
    /**
     * @throws NullPointerException if buffer or datatype is null
     * @throws IllegalArgumentException or IndexOutOfBoundsException if the block does not fit
     */
    public BlockSpec {
        if (buffer == null || datatype == null) {
            throw new NullPointerException("block: " + (buffer == null ? "buffer" : "datatype") + " is null");
        }
        Segment s = ThreadSegments.take(datatype, count, buffer, origin); // checks the footprint
        ThreadSegments.give(s);
        if (s.byteSize() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("block: packed size " + s.byteSize() + " bytes of " + datatype + " x "
                    + count + " (expected: <= " + (Integer.MAX_VALUE - 8) + " per message)");
        }
    }

    /** The spec over a byte array. */
    public static BlockSpec of(byte[] buffer, long origin, long count, Datatype datatype) {
        if (buffer == null) {
            throw new NullPointerException("block: buffer is null");
        }
        return new BlockSpec(Memory.ofArray(buffer), origin, count, datatype);
    }

    /**
     * Block {@code i} of MPI's layout for gather, scatter, allgather and alltoall: this block's
     * elements shifted by {@code i * count} extents of the datatype (block 0 is this block).
     *
     * @throws IllegalArgumentException if i is negative or the shifted block leaves the buffer
     */
    public BlockSpec shifted(long i) {
        if (i < 0) {
            throw new IllegalArgumentException("block: index " + i + " (expected: >= 0)");
        }
        long shift = Math.multiplyExact(Math.multiplyExact(i, count), datatype.extent());
        return new BlockSpec(buffer, Math.addExact(origin, shift), count, datatype);
    }

    /**
     * The {@code n} blocks of MPI's non-v layout: block i is {@code count} elements at {@code
     * origin + i * count * extent}, as MPI_Gather places the blocks of its receive buffer.
     */
    public static BlockSpec[] consecutive(Memory buffer, long origin, long count, Datatype datatype, int n) {
        if (n < 0) {
            throw new IllegalArgumentException("block: block count " + n + " (expected: >= 0)");
        }
        BlockSpec first = new BlockSpec(buffer, origin, count, datatype);
        BlockSpec[] out = new BlockSpec[n];
        for (int i = 0; i < n; i++) {
            out[i] = first.shifted(i);
        }
        return out;
    }

    /**
     * The blocks of MPI's v layout: block i is {@code counts[i]} elements at {@code origin +
     * displs[i] * extent}, as MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv and MPI_Alltoallv place
     * them (displacements in extents of the datatype).
     */
    public static BlockSpec[] displaced(Memory buffer, long origin, long[] counts, long[] displs, Datatype datatype) {
        if (counts == null || displs == null || counts.length != displs.length) {
            throw new IllegalArgumentException("block: displs length " + (displs == null ? "null" : displs.length)
                    + " (expected: counts length " + (counts == null ? "null" : counts.length) + ")");
        }
        if (datatype == null) {
            throw new NullPointerException("block: datatype is null");
        }
        BlockSpec[] out = new BlockSpec[counts.length];
        for (int i = 0; i < counts.length; i++) {
            long at = Math.addExact(origin, Math.multiplyExact(displs[i], datatype.extent()));
            out[i] = new BlockSpec(buffer, at, counts[i], datatype);
        }
        return out;
    }

    /**
     * Unpacks the first {@code data.length} bytes of this block's packed stream (at most {@link
     * #byteSize()}), leaving the rest of the block untouched.
     */
    void unpackPrefix(byte[] data) {
        if (data.length > byteSize()) {
            throw new IllegalArgumentException("block: data length " + data.length + " (expected: <= " + byteSize()
                    + " for " + datatype + " x " + count + ")");
        }
        unpackBytes(data);
    }

    @Override
    public TypedRegion region() {
        return TypedRegion.of(buffer, datatype, count, origin);
    }

    @Override
    public int byteSize() {
        return (int) (datatype.byteSize() * count);
    }

    @Override
    public byte[] pack() {
        byte[] out = new byte[byteSize()];
        Segment s = ThreadSegments.take(datatype, count, buffer, origin);
        try {
            s.pack(Memory.ofArray(out), 0, out.length);
        } finally {
            ThreadSegments.give(s);
        }
        return out;
    }

    @Override
    public void unpack(byte[] data) {
        if (data.length != byteSize()) {
            throw new IllegalArgumentException("block: data length " + data.length + " (expected: " + byteSize()
                    + " for " + datatype + " x " + count + ")");
        }
        unpackBytes(data);
    }

    /** Unpacks data (at most the block's bytes) into the block through a segment of this thread's. */
    private void unpackBytes(byte[] data) {
        Segment s = ThreadSegments.take(datatype, count, buffer, origin);
        try {
            s.unpack(Memory.ofArray(data), 0, data.length);
        } finally {
            ThreadSegments.give(s);
        }
    }
}
