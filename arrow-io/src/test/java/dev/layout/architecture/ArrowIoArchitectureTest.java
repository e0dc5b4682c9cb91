package dev.layout.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * arrow-io's architecture, checked on its compiled classes with layout-core's
 * {@code ModuleRules} ({@code ArchitectureRulesTest} shows each failing on a deliberately wrong import): no
 * package cycles, only the allowed edges between its packages, nothing of topology, spark-connector, jobs and benchmarks, the
 * engine's internals used only by the engine, every command an {@code XxxCommand implements
 * Subcommand} in a {@code cli} package. A new package needs its line in {@link #EDGES}.
 */
class ArrowIoArchitectureTest {
    static final JavaClasses MAIN = ModuleRules.mainClasses();

    /** Package -> the packages of this module it may use; the modules below (layout-core) are free. */
    static final Map<String, Set<String>> EDGES = Map.ofEntries(
            Map.entry("arrow", Set.of()),
            Map.entry("arrow.grid", Set.of("arrow", "fileview")),
            Map.entry("autolink", Set.of()),
            Map.entry("fileview", Set.of("arrow")),
            Map.entry("fileview.cli", Set.of("fileview")));

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
                        "arrow-io sits below topology, spark-connector, jobs and benchmarks",
                        "dev.layout.transport..",
                        "dev.layout.comm..",
                        "dev.layout.collective..",
                        "dev.layout.naming..",
                        "dev.layout.topology..",
                        "dev.layout.spark..",
                        "dev.layout.jobs..",
                        "dev.layout.bench..")
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
