package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of {@code normalizer-paths.jsonl}: the reconstructed path reaches exactly {@code
 * optimal_cost}, and its printed form parses back and expands to exactly the displacements.
 */
class NormalizerConformanceTest {

    static Stream<Vectors.Case> cases() {
        return Vectors.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reachesOptimalCostAndExpandsExactly(Vectors.Case c) {
        DisplacementSequence x = DisplacementSequence.of(c.disps());
        TypePath path = Normalizer.of(c.model()).reconstruct(x);
        String printed = path.toString();
        TypePath reparsed = TypePath.parse(printed);

        assertThat(reparsed).isEqualTo(path);
        assertThat(reparsed.expand().toArray()).as(printed).containsExactly(c.disps());
        assertThat(reparsed.cost(c.model())).as(printed).isEqualTo(c.optimalCost());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void exampleOptimalIsConsistentWithOurCostAndExpansion(Vectors.Case c) {
        TypePath example = TypePath.parse(c.exampleOptimal());
        assertThat(example.toString()).isEqualTo(c.exampleOptimal());
        assertThat(example.expand().toArray()).containsExactly(c.disps());
        assertThat(example.cost(c.model())).isEqualTo(c.optimalCost());
    }

    @Test
    void hasAllFourHundredCases() {
        assertThat(Vectors.all()).hasSize(400);
    }
}
