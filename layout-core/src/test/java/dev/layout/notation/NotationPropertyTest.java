package dev.layout.notation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.testing.RandomTypes;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class NotationPropertyTest {
    @Provide
    Arbitrary<Datatype> types() {
        return RandomTypes.types(5, 1 << 20);
    }

    @Property(tries = 500)
    void parseOfPrintIsIdentity(@ForAll("types") Datatype t) {
        Datatype back = LayoutParser.parse(LayoutPrinter.print(t));
        assertThat(back).isEqualTo(t);
        assertThat(back.hashCode()).isEqualTo(t.hashCode());
        assertThat(back.bounds()).isEqualTo(t.bounds());
    }

    @Property(tries = 200)
    void whitespaceBetweenTokensIsIgnored(@ForAll("types") Datatype t) {
        String spaced = t.toString().replace(",", " ,\n\t").replace("(", " ( ").replace("[", "[ ");
        assertThat(LayoutParser.parse(spaced)).isEqualTo(t);
    }
}
