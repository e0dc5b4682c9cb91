package dev.layout.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * benchmarks' architecture, checked on its compiled classes with layout-core's {@code ModuleRules}
 * ({@code ArchitectureRulesTest} shows each failing on a deliberately wrong import): benchmarks sits
 * above every module and may use all of them, but not jobs, and not the engine's internals (it
 * measures the engine through its public types, as users run it); no package cycles, only the
 * allowed edges between its packages, the command an {@code XxxCommand implements Subcommand} in a
 * {@code cli} package. A new package needs its line in {@link #EDGES}.
 */
class BenchmarksArchitectureTest {
    static final JavaClasses MAIN = ModuleRules.mainClasses();

    /**
     * Package -> the packages of this module it may use; the modules below are free. The benchmarks
     * sit in the package of the code they measure ({@code dataloop}, {@code normalize}, {@code
     * transport}, {@code spark.grid}), so an edge to one of those names also admits the measured
     * module's package of that name (spark.grid uses topology's transport and layout-core's
     * normalize, transport layout-core's dataloop); {@code *.jmh_generated} is JMH's generated code.
     */
    static final Map<String, Set<String>> EDGES = Map.ofEntries(
            Map.entry("bench.memory", Set.of()),
            Map.entry("dataloop", Set.of("bench.memory")),
            Map.entry("dataloop.jmh_generated", Set.of("dataloop", "bench.memory")),
            Map.entry("normalize", Set.of()),
            Map.entry("normalize.jmh_generated", Set.of("normalize")),
            Map.entry("transport", Set.of("dataloop")),
            Map.entry("spark.grid", Set.of("normalize", "transport")),
            Map.entry("bench", Set.of("bench.memory", "dataloop")),
            Map.entry("bench.jmh_generated", Set.of("bench")),
            Map.entry("bench.sweep", Set.of("bench", "bench.memory", "dataloop")),
            Map.entry("bench.layouts", Set.of("bench", "bench.memory", "dataloop")),
            Map.entry("bench.io", Set.of("transport")),
            Map.entry(
                    "bench.cli",
                    Set.of("bench", "bench.sweep", "bench.layouts", "bench.io", "transport", "spark.grid")));

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
        ModuleRules.usesNoModuleAbove("jobs ships benchmarks, never the reverse", "dev.layout.jobs..")
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
