package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.bench.Raw;
import org.junit.jupiter.api.Test;

/**
 * The floor loops of {@link MemoryFloorRace} move what they claim to move (the first half of every
 * 64-byte line, in order, and back), so the race compares the hand loops with a loop that does the
 * same memory work.
 */
class MemoryFloorRaceTest {
  @Test
  void floorPacksTheFirstHalfOfEveryLineAndUnpacksItBack() {
    int packed = 32 * 37;
    byte[] user = new byte[2 * packed + 16];
    for (int i = 0; i < user.length; i++) {
      user[i] = (byte) (i * 31 + 7);
    }
    byte[] out = new byte[packed];
    MemoryFloorRace.floorPack(user, Raw.BYTE_ARRAY_BASE + 8, out, Raw.BYTE_ARRAY_BASE, packed);
    for (int k = 0; k < packed; k++) {
      int line = k / 32;
      assertThat(out[k]).as("packed byte %d", k).isEqualTo(user[8 + 64 * line + k % 32]);
    }
    byte[] back = new byte[user.length];
    MemoryFloorRace.floorUnpack(out, Raw.BYTE_ARRAY_BASE, back, Raw.BYTE_ARRAY_BASE + 8, packed);
    for (int i = 0; i < back.length; i++) {
      boolean moved = i >= 8 && i < 8 + 2 * packed && (i - 8) % 64 < 32;
      assertThat(back[i]).as("user byte %d", i).isEqualTo(moved ? user[i] : 0);
    }
  }
}
