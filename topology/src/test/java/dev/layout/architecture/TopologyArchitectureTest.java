package dev.layout.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * topology's architecture, checked on its compiled classes with layout-core's
 * {@code ModuleRules} ({@code ArchitectureRulesTest} shows each failing on a deliberately wrong import): no
 * package cycles, only the allowed edges between its packages, nothing of arrow-io (a sibling), spark-connector, jobs and benchmarks, the
 * engine's internals used only by the engine, every command an {@code XxxCommand implements
 * Subcommand} in a {@code cli} package. A new package needs its line in {@link #EDGES}.
 */
class TopologyArchitectureTest {
    static final JavaClasses MAIN = ModuleRules.mainClasses();

    /** Package -> the packages of this module it may use; the modules below (layout-core) are free. */
    static final Map<String, Set<String>> EDGES = Map.ofEntries(
            Map.entry("naming", Set.of()),
            Map.entry("transport", Set.of()),
            Map.entry("topology", Set.of("naming")),
            Map.entry("comm", Set.of("naming", "topology", "transport")),
            Map.entry("collective", Set.of("naming", "topology", "transport", "comm")),
            Map.entry("topology.cli", Set.of("naming")));

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
                        "topology sits below arrow-io (a sibling), spark-connector, jobs and benchmarks",
                        "dev.layout.arrow..",
                        "dev.layout.autolink..",
                        "dev.layout.fileview..",
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
