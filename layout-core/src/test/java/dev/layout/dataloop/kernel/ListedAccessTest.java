package dev.layout.dataloop.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.memory.Memory;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ListedAccess#blocks} packs and unpacks what a byte loop moves: every uniform width from 1 to 72
 * bytes, wider ones as words and as bulk copies, blocks in one cache set (each width class and exact width of {@link StridedLoops#listed}, unpacked
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
        for (int w = 1; w <= 72; w++) {
            check(w, w % 10 == 0, w + 8, userOff, packedOff, r);
        }
        for (long width : new long[] {96, 100, 128, 200}) {
            check(width, false, width + 8, userOff, packedOff, r);
        }
        // shuffled slots of one cache set ({@link ListedAccess#inOneSet}): the one-set loops
        for (long width : new long[] {8, 24, 96, 128}) {
            check(width, false, SET, userOff, packedOff, r);
        }
    }

    private static final long SET = 64 * 1024;

    @Test
    void aListSteppingByOneSetStridesAtLeastHalfTheTimeIsInOneSet() {
        long[] slots = {3 * SET, 0, 7 * SET, 2 * SET, 5 * SET, SET, 4 * SET, 6 * SET, 9 * SET, 8 * SET};
        assertThat(ListedAccess.inOneSet(slots, 0, slots.length)).isTrue();
        assertThat(ListedAccess.inOneSet(new long[] {0, SET, SET + 8, 2 * SET + 8, 2 * SET + 16}, 0, 5))
                .as("two of four steps")
                .isTrue();
        assertThat(ListedAccess.inOneSet(new long[] {0, SET, SET + 8, SET + 16, SET + 24}, 0, 5))
                .as("one of four steps")
                .isFalse();
        assertThat(ListedAccess.inOneSet(new long[] {0, 104, 312, 208, 520}, 0, 5))
                .isFalse();
        assertThat(ListedAccess.inOneSet(slots, 4, 5)).as("one block").isFalse();
        // only the first SAMPLED_STEPS steps of the range are looked at
        long[] late = new long[40];
        for (int b = 0; b < late.length; b++) {
            late[b] = b < 20 ? 8L * b : 8L * 20 + (b - 19) * SET;
        }
        assertThat(ListedAccess.inOneSet(late, 0, late.length)).isFalse();
        assertThat(ListedAccess.inOneSet(late, 20, late.length)).isTrue();
        Random r = new Random(5);
        for (int i = 0; i < 100; i++) {
            long[] random = r.longs(200, 0, 1 << 24).map(x -> x & ~7L).toArray();
            assertThat(ListedAccess.inOneSet(random, 0, random.length)).isFalse();
        }
    }

    private static void check(long width, boolean varying, long slot, boolean userOff, boolean packedOff, Random r) {
        int n = 1 + r.nextInt(40);
        long[] lengths = new long[n];
        long[] offsets = new long[n];
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
        assertThat(packed.toArray(5, (int) total)).as("pack, width %d", width).isEqualTo(expected);

        // unpacking puts the same bytes back
        Memory back = memory(userOff, userBytes);
        ListedAccess.blocks(back, 0, offsets, lens, width, 0, n, packed, 5, false);
        Memory again = memory(packedOff, (int) total);
        ListedAccess.blocks(back, 0, offsets, lens, width, 0, n, again, 0, true);
        assertThat(again.toArray(0, (int) total)).as("unpack, width %d", width).isEqualTo(expected);
        for (int b = 0; b < n; b++) {
            // the gap after each block is left alone
            assertThat(back.getByte(offsets[b] + lengths[b])).isZero();
        }
    }
}
