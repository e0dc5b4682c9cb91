package dev.layout.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * spark-connector's architecture, checked on its compiled classes with layout-core's
 * {@code ModuleRules} ({@code ArchitectureRulesTest} shows each failing on a deliberately wrong import): no
 * package cycles, only the allowed edges between its packages, nothing of jobs and benchmarks, the
 * engine's internals used only by the engine, every command an {@code XxxCommand implements
 * Subcommand} in a {@code cli} package. A new package needs its line in {@link #EDGES}.
 */
class SparkConnectorArchitectureTest {
    static final JavaClasses MAIN = ModuleRules.mainClasses();

    /** Package -> the packages of this module it may use; the modules below (layout-core, arrow-io and topology) are free. */
    static final Map<String, Set<String>> EDGES = Map.ofEntries(
            Map.entry("spark.shim", Set.of()),
            Map.entry("spark.conf", Set.of()),
            Map.entry("spark.comm", Set.of("spark.shim")),
            Map.entry("spark.grid", Set.of("spark.comm", "spark.shim", "spark.io")),
            Map.entry("spark.graph", Set.of()),
            Map.entry("spark.io", Set.of()),
            Map.entry("spark.source", Set.of("spark.conf", "spark.io")));

    @Test
    void noPackageCycles() {
        ModuleRules.noCycles().check(MAIN);
    }

    @Test
    void packagesUseOnlyTheAllowedEdges() {
        ModuleRules.checkEdges(MAIN, EDGES);
    }

    @Test
    void everyPackageHasDeclaredEdges() {
        ModuleRules.checkEveryPackageDeclared(MAIN, EDGES);
    }

    @Test
    void dependsOnNoModuleAbove() {
        ModuleRules.usesNoModuleAbove(
                        "spark-connector sits below jobs and benchmarks", "dev.layout.jobs..", "dev.layout.bench..")
                .check(MAIN);
    }

    @Test
    void engineInternalsAreUsedOnlyByTheEngine() {
        ModuleRules.engineInternalsUsedOnlyByTheEngine().check(MAIN);
    }

    @Test
    void commandsAreXxxCommandsInCliPackages() {
        ModuleRules.commandsInCliPackages().check(MAIN);
    }
}
