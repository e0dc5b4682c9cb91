package dev.layout.autolink;

/**
 * A packet stream that is malformed, truncated, hostile or from another registry. Thrown before any
 * graph is returned: expansion never hands back a half-linked graph.
 */
public final class GraphFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public GraphFormatException(String message) {
        super(message);
    }

    public GraphFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
