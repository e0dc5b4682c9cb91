package dev.layout.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The architecture rules fail on deliberately wrong code: the classes under {@code fixture} break
 * each rule once (an import of another package's internals, a package cycle, an edge not allowed,
 * commands outside cli packages or misnamed), and each rule names the offending class.
 */
class ArchitectureRulesTest {
    static final JavaClasses FIXTURE = new ClassFileImporter().importPackages("dev.layout.architecture.fixture");

    @Test
    void anImportOfAnotherPackagesInternalsFails() {
        EvaluationResult r = ModuleRules.internalsUsedOnlyBy(
                        "dev.layout.architecture.fixture.owner.kernel..", "dev.layout.architecture.fixture.owner..")
                .evaluate(FIXTURE);
        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().getDetails())
                .anySatisfy(d -> assertThat(d).contains("fixture.outside.Intruder"));
        assertThat(r.getFailureReport().getDetails())
                .noneSatisfy(d -> assertThat(d).contains("fixture.owner.Engine"));
    }

    @Test
    void aPackageCycleFails() {
        EvaluationResult r = ModuleRules.noCycles().evaluate(FIXTURE);
        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().toString())
                .contains("fixture.cycle.a.A")
                .contains("fixture.cycle.b.B");
    }

    @Test
    void anEdgeNotAllowedFails() {
        Map<String, Set<String>> edges = Map.of("cycle.a", Set.of(), "cycle.b", Set.of("cycle.a"));
        var rules = ModuleRules.edges("dev.layout.architecture.fixture", edges);
        assertThat(rules).anySatisfy(rule -> {
            EvaluationResult r = rule.evaluate(FIXTURE);
            assertThat(r.hasViolation()).isTrue();
            assertThat(r.getFailureReport().toString())
                    .contains("fixture.cycle.a.A")
                    .contains("fixture.cycle.b.B");
        });
    }

    @Test
    void commandsOutsideCliPackagesOrMisnamedFail() {
        EvaluationResult r = ModuleRules.commandsInCliPackages().evaluate(FIXTURE);
        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().getDetails())
                .anySatisfy(d -> assertThat(d).contains("fixture.misplaced.StrayCommand"))
                .anySatisfy(d -> assertThat(d).contains("fixture.cli.Helper"));
    }
}
