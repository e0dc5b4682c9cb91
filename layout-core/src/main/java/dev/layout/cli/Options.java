package dev.layout.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small {@code --name value} / {@code --name=value} / {@code --flag} parser for subcommands.
 * Unknown options are errors naming the option and the known ones.
 */
public final class Options {
    private final String command;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<String> positional = new ArrayList<>();

    private Options(String command) {
        this.command = command;
    }

    /**
     * Parses {@code args}; {@code withValue} are options taking a value, {@code flags} options without.
     */
    public static Options parse(String command, String[] args, Set<String> withValue, Set<String> flags) {
        Options o = new Options(command);
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--") && a.length() > 2) {
                String name = a.substring(2);
                String value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                if (flags.contains(name) && value == null) {
                    o.values.put(name, "true");
                } else if (withValue.contains(name)) {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException(command + ": option --" + name + " needs a value");
                        }
                        value = args[++i];
                    }
                    o.values.put(name, value);
                } else {
                    List<String> known = new ArrayList<>();
                    withValue.forEach(n -> known.add("--" + n));
                    flags.forEach(n -> known.add("--" + n));
                    throw new IllegalArgumentException(command + ": unknown option --" + name + " (expected one of: "
                            + String.join(", ", known) + ")");
                }
            } else {
                o.positional.add(a);
            }
        }
        return o;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public String get(String name, String def) {
        return values.getOrDefault(name, def);
    }

    public String require(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException(command + ": missing option --" + name);
        }
        return v;
    }

    public long getLong(String name, long def, long min) {
        String v = values.get(name);
        if (v == null) {
            return def;
        }
        long x;
        try {
            x = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(command + ": --" + name + " " + v + " (expected: an integer)");
        }
        if (x < min) {
            throw new IllegalArgumentException(command + ": --" + name + " " + x + " (expected: >= " + min + ")");
        }
        return x;
    }

    public List<String> positional() {
        return positional;
    }
}
