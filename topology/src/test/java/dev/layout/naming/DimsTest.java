package dev.layout.naming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DimsTest {

    @Test
    void matchesMpiDimsCreate() {
        assertThat(Dims.create(6, 2)).containsExactly(3, 2);
        assertThat(Dims.create(7, 2)).containsExactly(7, 1);
        assertThat(Dims.create(12, 2)).containsExactly(4, 3);
        assertThat(Dims.create(16, 2)).containsExactly(4, 4);
        assertThat(Dims.create(16, 3)).containsExactly(4, 2, 2);
        assertThat(Dims.create(12, 3)).containsExactly(3, 2, 2);
        assertThat(Dims.create(24, 3)).containsExactly(4, 3, 2);
        assertThat(Dims.create(30, 3)).containsExactly(5, 3, 2);
        assertThat(Dims.create(64, 3)).containsExactly(4, 4, 4);
        assertThat(Dims.create(128, 3)).containsExactly(8, 4, 4);
        assertThat(Dims.create(1, 3)).containsExactly(1, 1, 1);
        assertThat(Dims.create(9, 1)).containsExactly(9);
    }

    @Test
    void fillsOnlyTheFreeDimensions() {
        assertThat(Dims.create(24, new int[] {0, 3, 0})).containsExactly(4, 3, 2);
        assertThat(Dims.create(12, new int[] {2, 0})).containsExactly(2, 6);
    }

    @Test
    void rejectsImpossibleRequests() {
        assertThatThrownBy(() -> Dims.create(0, 2)).hasMessage("dimsCreate: p 0 (expected: >= 1)");
        assertThatThrownBy(() -> Dims.create(4, 0)).hasMessage("dimsCreate: d 0 (expected: >= 1)");
        assertThatThrownBy(() -> Dims.create(10, new int[] {3, 0}))
                .hasMessage("dimsCreate: fixed dims [3, 0] (expected: product dividing p 10)");
    }
}
