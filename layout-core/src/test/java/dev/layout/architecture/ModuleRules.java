package dev.layout.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import dev.layout.cli.Subcommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The architecture rules every module's {@code XxxArchitectureTest} checks on its own compiled
 * classes (shipped in layout-core's test-jar, so all modules run the very rules {@link
 * ArchitectureRulesTest} shows failing on deliberately wrong imports).
 */
public final class ModuleRules {
    private ModuleRules() {}

    /** The module's main classes, as Maven compiled them ({@code target/classes} of the module under test). */
    public static JavaClasses mainClasses() {
        return new ClassFileImporter().importPath(Path.of("target/classes"));
    }

    /** No cycle between the packages under dev.layout (each package its own slice). */
    public static ArchRule noCycles() {
        return slices().matching("dev.layout.(**)").should().beFreeOfCycles();
    }

    /**
     * One rule per package of {@code edges} (relative to root): its classes use no other package of
     * the map but those listed for it.
     */
    public static List<ArchRule> edges(String root, Map<String, Set<String>> edges) {
        List<ArchRule> rules = new ArrayList<>();
        edges.forEach((pkg, allowed) -> {
            String[] forbidden = edges.keySet().stream()
                    .filter(p -> !p.equals(pkg) && !allowed.contains(p))
                    .map(p -> root + "." + p)
                    .toArray(String[]::new);
            rules.add(noClasses()
                    .that()
                    .resideInAPackage(root + "." + pkg)
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(forbidden)
                    .allowEmptyShould(true)
                    .because(pkg + " may use only " + allowed + " of its module"));
        });
        return rules;
    }

    /** Checks {@link #edges} under dev.layout on {@code main}. */
    public static void checkEdges(JavaClasses main, Map<String, Set<String>> edges) {
        for (ArchRule r : edges("dev.layout", edges)) {
            r.check(main);
        }
    }

    /** Every package of {@code main} (relative to dev.layout) has its line in {@code edges}. */
    public static void checkEveryPackageDeclared(JavaClasses main, Map<String, Set<String>> edges) {
        Set<String> packages = new TreeSet<>();
        main.forEach(c -> packages.add(c.getPackageName().substring("dev.layout.".length())));
        assertThat(edges.keySet()).as("packages with a line in EDGES").containsAll(packages);
    }

    /** No class uses the given packages (patterns), which belong to modules above this one. */
    public static ArchRule usesNoModuleAbove(String because, String... packagesAbove) {
        return noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(packagesAbove)
                .because(because);
    }

    /** Classes of the {@code internals} package pattern are used only from the {@code owners} patterns. */
    public static ArchRule internalsUsedOnlyBy(String internals, String... owners) {
        return noClasses()
                .that()
                .resideOutsideOfPackages(owners)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(internals)
                .allowEmptyShould(true)
                .because(internals + " are internals of " + String.join(", ", owners));
    }

    /** The engine's kernels ({@code dev.layout.dataloop.kernel}) are used only by the engine. */
    public static ArchRule engineInternalsUsedOnlyByTheEngine() {
        return internalsUsedOnlyBy("dev.layout.dataloop.kernel..", "dev.layout.dataloop..");
    }

    /**
     * The class-file writer ({@code dev.layout.bytecode}) is used only by the code generators: the
     * engine's kernels, AutoMap and AutoLink.
     */
    public static ArchRule classWritingUsedOnlyByTheGenerators() {
        return internalsUsedOnlyBy(
                "dev.layout.bytecode..",
                "dev.layout.bytecode..",
                "dev.layout.dataloop.kernel..",
                "dev.layout.automap..",
                "dev.layout.autolink..");
    }

    /** Every {@link Subcommand} is a class named XxxCommand in a cli package. */
    public static ArchRule commandsInCliPackages() {
        return classes()
                .that()
                .implement(Subcommand.class)
                .should()
                .resideInAPackage("..cli..")
                .andShould()
                .haveSimpleNameEndingWith("Command")
                .allowEmptyShould(true)
                .because("command-line classes live in cli packages, one XxxCommand implements Subcommand per command");
    }
}
