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
        Path file = InputFiles.readable("conform:", o.positional().get(0));
        int passed = 0;
        int total = 0;
        try (InputStream raw = Files.newInputStream(file);
                InputStream in = file.toString().endsWith(".gz") ? gunzip(file, raw) : raw;
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
                    if (total == 1) { // not one vector: say what the file is not, instead of failing every line
                        throw new IllegalArgumentException(
                                notVectors(file, lineNo, "not a JSON object (" + e.getMessage() + ")"));
                    }
                    out.println("line " + lineNo + ": not a JSON object (" + e.getMessage() + ")");
                    continue;
                }
                if (total == 1 && !v.containsKey("type")) {
                    throw new IllegalArgumentException(
                            notVectors(file, lineNo, "a JSON object without a \"type\" field"));
                }
                if (v.containsKey("why") && !v.containsKey("id")) {
                    try {
                        LayoutParser.parse((String) v.get("type"));
                        out.println("line " + lineNo + " invalid type accepted: " + v.get("type") + " (" + v.get("why")
                                + ")");
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

    private static InputStream gunzip(Path file, InputStream raw) throws IOException {
        try {
            return new GZIPInputStream(raw);
        } catch (java.util.zip.ZipException e) {
            throw new IllegalArgumentException("conform: " + file + " is not gzip-compressed (" + e.getMessage()
                    + "; expected: .jsonl.gz written by gzip, or a plain .jsonl)");
        }
    }

    private static String notVectors(Path file, int lineNo, String found) {
        return "conform: " + file + " is not a conformance-vector file (line " + lineNo + ": " + found
                + "; expected: JSON lines with a \"type\" field, as conformance/mpich-types.jsonl)";
    }
}
