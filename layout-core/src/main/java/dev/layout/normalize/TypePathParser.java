package dev.layout.normalize;

import java.util.ArrayList;
import java.util.List;

/**
 * Iterative parser of the paper's path notation: the node prefixes are read top-down into a list,
 * then the path is built bottom-up from the leaf, so nesting depth never touches the Java stack.
 */
final class TypePathParser {

    private final String s;
    private int pos;

    private TypePathParser(String s) {
        this.s = s;
    }

    static TypePath parse(String text) {
        return new TypePathParser(text).path();
    }

    private record Prefix(boolean vec, long count, long stride, long[] indices) {}

    private TypePath path() {
        List<Prefix> prefixes = new ArrayList<>();
        TypePath leaf = null;
        while (true) {
            skipWs();
            int start = pos;
            String name = name();
            switch (name) {
                case "con" -> {
                    expect('(');
                    long c = count("con");
                    expect(')');
                    leaf = TypePath.con(c);
                }
                case "vec" -> {
                    expect('(');
                    long c = count("vec");
                    expect(',');
                    long d = integer();
                    expect(',');
                    prefixes.add(new Prefix(true, c, d, null));
                }
                case "idx" -> {
                    expect('(');
                    long c = count("idx");
                    expect(',');
                    expect('<');
                    List<Long> ix = new ArrayList<>();
                    ix.add(integer());
                    while (peek() == ',') {
                        pos++;
                        ix.add(integer());
                    }
                    expect('>');
                    if (ix.size() != c) {
                        throw error(
                                start, "idx with count " + c + " to list " + c + " indices", ix.size() + " indices");
                    }
                    expect(',');
                    long[] a = new long[ix.size()];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = ix.get(i);
                    }
                    prefixes.add(new Prefix(false, c, 0, a));
                }
                default -> throw error(start, "con, vec or idx", name.isEmpty() ? found() : "'" + name + "'");
            }
            if (name.equals("con")) {
                break;
            }
            if (prefixes.size() + 1 > TypePath.MAX_DEPTH) {
                throw new IllegalArgumentException(
                        "typepath: depth " + (prefixes.size() + 1) + " (expected: <= " + TypePath.MAX_DEPTH + ")");
            }
        }
        for (int i = 0; i < prefixes.size(); i++) {
            expect(')');
        }
        skipWs();
        if (pos != s.length()) {
            throw error(pos, "end of input", found());
        }
        TypePath p = leaf;
        for (int i = prefixes.size() - 1; i >= 0; i--) {
            Prefix f = prefixes.get(i);
            p = f.vec() ? new TypePath.Vec(f.count(), f.stride(), p) : new TypePath.Idx(f.indices(), p);
        }
        return p;
    }

    private String name() {
        int start = pos;
        while (pos < s.length() && Character.isLetter(s.charAt(pos))) {
            pos++;
        }
        return s.substring(start, pos);
    }

    private long count(String op) {
        int start = pos;
        long c = integer();
        if (c < 1) {
            throw new IllegalArgumentException(
                    "typepath: " + op + " count " + c + " at column " + (start + 1) + " (expected: >= 1)");
        }
        return c;
    }

    private long integer() {
        skipWs();
        int start = pos;
        if (pos < s.length() && s.charAt(pos) == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == digits) {
            pos = start;
            throw error(start, "an integer", found());
        }
        try {
            return Long.parseLong(s.substring(start, pos));
        } catch (NumberFormatException e) {
            throw error(start, "a 64-bit integer", "'" + s.substring(start, pos) + "'");
        }
    }

    private char peek() {
        skipWs();
        return pos < s.length() ? s.charAt(pos) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error(pos, "'" + c + "'", found());
        }
        pos++;
    }

    private void skipWs() {
        while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
            pos++;
        }
    }

    private String found() {
        return pos < s.length() ? "'" + s.charAt(pos) + "'" : "end of input";
    }

    private IllegalArgumentException error(int at, String expected, String found) {
        return new IllegalArgumentException(
                "typepath: column " + (at + 1) + ": expected " + expected + ", found " + found);
    }
}
