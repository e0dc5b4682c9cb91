package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutParser;
import dev.layout.notation.LayoutPrinter;
import org.junit.jupiter.api.Test;

class ShippingTest {
    @Test
    void aShorterNormalFormIsShipped() {
        Normalizer.Shipment s = Shipping.smallest(
                Normalizer.defaults(), LayoutParser.parse("indexed_block(1, [0,1,2,3,8,9,10,11], float64)"));
        assertThat(s.bytesAfter()).isLessThan(s.bytesBefore());
        assertThat(LayoutParser.parse(s.notation()).byteSize()).isEqualTo(64);
        assertThat(s.notation())
                .isEqualTo(Normalizer.defaults()
                        .ship(LayoutParser.parse("indexed_block(1, [0,1,2,3,8,9,10,11], float64)"))
                        .notation());
    }

    @Test
    void aTypeWhoseNormalFormPrintsLongerShipsAsGiven() {
        Datatype t = LayoutParser.parse("subarray([10,12,9],[8,1,7],[1,10,1],C,float64)");
        Normalizer.Shipment normalized = Normalizer.defaults().ship(t);
        Normalizer.Shipment s = Shipping.smallest(Normalizer.defaults(), t);
        assertThat(s.bytesAfter()).isLessThanOrEqualTo(s.bytesBefore()).isLessThanOrEqualTo(normalized.bytesAfter());
        if (normalized.bytesAfter() >= normalized.bytesBefore()) {
            assertThat(s.notation()).isEqualTo(LayoutPrinter.print(t));
            assertThat(s.costAfter()).isEqualTo(s.costBefore());
        }
    }
}
