package dev.layout.bench.memory;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Target names on the command line. */
class TargetTest {
    @Test
    void unknownTargetNameIsRefusedByParse() {
        assertThatThrownBy(() -> Target.parse("gpu"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--target gpu");
    }
}
