package dev.layout.conformance;

import dev.layout.dataloop.Packing;
import dev.layout.dataloop.Piece;
import dev.layout.datatype.Datatype;
import dev.layout.memory.Memory;
import dev.layout.notation.LayoutParser;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Checks one vector of {@code conformance/mpich-types.jsonl} (format in that folder's README)
 * against the engine: bounds, pack, unpack, external32 and the flattened layout, following the MPI
 * 4.1 reading where the vector says MPICH departs from it ({@code mpi_std_differs}).
 */
public final class ConformanceChecker {
    private ConformanceChecker() {}

    /** One failing field of one vector. */
    public record Failure(String id, String field, String expected, String actual) {
        @Override
        public String toString() {
            return id + " " + field + ": expected " + expected + ", got " + actual;
        }
    }

    /** Checks a vector given as one JSON line; returns its failures (empty when it passes). */
    public static List<Failure> check(String jsonLine) {
        return check(Json.object(jsonLine));
    }

    public static List<Failure> check(Map<String, Object> v) {
        String id = String.valueOf(v.get("id"));
        List<Failure> out = new ArrayList<>();
        Datatype t;
        try {
            t = LayoutParser.parse((String) v.get("type"));
        } catch (RuntimeException e) {
            out.add(new Failure(id, "type", "a valid type", e.getMessage()));
            return out;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> std = (Map<String, Object>) v.get("mpi_std_differs");
        boolean typemap = std != null && std.containsKey("typemap");
        long count = num(v, "count");
        bound(out, id, "size", expected(v, std, "size"), t.byteSize());
        bound(out, id, "lb", expected(v, std, "lb"), t.lb());
        bound(out, id, "extent", expected(v, std, "extent"), t.extent());
        bound(out, id, "true_lb", expected(v, std, "true_lb"), t.trueLb());
        bound(out, id, "true_extent", expected(v, std, "true_extent"), t.trueExtent());

        String p = typemap ? "mpi_std_" : "";
        long bufferBytes = typemap && v.containsKey("mpi_std_buffer_bytes")
                ? num(v, "mpi_std_buffer_bytes")
                : num(v, "buffer_bytes");
        long origin =
                typemap && v.containsKey("mpi_std_base_offset") ? num(v, "mpi_std_base_offset") : num(v, "base_offset");
        byte[] src = new byte[Math.toIntExact(bufferBytes)];
        for (int k = 0; k < src.length; k++) {
            src[k] = (byte) ((k * 31 + 7) & 0xFF);
        }
        byte[] packed;
        try {
            packed = Packing.pack(t, count, src, origin);
            compareBytes(out, id, p + "packed", v, packed);
        } catch (RuntimeException e) {
            out.add(new Failure(id, p + "packed", "packed bytes", e.toString()));
            return out;
        }
        boolean packOnly = Boolean.TRUE.equals(v.get(p + "pack_only"));
        if (!packOnly) {
            try {
                byte[] dst = new byte[src.length];
                Packing.unpack(t, count, Memory.ofArray(packed), 0, Memory.ofArray(dst), origin);
                compareBytes(out, id, p + "unpacked", v, dst);
            } catch (RuntimeException e) {
                out.add(new Failure(id, p + "unpacked", "unpacked bytes", e.toString()));
            }
        }
        if (v.containsKey(p + "external32_hex") || v.containsKey(p + "external32_sha256")) {
            try {
                byte[] ext = Packing.packExternal32(t, count, src, origin);
                compareBytes(out, id, p + "external32", v, ext);
                byte[] back = new byte[src.length];
                if (!packOnly) {
                    Packing.unpackExternal32(t, count, Memory.ofArray(ext), 0, Memory.ofArray(back), origin);
                    compareBytes(out, id, p + "unpacked(external32)", v, back, p + "unpacked");
                }
            } catch (RuntimeException e) {
                out.add(new Failure(id, p + "external32", "external32 bytes", e.toString()));
            }
        }
        if (v.containsKey(p + "iov_segments")) {
            try {
                List<Piece> pieces = Packing.flatten(t, 1);
                bound(out, id, p + "iov_segments", num(v, p + "iov_segments"), pieces.size());
                Object iov = v.get(p + "iov");
                if (iov != null) {
                    String expect = iovString(iov);
                    StringBuilder got = new StringBuilder("[");
                    for (int i = 0; i < pieces.size(); i++) {
                        got.append(i > 0 ? "," : "")
                                .append('[')
                                .append(pieces.get(i).offset())
                                .append(',')
                                .append(pieces.get(i).length())
                                .append(']');
                    }
                    got.append(']');
                    if (!expect.equals(got.toString())) {
                        out.add(new Failure(id, p + "iov", expect, got.toString()));
                    }
                }
            } catch (RuntimeException e) {
                out.add(new Failure(id, p + "iov", "a flattened layout", e.toString()));
            }
        }
        return out;
    }

    private static String iovString(Object iov) {
        StringBuilder sb = new StringBuilder("[");
        List<?> l = (List<?>) iov;
        for (int i = 0; i < l.size(); i++) {
            List<?> pair = (List<?>) l.get(i);
            sb.append(i > 0 ? "," : "")
                    .append('[')
                    .append(pair.get(0))
                    .append(',')
                    .append(pair.get(1))
                    .append(']');
        }
        return sb.append(']').toString();
    }

    private static long expected(Map<String, Object> v, Map<String, Object> std, String field) {
        if (std != null && std.containsKey(field)) {
            return ((Number) std.get(field)).longValue();
        }
        return num(v, field);
    }

    private static long num(Map<String, Object> v, String field) {
        Object o = v.get(field);
        if (!(o instanceof Number n)) {
            throw new IllegalArgumentException("conform: field " + field + " " + o + " (expected: a number)");
        }
        return n.longValue();
    }

    private static void bound(List<Failure> out, String id, String field, long expected, long actual) {
        if (expected != actual) {
            out.add(new Failure(id, field, Long.toString(expected), Long.toString(actual)));
        }
    }

    private static void compareBytes(List<Failure> out, String id, String field, Map<String, Object> v, byte[] actual) {
        compareBytes(out, id, field, v, actual, field);
    }

    private static void compareBytes(
            List<Failure> out, String id, String label, Map<String, Object> v, byte[] actual, String field) {
        Object hex = v.get(field + "_hex");
        Object sha = v.get(field + "_sha256");
        if (hex != null) {
            String got = HexFormat.of().formatHex(actual);
            if (!hex.equals(got)) {
                out.add(new Failure(id, label, abbreviate((String) hex), abbreviate(got)));
            }
        } else if (sha != null) {
            String got = sha256(actual);
            if (!sha.equals(got)) {
                out.add(new Failure(id, label, "sha256 " + sha, "sha256 " + got + " (" + actual.length + " bytes)"));
            }
        } else {
            out.add(new Failure(id, label, "a _hex or _sha256 field in the vector", "none"));
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
