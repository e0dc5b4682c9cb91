package dev.layout.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A minimal JSON reader for test vectors (layout-core has no JSON dependency). Objects become
 * {@code LinkedHashMap<String,Object>}, arrays {@code List<Object>}, integers {@code Long} (or
 * {@code java.math.BigInteger} beyond 64 bits), other numbers {@code Double}, plus {@code String},
 * {@code Boolean} and {@code null}.
 */
public final class Json {
  private final String s;
  private int pos;

  private Json(String s) {
    this.s = s;
  }

  /** Parses one JSON value; trailing whitespace only. */
  public static Object parse(String text) {
    Json j = new Json(text);
    Object v = j.value();
    j.ws();
    if (j.pos != text.length()) {
      throw j.error("end of input");
    }
    return v;
  }

  /** Parses one JSON object. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> object(String text) {
    return (Map<String, Object>) parse(text);
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
      String line;
      while ((line = r.readLine()) != null) {
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

  private Object value() {
    ws();
    if (pos >= s.length()) {
      throw error("a value");
    }
    char c = s.charAt(pos);
    switch (c) {
      case '{':
        return obj();
      case '[':
        return arr();
      case '"':
        return str();
      case 't':
        lit("true");
        return Boolean.TRUE;
      case 'f':
        lit("false");
        return Boolean.FALSE;
      case 'n':
        lit("null");
        return null;
      default:
        return num();
    }
  }

  private Map<String, Object> obj() {
    Map<String, Object> m = new LinkedHashMap<>();
    pos++;
    ws();
    if (peek() == '}') {
      pos++;
      return m;
    }
    while (true) {
      ws();
      if (peek() != '"') {
        throw error("a string key");
      }
      String k = str();
      ws();
      expect(':');
      m.put(k, value());
      ws();
      char c = peek();
      pos++;
      if (c == '}') {
        return m;
      }
      if (c != ',') {
        pos--;
        throw error("',' or '}'");
      }
    }
  }

  private List<Object> arr() {
    List<Object> l = new ArrayList<>();
    pos++;
    ws();
    if (peek() == ']') {
      pos++;
      return l;
    }
    while (true) {
      l.add(value());
      ws();
      char c = peek();
      pos++;
      if (c == ']') {
        return l;
      }
      if (c != ',') {
        pos--;
        throw error("',' or ']'");
      }
    }
  }

  private String str() {
    StringBuilder sb = new StringBuilder();
    pos++;
    while (true) {
      if (pos >= s.length()) {
        throw error("closing quote");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = s.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw error("an escape");
      }
    }
  }

  private Object num() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    boolean integral = true;
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c >= '0' && c <= '9') {
        pos++;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integral = false;
        pos++;
      } else {
        break;
      }
    }
    String t = s.substring(start, pos);
    if (t.isEmpty() || t.equals("-")) {
      throw error("a value");
    }
    if (integral) {
      try {
        return Long.parseLong(t);
      } catch (NumberFormatException e) {
        return new java.math.BigInteger(t);
      }
    }
    return Double.parseDouble(t);
  }

  private void lit(String word) {
    if (!s.startsWith(word, pos)) {
      throw error("'" + word + "'");
    }
    pos += word.length();
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("'" + c + "'");
    }
    pos++;
  }

  private char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  private void ws() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String expected) {
    return new IllegalArgumentException("json: column " + (pos + 1) + ": expected " + expected);
  }
}
