package dev.layout.normalize;

import java.io.PrintStream;

/** Type normalization of datatypes (section 5); needs the datatype model. */
final class TypeNormalization {
  private TypeNormalization() {}

  static int runTypeOption(String text, Normalizer normalizer, PrintStream out) {
    throw new IllegalArgumentException(
        "normalize: --type is not available yet (expected: --disps or --input)");
  }
}
