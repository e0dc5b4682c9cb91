package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DisplacementSequenceTest {

    @Test
    void parsesAndPrintsCommaSeparated() {
        DisplacementSequence x = DisplacementSequence.parse("-3, 5,7");
        assertThat(x.size()).isEqualTo(3);
        assertThat(x.get(0)).isEqualTo(-3);
        assertThat(x).hasToString("-3,5,7").isEqualTo(DisplacementSequence.of(-3, 5, 7));
    }

    @Test
    void rejectsEmptyAndGarbage() {
        assertThatThrownBy(() -> DisplacementSequence.parse(" ")).hasMessageContaining("empty list");
        assertThatThrownBy(() -> DisplacementSequence.of()).hasMessage("displacements: length 0 (expected: >= 1)");
        assertThatThrownBy(() -> DisplacementSequence.parse("1,,2"))
                .hasMessage("displacements: element 1 '' (expected: a 64-bit integer)");
    }

    @Test
    void rejectsSpansBeyond64Bits() {
        assertThatThrownBy(() -> DisplacementSequence.of(Long.MIN_VALUE, 1)).hasMessageContaining("span");
        assertThat(DisplacementSequence.of(Long.MIN_VALUE, -1).size()).isEqualTo(2);
    }

    @Test
    void copiesItsInput() {
        long[] v = {1, 2};
        DisplacementSequence x = DisplacementSequence.of(v);
        v[0] = 9;
        x.toArray()[1] = 9;
        assertThat(x).hasToString("1,2");
    }

    @Test
    void knowsWhenRegularlyStrided() {
        assertThat(DisplacementSequence.of(4).isRegularlyStrided()).isTrue();
        assertThat(DisplacementSequence.of(4, 2, 0).isRegularlyStrided()).isTrue();
        assertThat(DisplacementSequence.of(0, 1, 3).isRegularlyStrided()).isFalse();
    }

    @Test
    void extremeValuesReconstructExactly() {
        DisplacementSequence x =
                DisplacementSequence.of(Long.MAX_VALUE - 4, Long.MAX_VALUE - 2, Long.MAX_VALUE, 0, 2, 4);
        TypePath p = Normalizer.reconstruct(x, CostModel.storage(1, 4, 3));
        assertThat(p.expand()).isEqualTo(x);
    }
}
