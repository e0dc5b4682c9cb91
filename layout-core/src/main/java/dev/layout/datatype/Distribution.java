package dev.layout.datatype;

/** How darray distributes one dimension over the process grid. */
public enum Distribution {
    BLOCK,
    CYCLIC,
    NONE;

    public String notationName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public long mpiCode() {
        return switch (this) {
            case BLOCK -> 121;
            case CYCLIC -> 122;
            case NONE -> 123;
        };
    }
}
