package dev.layout.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.notation.LayoutParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vector MPICH 4.0 produced (conformance/mpich-types.jsonl.gz), every field. */
class MpichConformanceTest {

  static List<String> lines(String resource) {
    try (InputStream in = MpichConformanceTest.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + resource);
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8));
      List<String> out = new ArrayList<>();
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        if (!l.isBlank()) {
          out.add(l);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Arguments> vectors() {
    List<Arguments> out = new ArrayList<>();
    for (String l : lines("/conformance/mpich-types.jsonl.gz")) {
      out.add(Arguments.of(Json.object(l).get("id"), l));
    }
    return out;
  }

  static List<Arguments> invalid() {
    List<Arguments> out = new ArrayList<>();
    for (String l : lines("/conformance/invalid-types.jsonl.gz")) {
      Map<String, Object> m = Json.object(l);
      out.add(Arguments.of(m.get("type"), m.get("why")));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void matchesMpich(String id, String line) {
    assertThat(ConformanceChecker.check(line)).as(id).isEmpty();
  }

  @ParameterizedTest(name = "{0} ({1})")
  @MethodSource("invalid")
  void rejectsInvalidType(String type, String why) {
    assertThatThrownBy(() -> LayoutParser.parse(type)).isInstanceOf(IllegalArgumentException.class).message().isNotBlank();
  }

  @org.junit.jupiter.api.Test
  void coversAllVectors() {
    assertThat(vectors()).hasSize(1562);
    assertThat(invalid()).hasSize(35);
  }
}
