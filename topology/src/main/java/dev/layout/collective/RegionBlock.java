package dev.layout.collective;

import dev.layout.transport.TypedRegion;

/**
 * A block that is a {@link TypedRegion}: part of the packed stream of some typed memory (a rank's
 * share of one round of a larger exchange, as in two-phase I/O). Like every block, it serves one
 * collective call at a time.
 */
public record RegionBlock(TypedRegion region) implements TypedBlock {
    /** @throws NullPointerException if region is null */
    public RegionBlock {
        if (region == null) {
            throw new NullPointerException("block: region is null");
        }
    }

    @Override
    public int byteSize() {
        return region.length();
    }

    @Override
    public byte[] pack() {
        return region.pack();
    }

    @Override
    public void unpack(byte[] data) {
        region.unpack(data);
    }
}
