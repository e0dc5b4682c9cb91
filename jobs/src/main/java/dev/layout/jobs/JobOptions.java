package dev.layout.jobs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The options of a job: {@code --name value} or {@code --name=value}, validated against the job's
 * declared options, with {@code --conf-file PATH} (a properties file of the same names) as
 * defaults. Precedence: command line, then {@code --conf-file}, then the job's defaults.
 */
public final class JobOptions {
    /** One declared option: its name, default (null if required) and help line. */
    public record Option(String name, String defaultValue, String help) {}

    private final String job;
    private final Map<String, Option> declared = new LinkedHashMap<>();
    private final Map<String, String> values = new LinkedHashMap<>();
    private boolean help;

    public JobOptions(String job, List<Option> options) {
        this.job = job;
        for (Option o : options) {
            declared.put(o.name(), o);
        }
        declared.put("conf-file", new Option("conf-file", "", "a properties file with defaults for these options"));
    }

    /** Parses {@code args}; unknown options and missing values are errors naming the option. */
    public JobOptions parse(String[] args) throws IOException {
        Map<String, String> cli = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                help = true;
                continue;
            }
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException(job + ": argument '" + a + "' (expected: --option value)");
            }
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(job + ": option --" + name + " needs a value");
                }
                value = args[++i];
            }
            if (!declared.containsKey(name)) {
                throw new IllegalArgumentException(job + ": unknown option --" + name + " (expected one of: --"
                        + String.join(", --", declared.keySet()) + ")");
            }
            cli.put(name, value);
        }
        String confFile = cli.get("conf-file");
        if (confFile != null && !confFile.isEmpty()) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(Path.of(confFile))) {
                p.load(in);
            }
            for (String k : p.stringPropertyNames()) {
                if (!declared.containsKey(k)) {
                    throw new IllegalArgumentException(job + ": unknown key " + k + " in " + confFile);
                }
                values.put(k, p.getProperty(k).trim());
            }
        }
        values.putAll(cli);
        return this;
    }

    public boolean helpRequested() {
        return help;
    }

    /** The {@code --help} text: every option with its default. */
    public String usage() {
        StringBuilder sb = new StringBuilder("usage: layout-submit " + job + " [options]\n\noptions:\n");
        for (Option o : declared.values()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  --%-12s %s%s%n",
                    o.name(),
                    o.help(),
                    o.defaultValue() == null
                            ? " (required)"
                            : o.defaultValue().isEmpty() ? "" : " (default: " + o.defaultValue() + ")"));
        }
        return sb.toString();
    }

    public String get(String name) {
        Option o = declared.get(name);
        if (o == null) {
            throw new IllegalStateException(job + ": option --" + name + " was not declared");
        }
        String v = values.getOrDefault(name, o.defaultValue());
        if (v == null) {
            throw new IllegalArgumentException(job + ": missing option --" + name);
        }
        return v;
    }

    public long getLong(String name, long min, long max) {
        String v = get(name);
        long x;
        try {
            x = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(job + ": --" + name + " " + v + " (expected: an integer)");
        }
        if (x < min || x > max) {
            throw new IllegalArgumentException(job + ": --" + name + " " + x + " (expected: " + min + ".." + max + ")");
        }
        return x;
    }

    public boolean getBoolean(String name) {
        String v = get(name).trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException(job + ": --" + name + " " + v + " (expected: true or false)");
        };
    }

    /** A choice among {@code allowed}. */
    public String getChoice(String name, String... allowed) {
        String v = get(name).trim();
        for (String a : allowed) {
            if (a.equals(v)) {
                return v;
            }
        }
        throw new IllegalArgumentException(
                job + ": --" + name + " " + v + " (expected one of: " + String.join(", ", allowed) + ")");
    }

    /** Sizes such as {@code 512x512} or {@code 128x128x128} (first number slowest). */
    public int[] getDims(String name, int minDims, int maxDims) {
        String v = get(name).trim();
        String[] parts = v.split("x");
        if (parts.length < minDims || parts.length > maxDims) {
            throw new IllegalArgumentException(job + ": --" + name + " " + v + " (expected: " + minDims + " to "
                    + maxDims + " sizes like 512x512)");
        }
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        job + ": --" + name + " " + v + " (expected: positive integers joined by x)");
            }
            if (out[i] < 1) {
                throw new IllegalArgumentException(job + ": --" + name + " " + v + " (expected: every size >= 1)");
            }
        }
        return out;
    }

    public List<String> names() {
        return new ArrayList<>(declared.keySet());
    }
}
