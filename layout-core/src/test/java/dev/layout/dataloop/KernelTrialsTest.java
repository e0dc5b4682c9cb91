package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import dev.layout.testing.Buffers;
import dev.layout.testing.TypeMaps;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A layout whose generated kernels are on trial ({@code dev.layout.dataloop.kernel.Promotion}) moves the
 * interpreter's bytes on every call, whichever way each call runs: generic loops after a dose of the
 * instances through the kernel, a timed generic baseline, a whole call through the kernel as a trial,
 * or, once promoted, the kernel alone.
 */
class KernelTrialsTest {
    static List<String> types() {
        return List.of(
                // records at a spacing (a count of a small struct) and at listed offsets
                "resized(0, 40, struct([2,1], [0,24], [float64,byte]))",
                "indexed_block(1, [7,3,11,0,5,9,2,14,1,12], resized(0, 40, struct([1,1,1], [0,8,20], [int32,float64,int32])))",
                // rows of strided blocks, planes, rows of records, a strip
                "hvector(5, 1, 400, vector(6, 1, 3, float64))",
                "hvector(3, 1, 2000, hvector(4, 1, 200, vector(3, 1, 5, float32)))",
                BatchedLeafTest.AOS_BLOCK,
                "resized(0, 3600, vector(300, 1, 3, float32))");
    }

    @ParameterizedTest
    @MethodSource("types")
    void everyCallPacksAndUnpacksTheInterpretersBytes(String notation) {
        Datatype t = LayoutParser.parse(notation);
        long count = 24;
        Buffers b = Buffers.around(t, count, 5, 17);
        byte[] expect = TypeMaps.naivePack(t, count, b.bytes(), b.origin(), false);
        long[] offsets = TypeMaps.byteOffsets(t, count);
        byte[] unpacked = new byte[b.bytes().length];
        for (int i = 0; i < offsets.length; i++) {
            unpacked[(int) (b.origin() + offsets[i])] = expect[i];
        }
        for (boolean direct : new boolean[] {false, true}) {
            Memory user = memory(b.bytes(), direct);
            Memory packed = memory(new byte[expect.length], direct);
            Memory back = memory(new byte[b.bytes().length], direct);
            Segment pack = Segment.of(t, count, user, b.origin());
            Segment unpack = Segment.of(t, count, back, b.origin());
            for (int call = 0; call < 400; call++) {
                packed.fill(0, expect.length, (byte) 0);
                pack.seek(0);
                pack.pack(packed, 0, expect.length);
                assertThat(packed.toArray(0, expect.length))
                        .as("%s direct %s call %d", notation, direct, call)
                        .isEqualTo(expect);
                back.fill(0, unpacked.length, (byte) 0);
                unpack.seek(0);
                unpack.unpack(packed, 0, expect.length);
                assertThat(back.toArray(0, unpacked.length))
                        .as("%s direct %s unpack call %d", notation, direct, call)
                        .isEqualTo(unpacked);
            }
        }
    }

    private static Memory memory(byte[] bytes, boolean direct) {
        if (!direct) {
            return Memory.ofArray(bytes);
        }
        ByteBuffer d = ByteBuffer.allocateDirect(bytes.length);
        d.put(bytes).flip();
        return Memory.ofBuffer(d);
    }
}
