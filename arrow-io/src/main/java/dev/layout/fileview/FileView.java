package dev.layout.fileview;

import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutParser;
import java.util.Objects;

/**
 * An MPI-IO file view ({@code MPI_File_set_view}): the file is seen from byte {@code displacement}
 * on as the filetype tiled over and over (tile {@code i} at {@code displacement + i *
 * filetype.extent()}), and only the filetype's data bytes are visible, in pack order. Offsets into
 * the view count etypes.
 *
 * <pre>{@code
 * Datatype face = LayoutParser.parse("subarray([256,256,256], [256,256,1], [0,0,0], C, float64)");
 * FileView view = new FileView(0, Primitive.FLOAT64, face);
 * // view.toString(): view(0, float64, subarray([256,256,256], [256,256,1], [0,0,0], C, float64))
 * }</pre>
 *
 * <p>As MPI requires, the filetype must be built from the etype: its type signature is a whole
 * number of copies of the etype's. Its data must also lie at non-negative displacements, and tiles
 * must be in non-decreasing file order (checked when ranges are planned).
 *
 * @param displacement bytes from the start of the file to the first tile
 * @param etype the unit of offsets and the building block of the filetype
 * @param filetype the tile
 */
public record FileView(long displacement, Datatype etype, Datatype filetype) {

    /**
     * @throws IllegalArgumentException if the displacement is negative, the etype has no data, the
     *     filetype has no data or a non-positive extent, data at a negative displacement, or a type
     *     signature that is not a whole number of etypes
     */
    public FileView {
        Objects.requireNonNull(etype, "fileview: etype is null");
        Objects.requireNonNull(filetype, "fileview: filetype is null");
        if (displacement < 0) {
            throw new IllegalArgumentException("fileview: displacement " + displacement + " (expected: >= 0)");
        }
        if (etype.byteSize() <= 0) {
            throw new IllegalArgumentException(
                    "fileview: etype " + etype + " has byteSize " + etype.byteSize() + " (expected: > 0)");
        }
        if (filetype.byteSize() <= 0) {
            throw new IllegalArgumentException(
                    "fileview: filetype has byteSize " + filetype.byteSize() + " (expected: > 0)");
        }
        if (filetype.extent() <= 0) {
            throw new IllegalArgumentException("fileview: filetype extent " + filetype.extent() + " (expected: > 0)");
        }
        if (filetype.trueLb() < 0) {
            throw new IllegalArgumentException("fileview: filetype trueLb " + filetype.trueLb()
                    + " (expected: >= 0, data at non-negative displacements)");
        }
        if (filetype.byteSize() % etype.byteSize() != 0) {
            throw new IllegalArgumentException("fileview: filetype byteSize " + filetype.byteSize()
                    + " (expected: a multiple of etype " + etype + " byteSize " + etype.byteSize() + ")");
        }
        String why = SignatureMatcher.mismatch(etype, filetype);
        if (why != null) {
            throw new IllegalArgumentException("fileview: filetype is not built from etype " + etype + ": " + why);
        }
    }

    /** The view of the whole file as a sequence of etypes from {@code displacement} on. */
    public static FileView contiguous(long displacement, Datatype etype) {
        return new FileView(displacement, etype, etype);
    }

    /** Parses etype and filetype from the layout notation. */
    public static FileView parse(long displacement, String etype, String filetype) {
        Objects.requireNonNull(etype, "fileview: etype is null");
        Objects.requireNonNull(filetype, "fileview: filetype is null");
        return new FileView(displacement, LayoutParser.parse(etype), LayoutParser.parse(filetype));
    }

    /** Bytes of view data per tile (the filetype's size). */
    public long tileByteSize() {
        return filetype.byteSize();
    }

    /** Etypes per tile. */
    public long etypesPerTile() {
        return filetype.byteSize() / etype.byteSize();
    }

    @Override
    public String toString() {
        return "view(" + displacement + ", " + etype + ", " + filetype + ")";
    }
}
