package dev.layout.automap;

/** How {@link RecordLayouts} places fields that have no explicit offset. */
public enum Alignment {
    /**
     * C-like natural alignment: each field at a multiple of its alignment (the largest primitive it
     * contains), the extent rounded up to the record's alignment, as a C compiler lays out the
     * equivalent struct.
     */
    NATURAL,
    /** No padding: each field right after the previous one, extent = end of the last field ({@code #pragma pack(1)}). */
    PACKED
}
