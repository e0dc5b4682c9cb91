package dev.layout.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/** Test helpers over {@link dev.layout.conformance.Json}: JSON Lines resources and number arrays. */
public final class Json {
    private Json() {}

    public static Map<String, Object> object(String text) {
        return dev.layout.conformance.Json.object(text);
    }

    /** The objects of a JSON Lines classpath resource, gzipped if its name ends in {@code .gz}. */
    public static List<Map<String, Object>> linesOfResource(String resource) {
        InputStream in = Json.class.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException("test resource " + resource + " not found");
        }
        try (InputStream raw = resource.endsWith(".gz") ? new GZIPInputStream(in) : in;
                BufferedReader r = new BufferedReader(new InputStreamReader(raw, StandardCharsets.UTF_8))) {
            List<Map<String, Object>> out = new ArrayList<>();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    out.add(object(line));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(resource, e);
        }
    }

    /** A JSON array of integers as {@code long[]}. */
    public static long[] longs(Object array) {
        List<?> l = (List<?>) array;
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) l.get(i)).longValue();
        }
        return out;
    }
}
