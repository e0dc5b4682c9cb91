package dev.layout.datatype;

/** A description exceeded one of the {@link TypeLimits}; the message names the limit and its config key. */
public class LayoutLimitException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public LayoutLimitException(String message) {
        super(message);
    }
}
