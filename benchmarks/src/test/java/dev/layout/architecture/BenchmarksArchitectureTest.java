package dev.layout.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * benchmarks sits above every module and may use all of them, but not the engine's internals: it
 * measures the engine through its public types, as users run it. (The package-cycle and command
 * rules of the other modules' architecture tests are not applied here yet: the pack-suite
 * packages {@code bench} and {@code dataloop} use each other and {@code BenchCommand} lives in
 * {@code bench}, both being redesigned by the benchmark-harness work.)
 */
class BenchmarksArchitectureTest {
  static final JavaClasses MAIN = new ClassFileImporter().importPath(Path.of("target/classes"));

  @Test
  void engineInternalsAreUsedOnlyByTheEngine() {
    noClasses().that().resideOutsideOfPackage("dev.layout.dataloop..")
        .should().dependOnClassesThat().resideInAPackage("dev.layout.dataloop.kernel..")
        .allowEmptyShould(true)
        .check(MAIN);
  }
}
