package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Strided vector leaves (which run through generated code where the cost model prefers it, from
 * about 32 blocks for these widths: a strip, or rows of 16 blocks plus a tail for 4-byte blocks with
 * a heap packed side; through the strided loops below that) pack and unpack exactly the bytes the
 * type names: widths 4, 8, 12, 16 and 24, strides including negative ones, counts on both sides of the crossing, whole
 * and in two pieces at a random split, every combination of heap and off-heap user and packed
 * memory.
 */
class VectorLeafKernelTest {
    private static Memory memory(boolean offHeap, int n) {
        return offHeap ? Memory.ofBuffer(ByteBuffer.allocateDirect(n)).slice(0, n) : Memory.ofArray(new byte[n]);
    }

    @ParameterizedTest(name = "user off-heap {0}, packed off-heap {1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    void longVectorLeavesMoveTheNamedBytes(boolean userOff, boolean packedOff) {
        Random r = new Random(5 + (userOff ? 1 : 0) + (packedOff ? 2 : 0));
        Datatype complex = Datatype.contiguous(2, Primitive.FLOAT64);
        for (int trial = 0; trial < 60; trial++) {
            int pick = r.nextInt(5);
            Datatype element = pick == 0
                    ? Primitive.FLOAT32
                    : pick == 1
                            ? Primitive.FLOAT64
                            : pick == 2
                                    ? complex
                                    : pick == 3
                                            ? Datatype.contiguous(3, Primitive.FLOAT32)
                                            : Datatype.contiguous(3, Primitive.FLOAT64);
            int width = new int[] {4, 8, 16, 12, 24}[pick];
            int n = 32 + r.nextInt(160) - 24;
            int strideElems = (2 + r.nextInt(3)) * (r.nextInt(4) == 0 ? -1 : 1);
            Datatype t = Datatype.vector(n, 1, strideElems, element);
            long strideBytes = (long) strideElems * width;
            long origin = strideBytes < 0 ? -strideBytes * (n - 1) + 8 : 8;
            int userBytes = (int) (origin + Math.abs(strideBytes) * n + 16);
            Memory user = memory(userOff, userBytes);
            for (int b = 0; b < userBytes; b++) {
                user.putByte(b, (byte) (b * 31 + 7));
            }
            int packedBytes = n * width;
            byte[] expected = new byte[packedBytes];
            for (int i = 0; i < n; i++) {
                for (int b = 0; b < width; b++) {
                    expected[i * width + b] = user.getByte(origin + i * strideBytes + b);
                }
            }
            Memory packed = memory(packedOff, packedBytes);
            Segment seg = Segment.of(t, 1, user, origin);
            long split = r.nextInt(packedBytes + 1);
            seg.seek(0);
            long first = seg.pack(packed, 0, split);
            long second = seg.pack(packed, first, packedBytes - first);
            assertThat(first + second).isEqualTo(packedBytes);
            assertThat(packed.toArray(0, packedBytes))
                    .as("pack, trial %d: n %d, width %d, stride %d, split %d", trial, n, width, strideBytes, split)
                    .isEqualTo(expected);

            Memory back = memory(userOff, userBytes);
            Segment out = Segment.of(t, 1, back, origin);
            out.seek(0);
            long u1 = out.unpack(packed, 0, split);
            out.unpack(packed, u1, packedBytes - u1);
            for (int i = 0; i < n; i++) {
                for (int b = 0; b < width; b++) {
                    long at = origin + i * strideBytes + b;
                    assertThat(back.getByte(at))
                            .as("unpack, trial %d, block %d", trial, i)
                            .isEqualTo(user.getByte(at));
                }
            }
            // Bytes between the blocks are left alone.
            long gapAt = origin + (strideBytes > 0 ? width : strideBytes + width);
            assertThat(back.getByte(gapAt)).isZero();
        }
    }
}
