package dev.layout.notation;

/** A layout-notation text that does not follow the grammar: where (line, column), what was expected, what was found. */
public class LayoutSyntaxException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int line;
    private final int column;
    private final String expected;
    private final String found;

    public LayoutSyntaxException(int line, int column, String expected, String found) {
        super("line " + line + ", column " + column + ": expected " + expected + ", found " + found);
        this.line = line;
        this.column = column;
        this.expected = expected;
        this.found = found;
    }

    /** 1-based line of the offending token. */
    public int line() {
        return line;
    }

    /** 1-based column of the offending token. */
    public int column() {
        return column;
    }

    public String expected() {
        return expected;
    }

    public String found() {
        return found;
    }
}
