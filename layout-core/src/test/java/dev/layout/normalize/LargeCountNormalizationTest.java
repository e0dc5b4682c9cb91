package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import org.junit.jupiter.api.Test;

/** Loops of more than {@code Integer.MAX_VALUE} iterations are valid types; normalization keeps them as loops. */
class LargeCountNormalizationTest {
    @Test
    void aVectorOfMoreThanIntMaxBlocksNormalizesToTheSameTypeMap() {
        Datatype t = Datatype.vector(1L << 31, 1, 2, Primitive.FLOAT64);
        Datatype n = Normalizer.of(CostModel.defaults()).normalize(t);
        assertThat(n.byteSize()).isEqualTo(t.byteSize());
        assertThat(n.extent()).isEqualTo(t.extent());
        assertThat(n.trueUb()).isEqualTo(t.trueUb());
    }

    @Test
    void mergedLoopsBeyondIntMaxAreKeptApart() {
        // 2^20 rows of 2^20 contiguous float32 at a row stride of exactly one row: one loop of 2^40 if merged.
        Datatype t = Datatype.hvector(1L << 20, 1, 4L << 20, Datatype.vector(1L << 20, 1, 1, Primitive.FLOAT32));
        Datatype n = Normalizer.of(CostModel.defaults()).normalize(t);
        assertThat(n.byteSize()).isEqualTo(4L << 40);
        assertThat(n.extent()).isEqualTo(t.extent());
    }
}
