package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.bench.Raw;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The variants of {@link HandLoopVariantsRace} move exactly the bytes the suite's Indexed(float64)
 * hand loop moves, for even and odd record counts, so the race compares equal work.
 */
class HandLoopVariantsRaceTest {
  interface PackLoop {
    void run(Object ub, long ua, Object pb, long pa, int records);
  }

  private static final long B = Raw.BYTE_ARRAY_BASE;

  private static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 29 + 3);
    }
    return b;
  }

  /** What a pack of {@code records} records must produce: bytes 0-15, 24-31 and 48-55 of each record. */
  private static byte[] expectedPacked(byte[] user, int records) {
    byte[] p = new byte[32 * records];
    int[] from = {0, 8, 24, 48};
    for (int r = 0; r < records; r++) {
      for (int w = 0; w < 4; w++) {
        System.arraycopy(user, 64 * r + from[w], p, 32 * r + 8 * w, 8);
      }
    }
    return p;
  }

  @Test
  void suiteHandLoopPacksTheBytesTheVariantsAreCheckedAgainst() {
    RossCase.Instance in = RossCase.INDEXED_F64.create(RossCase.Size.SMALL);
    int records = HandLoopVariantsRace.records(in);
    byte[] user = pattern((int) in.userBytes);
    byte[] packed = new byte[(int) in.packedBytes];
    in.pack(user, B, packed, B);
    assertThat(packed).isEqualTo(expectedPacked(user, records));
  }

  @Test
  void everyPackVariantMovesTheHandLoopsBytes() {
    PackLoop[] loops = {HandLoopVariantsRace::packTwoStreams, HandLoopVariantsRace::packLoadsFirst, HandLoopVariantsRace::packTouchAhead};
    for (int records : new int[] {1, 2, 37, 64, HandLoopVariantsRace.TOUCH_DISTANCE + 5}) {
      byte[] user = pattern(64 * records);
      for (PackLoop loop : loops) {
        byte[] packed = new byte[32 * records + 8];
        loop.run(user, B, packed, B, records);
        assertThat(Arrays.copyOf(packed, 32 * records)).as("%s, %d records", loop, records).isEqualTo(expectedPacked(user, records));
        assertThat(Arrays.copyOfRange(packed, 32 * records, packed.length)).as("bytes past the end").containsOnly(0);
      }
    }
  }

  @Test
  void everyUnpackVariantRestoresTheHandLoopsBytesAndNothingElse() {
    PackLoop[] loops = {(pb, pa, ub, ua, n) -> HandLoopVariantsRace.unpackTwoStreams(pb, pa, ub, ua, n),
        (pb, pa, ub, ua, n) -> HandLoopVariantsRace.unpackLoadsFirst(pb, pa, ub, ua, n),
        (pb, pa, ub, ua, n) -> HandLoopVariantsRace.unpackTouchAhead(pb, pa, ub, ua, n)};
    for (int records : new int[] {1, 2, 37, 64, HandLoopVariantsRace.TOUCH_DISTANCE + 5}) {
      byte[] user = pattern(64 * records);
      byte[] packed = expectedPacked(user, records);
      for (PackLoop loop : loops) {
        byte[] back = new byte[64 * records];
        loop.run(packed, B, back, B, records);
        for (int i = 0; i < back.length; i++) {
          int o = i % 64;
          boolean moved = o < 16 || (o >= 24 && o < 32) || (o >= 48 && o < 56);
          assertThat(back[i]).as("%d records, user byte %d", records, i).isEqualTo(moved ? user[i] : 0);
        }
      }
    }
  }

  @Test
  void refusesAnInstanceThatIsNotIndexedFloat64() {
    RossCase.Instance face = RossCase.FACE_XY_F32.create(RossCase.Size.SMALL);
    assertThatThrownBy(() -> HandLoopVariantsRace.records(face)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an Indexed(float64)");
  }
}
