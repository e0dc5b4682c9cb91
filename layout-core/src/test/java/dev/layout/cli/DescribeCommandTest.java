package dev.layout.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code layout describe} answers for every valid type, without walking every block of a huge one. */
class DescribeCommandTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aVectorOfMoreThanIntMaxBlocksIsDescribed() {
        LayoutCliTest.Result r = LayoutCliTest.run("describe", "vector(2147483648, 1, 2, float64)");
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains(
                        "size:            17179869184",
                        "vector leaf(count=2147483648, blockBytes=8, stride=16",
                        "contiguous blocks: at most 2147483648 (by arithmetic; 17179869184 bytes packed)");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void thirtySixNestedVectorsCountTheirBlocksByArithmetic() {
        String t = "float64";
        for (int i = 0; i < 36; i++) {
            t = "vector(2, 1, 2, " + t + ")";
        }
        LayoutCliTest.Result r = LayoutCliTest.run("describe", t);
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains(
                        "size:            " + (8L << 36),
                        "contiguous blocks: at most " + (1L << 36) + " (by arithmetic;");
    }

    @Test
    void smallTypesStillCountMergedBlocksExactly() {
        // two instances of a 2-block vector whose blocks touch across the instance boundary
        LayoutCliTest.Result r =
                LayoutCliTest.run("describe", "resized(0, 8, vector(2, 1, 1, float32))", "--count", "3");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("contiguous blocks: 1 (24 bytes packed)");
    }
}
