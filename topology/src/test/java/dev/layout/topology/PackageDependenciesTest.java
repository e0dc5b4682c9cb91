package dev.layout.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The allowed edges between this module's packages (one direction only, no cycles), checked on
 * the sources' imports until the build has ArchUnit: naming and transport depend on nothing of
 * ours, topology on naming, comm on topology/naming/transport, collective on all of them.
 */
class PackageDependenciesTest {

  private static final Map<String, Set<String>> ALLOWED =
      Map.of(
          "naming", Set.of(),
          "transport", Set.of(),
          "topology", Set.of("naming"),
          "comm", Set.of("naming", "topology", "transport"),
          "collective", Set.of("naming", "topology", "transport", "comm"),
          "topology.cli", Set.of("naming"));

  /** layout-core's packages sit below this module: every package may use them. */
  private static final Set<String> CORE =
      Set.of("datatype", "notation", "memory", "dataloop", "normalize", "cli", "conformance");

  @Test
  void packagesDependOnlyAlongTheAllowedEdges() throws IOException {
    Path root = Path.of("src/main/java/dev/layout");
    Pattern imp = Pattern.compile("^import (?:static )?dev\\.layout\\.([a-z.]+)\\.[A-Z]", Pattern.MULTILINE);
    Set<String> violations = new TreeSet<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String pkg = root.relativize(f.getParent()).toString().replace('/', '.');
        Set<String> allowed = ALLOWED.get(pkg);
        assertThat(allowed).as("package %s has no declared edges", pkg).isNotNull();
        Matcher m = imp.matcher(Files.readString(f));
        while (m.find()) {
          String target = m.group(1);
          if (!target.equals(pkg) && !allowed.contains(target) && !CORE.contains(target)) {
            violations.add(f.getFileName() + " (" + pkg + ") -> " + target);
          }
        }
      }
    }
    assertThat(violations).isEmpty();
    assertThat(List.copyOf(ALLOWED.keySet())).isNotEmpty();
  }
}
