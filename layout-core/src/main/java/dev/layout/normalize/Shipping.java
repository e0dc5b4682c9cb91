package dev.layout.normalize;

import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutPrinter;

/**
 * What to send when a datatype travels (to executors, in a plan): the shorter of its own notation
 * and its normalized one, by the storage cost of a description, its UTF-8 bytes. A shipped
 * description is thus never larger than the given type's; the receiving engine compiles whichever
 * arrives into its own processing form, so nothing is lost by shipping the given one.
 *
 * <pre>{@code
 * Shipping.smallest(Normalizer.defaults(), LayoutParser.parse("indexed_block(1, [0,1,2,3,8,9,10,11], float64)"))
 *     .notation();   // vector(2, 4, 8, float64): 46 -> 24 bytes
 * Shipping.smallest(Normalizer.defaults(), LayoutParser.parse("subarray([10,12],[8,10],[1,1],C,float64)"))
 *     .notation();   // the subarray itself, when its normal form would print longer
 * }</pre>
 */
public final class Shipping {
    private Shipping() {}

    /**
     * The normalized notation of {@code type} if it is strictly shorter than the type's own, else the
     * type's own notation (then {@code bytesAfter == bytesBefore} and {@code costAfter ==
     * costBefore}).
     */
    public static Normalizer.Shipment smallest(Normalizer normalizer, Datatype type) {
        Normalizer.Shipment s = normalizer.ship(type);
        if (s.bytesAfter() < s.bytesBefore()) {
            return s;
        }
        return new Normalizer.Shipment(
                LayoutPrinter.print(type), s.bytesBefore(), s.bytesBefore(), s.costBefore(), s.costBefore());
    }
}
