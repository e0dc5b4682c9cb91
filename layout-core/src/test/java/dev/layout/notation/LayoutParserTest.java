package dev.layout.notation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.LayoutLimitException;
import dev.layout.datatype.Primitive;
import org.junit.jupiter.api.Test;

class LayoutParserTest {
    @Test
    void parsesTheSpecExamples() {
        assertThat(LayoutParser.parse("vector(4, 1, 4, float32)"))
                .isEqualTo(Datatype.vector(4, 1, 4, Primitive.FLOAT32));
        assertThat(LayoutParser.parse("subarray([258,258], [1,256], [0,1], C, float64)")
                        .byteSize())
                .isEqualTo(2048);
        assertThat(LayoutParser.parse("struct([2,1,1], [0,8,12], [float32,int32,float32])")
                        .extent())
                .isEqualTo(16);
        assertThat(LayoutParser.parse("resized(0, 16, struct([1,1],[0,8],[float64,int32]))")
                        .extent())
                .isEqualTo(16);
        assertThat(LayoutParser.parse("darray(4, 1, [8,8], [cyclic,block], [2,default], [2,2], F, int32)")
                        .byteSize())
                .isEqualTo(64);
    }

    @Test
    void syntaxErrorsGiveLineColumnExpectedAndFound() {
        assertThatThrownBy(() -> LayoutParser.parse("vector(2, 1,\n   float32)"))
                .isInstanceOfSatisfying(LayoutSyntaxException.class, e -> {
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.column()).isEqualTo(4);
                    assertThat(e.expected()).isEqualTo("int");
                    assertThat(e.found()).isEqualTo("'float32'");
                });
        assertThatThrownBy(() -> LayoutParser.parse("contig(2, float32"))
                .hasMessage("line 1, column 18: expected ')', found end of text");
        assertThatThrownBy(() -> LayoutParser.parse("Contig(2, float32)"))
                .hasMessageContaining("unknown type name 'Contig'");
        // an unknown name lists the valid ones
        assertThatThrownBy(() -> LayoutParser.parse("contiguous(2, float32)"))
                .hasMessageStartingWith(
                        "line 1, column 1: expected a type name (contig, vector, hvector, indexed, hindexed, indexed_block, ")
                .hasMessageContaining("or a primitive: ")
                .hasMessageContaining("float64")
                .hasMessageEndingWith("found unknown type name 'contiguous'");
        assertThatThrownBy(() -> LayoutParser.parse("subarray([4], [2], [1], c, int32)"))
                .hasMessageContaining("bad order 'c'");
        assertThatThrownBy(() -> LayoutParser.parse("contig(9223372036854775808, byte)"))
                .hasMessageContaining("int out of 64-bit range");
        assertThatThrownBy(() -> LayoutParser.parse("int32 int32")).hasMessageContaining("expected end of text");
    }

    @Test
    void extremeIntegersParse() {
        assertThat(LayoutParser.parse("resized(-9223372036854775808, 0, byte)").lb())
                .isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void deepNestingIsALimitErrorNotAStackOverflow() {
        String deep = "contig(1, ".repeat(100_000) + "byte" + ")".repeat(100_000);
        assertThatThrownBy(() -> LayoutParser.parse(deep))
                .isInstanceOf(LayoutLimitException.class)
                .hasMessageContaining("nesting depth");
    }
}
