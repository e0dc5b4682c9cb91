package dev.layout.automap;

/**
 * A class or field that AutoMap cannot turn into a fixed-size value layout: a reference that is not
 * a mapped record, an array without a length, a recursive value layout, conflicting offsets. The
 * message names the field path, e.g. {@code automap: field Outer.inner.name type java.lang.String
 * (expected: primitive, fixed-length array, record or class with @LayoutField fields)}.
 */
public final class UnmappableTypeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnmappableTypeException(String message) {
        super(message);
    }
}
