package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.bench.Raw;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The twin of a case is a second compilation unit (another class, from another loader) whose hand
 * loop moves the same bytes as the original's, so {@link TwinLoopRace} compares like with like.
 */
class TwinLoopRaceTest {
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"FACE_XZ_F32", "INDEXED_F64"})
  void twinIsAnotherClassMovingTheSameBytes(String name) throws Throwable {
    RossCase.Instance in = RossCase.valueOf(name).create(RossCase.Size.SMALL);
    Object twin = TwinLoopRace.twinInstance(name, RossCase.Size.SMALL);
    assertThat(twin.getClass()).isNotEqualTo(in.getClass());
    assertThat(twin.getClass().getName()).isEqualTo(in.getClass().getName());
    assertThat(twin.getClass().getClassLoader()).isNotSameAs(in.getClass().getClassLoader());

    byte[] user = new byte[(int) in.userBytes];
    for (int i = 0; i < user.length; i++) {
      user[i] = (byte) (i * 31 + 7);
    }
    byte[] mine = new byte[(int) in.packedBytes];
    byte[] theirs = new byte[(int) in.packedBytes];
    in.pack(user, Raw.BYTE_ARRAY_BASE, mine, Raw.BYTE_ARRAY_BASE);
    MethodHandle pack = TwinLoopRace.loop(twin, "pack");
    pack.invoke(user, Raw.BYTE_ARRAY_BASE, theirs, Raw.BYTE_ARRAY_BASE);
    assertThat(theirs).isEqualTo(mine);
    assertThat(mine).isNotEqualTo(new byte[mine.length]);
  }
}
