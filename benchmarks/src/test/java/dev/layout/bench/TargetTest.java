package dev.layout.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The race tools' command lines: target names and the other arguments split apart, in order. */
class TargetTest {
  @Test
  void namedTargetsAndOthersSplitTheArguments() {
    String[] args = {"offheap", "INDEXED_F64", "heap", "flash"};
    assertThat(Target.named(args, Target.DIRECT)).containsExactly(Target.OFFHEAP, Target.HEAP);
    assertThat(Target.others(args)).containsExactly("INDEXED_F64", "flash");
  }

  @Test
  void defaultsWhenNoTargetIsNamed() {
    assertThat(Target.named(new String[] {"flash"}, Target.HEAP, Target.OFFHEAP)).containsExactly(Target.HEAP, Target.OFFHEAP);
    assertThat(Target.others(new String[0])).isEmpty();
  }

  @Test
  void unknownTargetNameIsRefusedByParse() {
    assertThatThrownBy(() -> Target.parse("gpu")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--target gpu");
  }
}
