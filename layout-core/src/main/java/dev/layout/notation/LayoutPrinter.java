package dev.layout.notation;

import dev.layout.datatype.Datatype;

/** Prints a datatype in the canonical layout notation; {@code LayoutParser.parse(print(t)).equals(t)}. */
public final class LayoutPrinter {
    private LayoutPrinter() {}

    public static String print(Datatype type) {
        if (type == null) {
            throw new NullPointerException("print: type is null");
        }
        return type.toString();
    }
}
