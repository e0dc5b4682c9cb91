package dev.layout.notation;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Distribution;
import dev.layout.datatype.LayoutLimitException;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.datatype.TypeLimits;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses the layout notation ({@code spec/notation.md}) into a {@link Datatype}.
 *
 * <pre>{@code
 * Datatype t = LayoutParser.parse("vector(4, 1, 4, float32)");
 * }</pre>
 *
 * Recursive descent bounded by {@link TypeLimits#MAX_DEPTH}, so hostile input cannot overflow the
 * stack. Grammar errors raise {@link LayoutSyntaxException} (line, column, expected, found); valid
 * grammar with invalid values raises the constructor's {@link IllegalArgumentException}.
 */
public final class LayoutParser {
    private final String text;
    private int pos;
    private int line = 1;
    private int lineStart;
    private int depth;

    private LayoutParser(String text) {
        this.text = text;
    }

    /** Parses one type; the whole text must be consumed (surrounding whitespace allowed). */
    public static Datatype parse(String text) {
        if (text == null) {
            throw new NullPointerException("parse: text is null");
        }
        LayoutParser p = new LayoutParser(text);
        Datatype t = p.type();
        p.skipWhitespace();
        if (p.pos < text.length()) {
            throw p.error("end of text");
        }
        return t;
    }

    /** The constructors of the grammar, as the error for an unknown name lists them. */
    private static final String TYPE_NAMES =
            "contig, vector, hvector, indexed, hindexed, indexed_block, hindexed_block, struct, subarray, darray, resized";

    private static final String PRIMITIVE_NAMES = java.util.Arrays.stream(Primitive.values())
            .map(Primitive::notationName)
            .collect(java.util.stream.Collectors.joining(", "));

    private Datatype type() {
        skipWhitespace();
        int startLine = line;
        int startCol = pos - lineStart + 1;
        String name = word();
        if (name.isEmpty()) {
            throw error("type name");
        }
        Primitive prim = Primitive.forNotationName(name);
        if (prim != null) {
            return prim;
        }
        if (++depth > TypeLimits.MAX_DEPTH) {
            throw new LayoutLimitException("parse: nesting depth " + depth + " at line " + startLine + ", column "
                    + startCol + " (expected: <= " + TypeLimits.MAX_DEPTH + ", config key layout.type.maxDepth)");
        }
        Datatype t;
        switch (name) {
            case "contig" -> {
                expect('(');
                long count = integer();
                comma();
                Datatype old = type();
                expect(')');
                t = Datatype.contiguous(count, old);
            }
            case "vector", "hvector" -> {
                expect('(');
                long count = integer();
                comma();
                long bl = integer();
                comma();
                long stride = integer();
                comma();
                Datatype old = type();
                expect(')');
                t = name.equals("vector")
                        ? Datatype.vector(count, bl, stride, old)
                        : Datatype.hvector(count, bl, stride, old);
            }
            case "indexed", "hindexed" -> {
                expect('(');
                long[] bl = list();
                comma();
                long[] d = list();
                comma();
                Datatype old = type();
                expect(')');
                t = name.equals("indexed") ? Datatype.indexed(bl, d, old) : Datatype.hindexed(bl, d, old);
            }
            case "indexed_block", "hindexed_block" -> {
                expect('(');
                long bl = integer();
                comma();
                long[] d = list();
                comma();
                Datatype old = type();
                expect(')');
                t = name.equals("indexed_block")
                        ? Datatype.indexedBlock(bl, d, old)
                        : Datatype.hindexedBlock(bl, d, old);
            }
            case "struct" -> {
                expect('(');
                long[] bl = list();
                comma();
                long[] d = list();
                comma();
                expect('[');
                List<Datatype> types = new ArrayList<>();
                types.add(type());
                while (peekIs(',')) {
                    expect(',');
                    types.add(type());
                }
                expect(']');
                expect(')');
                t = Datatype.struct(bl, d, types);
            }
            case "subarray" -> {
                expect('(');
                long[] sizes = list();
                comma();
                long[] subsizes = list();
                comma();
                long[] starts = list();
                comma();
                Order order = order();
                comma();
                Datatype old = type();
                expect(')');
                t = Datatype.subarray(sizes, subsizes, starts, order, old);
            }
            case "darray" -> {
                expect('(');
                long size = integer();
                comma();
                long rank = integer();
                comma();
                long[] gsizes = list();
                comma();
                Distribution[] distribs = distribs();
                comma();
                long[] dargs = dargs();
                comma();
                long[] psizes = list();
                comma();
                Order order = order();
                comma();
                Datatype old = type();
                expect(')');
                t = Datatype.darray(size, rank, gsizes, distribs, dargs, psizes, order, old);
            }
            case "resized" -> {
                expect('(');
                long lb = integer();
                comma();
                long extent = integer();
                comma();
                Datatype old = type();
                expect(')');
                t = Datatype.resized(lb, extent, old);
            }
            default ->
                throw new LayoutSyntaxException(
                        startLine,
                        startCol,
                        "a type name (" + TYPE_NAMES + ", or a primitive: " + PRIMITIVE_NAMES + ")",
                        "unknown type name '" + name + "'");
        }
        depth--;
        return t;
    }

    private Order order() {
        skipWhitespace();
        int col = pos - lineStart + 1;
        String w = word();
        return switch (w) {
            case "C" -> Order.C;
            case "F" -> Order.F;
            default ->
                throw new LayoutSyntaxException(
                        line, col, "order C or F", w.isEmpty() ? describeNext() : "bad order '" + w + "'");
        };
    }

    private Distribution[] distribs() {
        expect('[');
        List<Distribution> out = new ArrayList<>();
        do {
            skipWhitespace();
            int col = pos - lineStart + 1;
            String w = word();
            switch (w) {
                case "block" -> out.add(Distribution.BLOCK);
                case "cyclic" -> out.add(Distribution.CYCLIC);
                case "none" -> out.add(Distribution.NONE);
                default ->
                    throw new LayoutSyntaxException(
                            line,
                            col,
                            "distrib block, cyclic or none",
                            w.isEmpty() ? "bad distrib " + describeNext() : "bad distrib '" + w + "'");
            }
            checkLength(out.size());
        } while (acceptComma());
        expect(']');
        return out.toArray(new Distribution[0]);
    }

    private long[] dargs() {
        expect('[');
        LongList out = new LongList();
        do {
            skipWhitespace();
            if (pos < text.length() && Character.isLetter(text.charAt(pos))) {
                int col = pos - lineStart + 1;
                String w = word();
                if (!w.equals("default")) {
                    throw new LayoutSyntaxException(line, col, "darg (an int or default)", "'" + w + "'");
                }
                out.add(Datatype.DEFAULT_DARG);
            } else {
                out.add(integer());
            }
            checkLength(out.size);
        } while (acceptComma());
        expect(']');
        return out.toArray();
    }

    private long[] list() {
        expect('[');
        LongList out = new LongList();
        if (peekIs(']')) {
            expect(']');
            return out.toArray();
        }
        do {
            out.add(integer());
            checkLength(out.size);
        } while (acceptComma());
        expect(']');
        return out.toArray();
    }

    private void checkLength(int n) {
        if (n > TypeLimits.MAX_LIST_LENGTH) {
            throw new LayoutLimitException("parse: list length " + n + " at line " + line + " (expected: <= "
                    + TypeLimits.MAX_LIST_LENGTH + ", config key layout.type.maxListLength)");
        }
    }

    private long integer() {
        skipWhitespace();
        int start = pos;
        int col = pos - lineStart + 1;
        int p = pos;
        boolean negative = false;
        if (p < text.length() && text.charAt(p) == '-') {
            negative = true;
            p++;
        }
        int digitsStart = p;
        while (p < text.length() && text.charAt(p) >= '0' && text.charAt(p) <= '9') {
            p++;
        }
        if (p == digitsStart) {
            throw new LayoutSyntaxException(line, col, "int", describeNext());
        }
        long v = 0;
        for (int i = digitsStart; i < p; i++) {
            int digit = text.charAt(i) - '0';
            // Accumulate negatively so that Long.MIN_VALUE parses.
            if (v < (Long.MIN_VALUE + digit) / 10) {
                throw new LayoutSyntaxException(
                        line,
                        col,
                        "int in the 64-bit signed range",
                        "'" + text.substring(start, p) + "' (int out of 64-bit range)");
            }
            v = v * 10 - digit;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                throw new LayoutSyntaxException(
                        line,
                        col,
                        "int in the 64-bit signed range",
                        "'" + text.substring(start, p) + "' (int out of 64-bit range)");
            }
            v = -v;
        }
        pos = p;
        return v;
    }

    private String word() {
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private boolean peekIs(char c) {
        skipWhitespace();
        return pos < text.length() && text.charAt(pos) == c;
    }

    private boolean acceptComma() {
        if (peekIs(',')) {
            pos++;
            return true;
        }
        return false;
    }

    private void comma() {
        expect(',');
    }

    private void expect(char c) {
        skipWhitespace();
        if (pos >= text.length() || text.charAt(pos) != c) {
            throw error("'" + c + "'");
        }
        pos++;
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '\n') {
                line++;
                lineStart = pos + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private LayoutSyntaxException error(String expected) {
        skipWhitespace();
        return new LayoutSyntaxException(line, pos - lineStart + 1, expected, describeNext());
    }

    private String describeNext() {
        if (pos >= text.length()) {
            return "end of text";
        }
        int end = pos;
        while (end < text.length()
                && end - pos < 24
                && (Character.isLetterOrDigit(text.charAt(end))
                        || text.charAt(end) == '_'
                        || text.charAt(end) == '-')) {
            end++;
        }
        if (end == pos) {
            end = pos + 1;
        }
        return "'" + text.substring(pos, end) + "'";
    }

    /** A growable long array, so lists of millions of displacements do not box. */
    private static final class LongList {
        long[] a = new long[8];
        int size;

        void add(long v) {
            if (size == a.length) {
                a = java.util.Arrays.copyOf(a, a.length * 2);
            }
            a[size++] = v;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(a, size);
        }
    }
}
