package dev.layout.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * layout-core's architecture, checked on its compiled classes: no package cycles, only the allowed
 * edges between its packages, nothing but the JDK below it, the engine's internals used only by
 * the engine (and the class-file writer only by the code generators), and every command a {@code XxxCommand implements Subcommand} in a {@code cli}
 * package. The rules are {@link ModuleRules}', which every module's architecture test uses;
 * {@link ArchitectureRulesTest} shows each of them failing on a deliberately wrong import.
 */
class CoreArchitectureTest {
    static final JavaClasses MAIN = ModuleRules.mainClasses();

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
        ModuleRules.noCycles().check(MAIN);
    }

    @Test
    void packagesUseOnlyTheAllowedEdges() {
        ModuleRules.checkEdges(MAIN, EDGES);
    }

    @Test
    void dependsOnNothingButTheJdk() {
        classes()
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("dev.layout..", "java..", "javax..", "jdk..", "sun.misc..")
                .because("layout-core depends on nothing but the JDK (the enforcer bans every runtime dependency too)")
                .check(MAIN);
    }

    @Test
    void engineInternalsAreUsedOnlyByTheEngine() {
        ModuleRules.engineInternalsUsedOnlyByTheEngine().check(MAIN);
        ModuleRules.classWritingUsedOnlyByTheGenerators().check(MAIN);
    }

    @Test
    void aDataloopIsAnImmutableDescriptionThatPicksNoKernel() {
        // Kernel choice and caches of generated code belong to the plan layer (Plan), not the description.
        fields().that()
                .areDeclaredIn("dev.layout.dataloop.Dataloop")
                .should()
                .beFinal()
                .because("a Dataloop is an immutable description")
                .check(MAIN);
        noClasses()
                .that()
                .haveFullyQualifiedName("dev.layout.dataloop.Dataloop")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.layout.dataloop.kernel..")
                .because("the plan picks kernels; the description knows none")
                .check(MAIN);
    }

    @Test
    void commandsAreXxxCommandsInCliPackages() {
        ModuleRules.commandsInCliPackages().check(MAIN);
    }

    @Test
    void everyPackageHasDeclaredEdges() {
        ModuleRules.checkEveryPackageDeclared(MAIN, EDGES);
    }
}
