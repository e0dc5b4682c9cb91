package dev.layout.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutParser;

/**
 * Fuzzes the notation parser: any text either parses to a type that prints back to itself, or is
 * rejected with an IllegalArgumentException (syntax, value or limit). Nothing else may escape.
 * Runs the committed corpus in every build; {@code JAZZER_FUZZ=1} fuzzes for real.
 */
class NotationFuzzTest {
    @FuzzTest(maxDuration = "2m")
    void parse(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        Datatype t;
        try {
            t = LayoutParser.parse(text);
        } catch (IllegalArgumentException expected) {
            assertThat(expected.getMessage()).isNotBlank();
            return;
        }
        assertThat(LayoutParser.parse(t.toString())).isEqualTo(t);
    }
}
