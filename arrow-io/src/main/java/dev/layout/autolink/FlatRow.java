package dev.layout.autolink;

import static dev.layout.autolink.FieldOffsets.U;

/**
 * The compact-form record of a class node type whose fields are all primitives or single
 * references, flattened into one width code and one field offset per field and the record's fixed
 * length: what {@link FlatCodec} generates a type's writer and reader from, so that a node costs one
 * bounds check (instead of one per field) and straight-line field accesses. The wire form is the one of {@link Packet}: primitives at their natural width
 * (floats and doubles as their raw bits, booleans as 0 or 1), references as int32 node numbers.
 */
final class FlatRow {
    static final int BOOLEAN = 0;
    static final int BYTE = 1;
    /** short or char: two bytes. */
    static final int W2 = 2;
    /** int or float: four bytes (a float's raw bits are the int at its offset). */
    static final int W4 = 3;
    /** long or double: eight bytes. */
    static final int W8 = 4;

    static final int REF = 5;

    /** Where byte arrays' elements start, for raw access to the packet buffer. */
    static final long BYTES = U == null ? 0 : U.arrayBaseOffset(byte[].class);

    /** Width code per field, in field order. */
    final int[] codes;
    /** {@link FieldOffsets} offset per field. */
    final long[] offsets;
    /** The fields (their target class and type id serve the references). */
    final NodeField[] fields;
    /** Bytes of one record. */
    final int width;
    /** The node type of the record. */
    final NodeType type;

    private FlatRow(int[] codes, long[] offsets, NodeField[] fields, int width, NodeType type) {
        this.codes = codes;
        this.offsets = offsets;
        this.fields = fields;
        this.width = width;
        this.type = type;
    }

    /**
     * The flat record of t, or null where t does not qualify (a record type, a field without an
     * offset, a string, byte array or reference collection) or raw access is unavailable.
     */
    static FlatRow of(NodeType t) {
        if (!Columns.RAW || !t.direct) {
            return null;
        }
        NodeField[] fs = t.fieldArray;
        int[] codes = new int[fs.length];
        long[] offsets = new long[fs.length];
        int width = 0;
        for (int k = 0; k < fs.length; k++) {
            NodeField f = fs[k];
            int code;
            int w;
            switch (f.kind) {
                case BOOLEAN -> {
                    code = BOOLEAN;
                    w = 1;
                }
                case BYTE -> {
                    code = BYTE;
                    w = 1;
                }
                case SHORT, CHAR -> {
                    code = W2;
                    w = 2;
                }
                case INT, FLOAT -> {
                    code = W4;
                    w = 4;
                }
                case LONG, DOUBLE -> {
                    code = W8;
                    w = 8;
                }
                case REF -> {
                    code = REF;
                    w = 4;
                }
                default -> {
                    return null;
                }
            }
            codes[k] = code;
            offsets[k] = f.offset;
            width += w;
        }
        return new FlatRow(codes, offsets, fs, width, t);
    }

    /** {@link #of} for every type of the registry, by type id (null entries where a type does not qualify or raw is off). */
    static FlatRow[] of(TypeRegistry registry, boolean raw) {
        FlatRow[] out = new FlatRow[registry.size()];
        for (int i = 0; raw && i < out.length; i++) {
            out[i] = of(registry.type(i));
        }
        return out;
    }

    /** The generated codec per flat row, by type id (null entries where a row is null or no codec can be defined). */
    static FlatCodec[] codecs(FlatRow[] rows) {
        FlatCodec[] out = new FlatCodec[rows.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = rows[i] == null ? null : rows[i].type.flatCodec();
        }
        return out;
    }
}
