package dev.layout.spark.io;

import dev.layout.collective.Block;
import dev.layout.dataloop.Segment;
import dev.layout.memory.Memory;

/**
 * Bytes {@code [from, to)} of a rank's packed data, packed from or unpacked into the rank's own
 * memory through its datatype: the memory side of a view's intersection with a file domain. No
 * copy of the whole data is made; the segment seeks to {@code from}.
 */
final class StreamRangeBlock implements Block {
    private final Segment segment;
    private final long from;
    private final int length;

    StreamRangeBlock(Segment segment, long from, long to) {
        if (to - from > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "collective: block of " + (to - from) + " bytes (expected: <= " + (Integer.MAX_VALUE - 8) + ")");
        }
        this.segment = segment;
        this.from = from;
        this.length = (int) (to - from);
    }

    @Override
    public int byteSize() {
        return length;
    }

    @Override
    public byte[] pack() {
        byte[] out = new byte[length];
        segment.seek(from);
        segment.pack(Memory.ofArray(out), 0, length);
        return out;
    }

    @Override
    public void unpack(byte[] data) {
        if (data.length != length) {
            throw new IllegalArgumentException(
                    "collective: block data " + data.length + " bytes (expected: " + length + ")");
        }
        segment.seek(from);
        segment.unpack(Memory.ofArray(data), 0, length);
    }
}
