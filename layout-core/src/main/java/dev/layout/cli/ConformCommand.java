package dev.layout.cli;

import dev.layout.conformance.ConformanceChecker;
import dev.layout.conformance.Json;
import dev.layout.notation.LayoutParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * {@code layout conform FILE.jsonl[.gz]}: checks a file of conformance vectors (the format of
 * {@code conformance/mpich-types.jsonl}; lines with a {@code why} field are invalid types that must
 * be rejected). Prints one line per failing vector and field, then {@code conformance: P/T passed};
 * exits 0 only when all pass.
 */
public final class ConformCommand implements Subcommand {
  @Override
  public String name() {
    return "conform";
  }

  @Override
  public String summary() {
    return "check a file of MPICH conformance vectors (.jsonl or .jsonl.gz)";
  }

  @Override
  public int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    Options o = Options.parse("conform", args, Set.of(), Set.of("help"));
    if (o.has("help") || o.positional().size() != 1) {
      out.println("usage: layout conform FILE.jsonl[.gz]");
      return o.has("help") ? 0 : 2;
    }
    Path file = Path.of(o.positional().get(0));
    if (!Files.isRegularFile(file)) {
      throw new IOException("conform: no such file " + file);
    }
    int passed = 0;
    int total = 0;
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      int lineNo = 0;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        total++;
        Map<String, Object> v;
        try {
          v = Json.object(line);
        } catch (RuntimeException e) {
          out.println("line " + lineNo + ": not a JSON object (" + e.getMessage() + ")");
          continue;
        }
        if (v.containsKey("why") && !v.containsKey("id")) {
          try {
            LayoutParser.parse((String) v.get("type"));
            out.println("line " + lineNo + " invalid type accepted: " + v.get("type") + " (" + v.get("why") + ")");
          } catch (IllegalArgumentException expected) {
            passed++;
          }
          continue;
        }
        List<ConformanceChecker.Failure> failures = ConformanceChecker.check(v);
        if (failures.isEmpty()) {
          passed++;
        } else {
          failures.forEach(f -> out.println(f));
        }
      }
    }
    out.println("conformance: " + passed + "/" + total + " passed");
    return passed == total && total > 0 ? 0 : 1;
  }
}
