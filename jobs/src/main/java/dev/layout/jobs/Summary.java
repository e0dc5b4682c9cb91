package dev.layout.jobs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A job's {@code summary.json}: an ordered map of numbers, strings and lists, written by the job through its {@code OutputDirectory}. */
public final class Summary {
    private final Map<String, Object> values = new LinkedHashMap<>();

    public Summary put(String key, Object value) {
        values.put(key, value);
        return this;
    }

    public Map<String, Object> values() {
        return values;
    }

    public String toJson() {
        StringBuilder sb = new StringBuilder("{\n");
        int i = 0;
        for (Map.Entry<String, Object> e : values.entrySet()) {
            sb.append("  \"").append(e.getKey()).append("\": ");
            value(sb, e.getValue());
            sb.append(++i < values.size() ? ",\n" : "\n");
        }
        return sb.append("}\n").toString();
    }

    private static void value(StringBuilder sb, Object v) {
        if (v instanceof Double d) {
            sb.append(
                    Double.isFinite(d) ? String.format(Locale.ROOT, "%.17g", d).replaceAll("0+$", "0") : "null");
        } else if (v instanceof Number n) {
            sb.append(n);
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int k = 0; k < l.size(); k++) {
                if (k > 0) {
                    sb.append(',');
                }
                value(sb, l.get(k));
            }
            sb.append(']');
        } else if (v instanceof long[] a) {
            sb.append('[');
            for (int k = 0; k < a.length; k++) {
                sb.append(k > 0 ? "," : "").append(a[k]);
            }
            sb.append(']');
        } else {
            sb.append('"')
                    .append(String.valueOf(v).replace("\\", "\\\\").replace("\"", "\\\""))
                    .append('"');
        }
    }

    /** The JSON text as UTF-8 bytes. */
    public byte[] toBytes() {
        return toJson().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
