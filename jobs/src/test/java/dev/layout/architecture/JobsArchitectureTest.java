package dev.layout.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * jobs's architecture, checked on its compiled classes with layout-core's
 * {@code ModuleRules} ({@code ArchitectureRulesTest} shows each failing on a deliberately wrong import): no
 * package cycles, only the allowed edges between its packages, nothing of benchmarks (the bench job finds the bench command through the Subcommand service), the
 * engine's internals used only by the engine, every command an {@code XxxCommand implements
 * Subcommand} in a {@code cli} package. A new package needs its line in {@link #EDGES}.
 */
class JobsArchitectureTest {
    static final JavaClasses MAIN = ModuleRules.mainClasses();

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
                        "jobs sits below benchmarks (the bench job finds the bench command through the Subcommand service)",
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
