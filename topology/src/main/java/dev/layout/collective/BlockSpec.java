package dev.layout.collective;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;

/**
 * A block of {@code alltoallw} (and the other w-forms) described by a datatype: {@code count}
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
public record BlockSpec(Memory buffer, long origin, long count, Datatype datatype) implements Block {
  public BlockSpec {
    if (buffer == null || datatype == null) {
      throw new NullPointerException("block: " + (buffer == null ? "buffer" : "datatype") + " is null");
    }
    Segment s = Segment.of(datatype, count, buffer, origin);
    if (s.byteSize() > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("block: packed size " + s.byteSize() + " bytes of " + datatype + " x " + count
          + " (expected: <= " + (Integer.MAX_VALUE - 8) + " per message)");
    }
  }

  public static BlockSpec of(byte[] buffer, long origin, long count, Datatype datatype) {
    return new BlockSpec(Memory.ofArray(buffer), origin, count, datatype);
  }

  @Override
  public int byteSize() {
    return (int) (datatype.byteSize() * count);
  }

  @Override
  public byte[] pack() {
    byte[] out = new byte[byteSize()];
    Segment.of(datatype, count, buffer, origin).pack(Memory.ofArray(out), 0, out.length);
    return out;
  }

  @Override
  public void unpack(byte[] data) {
    if (data.length != byteSize()) {
      throw new IllegalArgumentException("block: data length " + data.length + " (expected: " + byteSize() + " for " + datatype + " x " + count + ")");
    }
    Segment.of(datatype, count, buffer, origin).unpack(Memory.ofArray(data), 0, data.length);
  }
}
