package dev.layout.dataloop.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ListedAccess#blocks} packs and unpacks what a byte loop moves: every uniform width from 1 to 72
 * bytes and a bulk-copied one (each width class and exact width of {@link StridedLoops#listed}, unpacked
 * paced and not, {@link ListedAccess#run}), varying widths, blocks at shuffled offsets, every combination of heap and off-heap user
 * and packed memory.
 */
class ListedAccessTest {
    private static Memory memory(boolean offHeap, int n) {
        return offHeap ? Memory.ofBuffer(ByteBuffer.allocateDirect(n)).slice(0, n) : Memory.ofArray(new byte[n]);
    }

    @ParameterizedTest(name = "kinds {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void listedBlocksMoveWhatAByteLoopMoves(int kinds) {
        boolean userOff = (kinds & 1) != 0;
        boolean packedOff = (kinds & 2) != 0;
        Random r = new Random(17 + kinds);
        for (int w = 1; w <= 73; w++) {
            long width = w == 73 ? 100 : w;
            boolean varying = w % 10 == 0;
            int n = 1 + r.nextInt(40);
            long[] lengths = new long[n];
            long[] offsets = new long[n];
            long slot = width + 8;
            for (int b = 0; b < n; b++) {
                lengths[b] = varying ? 1 + r.nextInt((int) width) : width;
                offsets[b] = b * slot + 3;
            }
            for (int b = n - 1; b > 0; b--) {
                int j = r.nextInt(b + 1);
                long t = offsets[b];
                offsets[b] = offsets[j];
                offsets[j] = t;
            }
            int userBytes = (int) (n * slot + 16);
            Memory user = memory(userOff, userBytes);
            for (int i = 0; i < userBytes; i++) {
                user.putByte(i, (byte) (i * 31 + 7));
            }
            long total = 0;
            for (long l : lengths) {
                total += l;
            }
            byte[] expected = new byte[(int) total];
            int q = 0;
            for (int b = 0; b < n; b++) {
                for (int i = 0; i < lengths[b]; i++) {
                    expected[q++] = user.getByte(offsets[b] + i);
                }
            }
            long[] lens = varying ? lengths : null;
            Memory packed = memory(packedOff, (int) total + 5);
            long moved = ListedAccess.blocks(user, 0, offsets, lens, width, 0, n, packed, 5, true);
            assertThat(moved).isEqualTo(total);
            assertThat(packed.toArray(5, (int) total))
                    .as("pack, width %d", width)
                    .isEqualTo(expected);

            // unpacking puts the same bytes back
            Memory back = memory(userOff, userBytes);
            ListedAccess.blocks(back, 0, offsets, lens, width, 0, n, packed, 5, false);
            Memory again = memory(packedOff, (int) total);
            ListedAccess.blocks(back, 0, offsets, lens, width, 0, n, again, 0, true);
            assertThat(again.toArray(0, (int) total))
                    .as("unpack, width %d", width)
                    .isEqualTo(expected);
            for (int b = 0; b < n; b++) {
                // the gap after each block is left alone
                assertThat(back.getByte(offsets[b] + lengths[b])).isZero();
            }
        }
    }
}
