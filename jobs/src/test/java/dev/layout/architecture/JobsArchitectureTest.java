package dev.layout.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * jobs's architecture, checked on its compiled classes with the rules of layout-core's
 * {@code CoreArchitectureTest} (which shows each failing on a deliberately wrong import): no
 * package cycles, only the allowed edges between its packages, nothing of benchmarks (the bench job finds the bench command through the Subcommand service), the
 * engine's internals used only by the engine, every command an {@code XxxCommand implements
 * Subcommand} in a {@code cli} package. A new package needs its line in {@link #EDGES}.
 */
class JobsArchitectureTest {
  static final JavaClasses MAIN = new ClassFileImporter().importPath(Path.of("target/classes"));

  /** Package -> the packages of this module it may use; the modules below (every module but benchmarks) are free. */
  static final Map<String, Set<String>> EDGES = Map.ofEntries(
      Map.entry("jobs.output", Set.of()),
      Map.entry("jobs", Set.of("jobs.output")),
      Map.entry("jobs.grid", Set.of()),
      Map.entry("jobs.bench", Set.of("jobs")),
      Map.entry("jobs.fileview", Set.of("jobs", "jobs.output")),
      Map.entry("jobs.heat", Set.of("jobs", "jobs.grid", "jobs.output")),
      Map.entry("jobs.life", Set.of("jobs", "jobs.grid", "jobs.output")));

  @Test
  void noPackageCycles() {
    slices().matching("dev.layout.(**)").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void packagesUseOnlyTheAllowedEdges() {
    EDGES.forEach((pkg, allowed) -> noClasses().that().resideInAPackage("dev.layout." + pkg)
        .should().dependOnClassesThat().resideInAnyPackage(EDGES.keySet().stream()
            .filter(p -> !p.equals(pkg) && !allowed.contains(p)).map(p -> "dev.layout." + p).toArray(String[]::new))
        .allowEmptyShould(true)
        .because(pkg + " may use only " + allowed + " of its module")
        .check(MAIN));
  }

  @Test
  void everyPackageHasDeclaredEdges() {
    Set<String> packages = new TreeSet<>();
    MAIN.forEach(c -> packages.add(c.getPackageName().substring("dev.layout.".length())));
    assertThat(EDGES.keySet()).containsAll(packages);
  }

  @Test
  void dependsOnNoModuleAbove() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.layout.bench..")
        .because("jobs sits below benchmarks (the bench job finds the bench command through the Subcommand service)")
        .check(MAIN);
  }

  @Test
  void engineInternalsAreUsedOnlyByTheEngine() {
    noClasses().that().resideOutsideOfPackage("dev.layout.dataloop..")
        .should().dependOnClassesThat().resideInAPackage("dev.layout.dataloop.kernel..")
        .allowEmptyShould(true)
        .check(MAIN);
  }

  @Test
  void commandsAreXxxCommandsInCliPackages() {
    classes().that().implement("dev.layout.cli.Subcommand")
        .should().resideInAPackage("..cli..").andShould().haveSimpleNameEndingWith("Command")
        .allowEmptyShould(true)
        .check(MAIN);
  }
}
