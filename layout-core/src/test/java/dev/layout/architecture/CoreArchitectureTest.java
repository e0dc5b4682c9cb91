package dev.layout.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import dev.layout.cli.Subcommand;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * layout-core's architecture, checked on its compiled classes: no package cycles, only the allowed
 * edges between its packages, nothing but the JDK below it, the engine's internals used only by
 * the engine, and every command a {@code XxxCommand implements Subcommand} in a {@code cli}
 * package. The rules are the static methods every module's architecture test uses the same way;
 * {@link ArchitectureRulesTest} shows each of them failing on a deliberately wrong import.
 */
class CoreArchitectureTest {
  static final JavaClasses MAIN = new ClassFileImporter().importPath(Path.of("target/classes"));

  /** Package -> the packages of this module it may use (the current graph, which has no cycle). */
  static final Map<String, Set<String>> EDGES = Map.ofEntries(
      Map.entry("datatype", Set.of()),
      Map.entry("bytecode", Set.of()),
      Map.entry("notation", Set.of("datatype")),
      Map.entry("memory", Set.of()),
      Map.entry("dataloop.kernel", Set.of("memory", "bytecode")),
      Map.entry("normalize", Set.of("datatype", "notation")),
      Map.entry("dataloop", Set.of("datatype", "memory", "normalize", "dataloop.kernel")),
      Map.entry("automap", Set.of("datatype", "memory", "bytecode")),
      Map.entry("conformance", Set.of("datatype", "notation", "memory", "dataloop")),
      Map.entry("cli", Set.of("datatype", "notation", "memory", "dataloop", "conformance")),
      Map.entry("normalize.cli", Set.of("cli", "datatype", "notation", "normalize")));

  @Test
  void noPackageCycles() {
    noCycles().check(MAIN);
  }

  @Test
  void packagesUseOnlyTheAllowedEdges() {
    for (ArchRule r : edges("dev.layout", EDGES)) {
      r.check(MAIN);
    }
  }

  @Test
  void dependsOnNothingButTheJdk() {
    classes().should().onlyDependOnClassesThat().resideInAnyPackage("dev.layout..", "java..", "javax..", "jdk..", "sun.misc..")
        .because("layout-core depends on nothing but the JDK (the enforcer bans every runtime dependency too)")
        .check(MAIN);
  }

  @Test
  void engineInternalsAreUsedOnlyByTheEngine() {
    internalsUsedOnlyBy("dev.layout.dataloop.kernel..", "dev.layout.dataloop..").check(MAIN);
  }

  @Test
  void aDataloopIsAnImmutableDescriptionThatPicksNoKernel() {
    // Kernel choice and caches of generated code belong to the plan layer (Plan), not the description.
    fields().that().areDeclaredIn("dev.layout.dataloop.Dataloop").should().beFinal()
        .because("a Dataloop is an immutable description").check(MAIN);
    noClasses().that().haveFullyQualifiedName("dev.layout.dataloop.Dataloop")
        .should().dependOnClassesThat().resideInAPackage("dev.layout.dataloop.kernel..")
        .because("the plan picks kernels; the description knows none").check(MAIN);
  }

  @Test
  void commandsAreXxxCommandsInCliPackages() {
    commandsInCliPackages().check(MAIN);
  }

  @Test
  void everyPackageHasDeclaredEdges() {
    Set<String> packages = new TreeSet<>();
    MAIN.forEach(c -> packages.add(c.getPackageName().substring("dev.layout.".length())));
    org.assertj.core.api.Assertions.assertThat(EDGES.keySet()).containsAll(packages);
  }

  // ------------------------------------------------------------------------------------- rules

  /** No cycle between the packages under dev.layout (each package its own slice). */
  static ArchRule noCycles() {
    return slices().matching("dev.layout.(**)").should().beFreeOfCycles();
  }

  /**
   * One rule per package of {@code edges} (relative to root): its classes use no other package of
   * the map but those listed for it.
   */
  static java.util.List<ArchRule> edges(String root, Map<String, Set<String>> edges) {
    java.util.List<ArchRule> rules = new java.util.ArrayList<>();
    edges.forEach((pkg, allowed) -> {
      String[] forbidden = edges.keySet().stream()
          .filter(p -> !p.equals(pkg) && !allowed.contains(p))
          .map(p -> root + "." + p)
          .toArray(String[]::new);
      rules.add(noClasses().that().resideInAPackage(root + "." + pkg)
          .should().dependOnClassesThat().resideInAnyPackage(forbidden)
          .allowEmptyShould(true)
          .because(pkg + " may use only " + allowed + " of its module"));
    });
    return rules;
  }

  /** Classes of the {@code internals} package pattern are used only from the {@code owner} pattern. */
  static ArchRule internalsUsedOnlyBy(String internals, String owner) {
    return noClasses().that().resideOutsideOfPackage(owner)
        .should().dependOnClassesThat().resideInAPackage(internals)
        .allowEmptyShould(true)
        .because(internals + " are internals of " + owner);
  }

  /** Every {@link Subcommand} is a class named XxxCommand in a cli package. */
  static ArchRule commandsInCliPackages() {
    return classes().that().implement(Subcommand.class)
        .should().resideInAPackage("..cli..").andShould().haveSimpleNameEndingWith("Command")
        .allowEmptyShould(true)
        .because("command-line classes live in cli packages, one XxxCommand implements Subcommand per command");
  }
}
