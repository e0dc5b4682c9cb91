package dev.layout.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.notation.LayoutParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vector MPICH 4.0 produced (conformance/mpich-types.jsonl.gz), every field. */
class MpichConformanceTest {

    static List<Arguments> vectors() {
        List<Arguments> out = new ArrayList<>();
        for (Map<String, Object> v : dev.layout.testing.Json.linesOfResource("/conformance/mpich-types.jsonl.gz")) {
            out.add(Arguments.of(v.get("id"), v));
        }
        return out;
    }

    static List<Arguments> invalid() {
        List<Arguments> out = new ArrayList<>();
        for (Map<String, Object> m : dev.layout.testing.Json.linesOfResource("/conformance/invalid-types.jsonl.gz")) {
            out.add(Arguments.of(m.get("type"), m.get("why")));
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void matchesMpich(String id, Map<String, Object> vector) {
        assertThat(ConformanceChecker.check(vector)).as(id).isEmpty();
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("invalid")
    void rejectsInvalidType(String type, String why) {
        assertThatThrownBy(() -> LayoutParser.parse(type))
                .isInstanceOf(IllegalArgumentException.class)
                .message()
                .isNotBlank();
    }

    @org.junit.jupiter.api.Test
    void coversAllVectors() {
        assertThat(vectors()).hasSize(1562);
        assertThat(invalid()).hasSize(35);
    }
}
