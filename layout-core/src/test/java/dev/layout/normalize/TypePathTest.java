package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TypePathTest {

    @Test
    void printsThePapersNotationWithoutSpaces() {
        TypePath p = TypePath.idx(new long[] {2, 9, 1}, TypePath.vec(4, 2, TypePath.con(1)));
        assertThat(p).hasToString("idx(3,<2,9,1>,vec(4,2,con(1)))");
    }

    @Test
    void parsesWhitespaceBetweenTokens() {
        TypePath p = TypePath.parse(" idx( 3 , < 2 ,9, 1 > ,\n vec(4,\t2,con( 1 ) ) ) ");
        assertThat(p).hasToString("idx(3,<2,9,1>,vec(4,2,con(1)))");
    }

    @Test
    void parsesNegativeStridesAndIndices() {
        TypePath p = TypePath.parse("idx(2,<-3,-9223372036854775808>,vec(2,-1,con(1)))");
        assertThat(((TypePath.Idx) p).index(1)).isEqualTo(Long.MIN_VALUE);
        assertThat(TypePath.parse("vec(3,-2,con(1))").expand()).isEqualTo(DisplacementSequence.of(0, -2, -4));
    }

    @Test
    void expandsInNestingOrder() {
        assertThat(TypePath.parse("vec(2,10,idx(2,<0,3>,con(2)))").expand())
                .isEqualTo(DisplacementSequence.of(0, 1, 3, 4, 10, 11, 13, 14));
        assertThat(TypePath.parse("con(1)").expand()).isEqualTo(DisplacementSequence.of(0));
        assertThat(TypePath.parse("vec(2,0,con(1))").expand()).isEqualTo(DisplacementSequence.of(0, 0));
    }

    @Test
    void storageCostFromNormalizerDoc() {
        assertThat(TypePath.parse("idx(3,<2,9,1>,vec(4,2,con(1)))").cost(CostModel.storage(1, 4, 3)))
                .isEqualTo(11);
    }

    @Test
    void rejectsCountBelowOne() {
        assertThatThrownBy(() -> TypePath.parse("con(0)")).hasMessageContaining("count 0 at column 5 (expected: >= 1)");
        assertThatThrownBy(() -> TypePath.con(-1)).hasMessage("con: count -1 (expected: >= 1)");
        assertThatThrownBy(() -> TypePath.vec(0, 1, TypePath.con(1))).hasMessage("vec: count 0 (expected: >= 1)");
        assertThatThrownBy(() -> TypePath.idx(new long[0], TypePath.con(1)))
                .hasMessage("idx: count 0 (expected: >= 1)");
    }

    @Test
    void rejectsIndexListOfWrongLength() {
        assertThatThrownBy(() -> TypePath.parse("idx(3,<1,2>,con(1))"))
                .hasMessageContaining("expected idx with count 3 to list 3 indices, found 2 indices");
    }

    @Test
    void rejectsMalformedText() {
        assertThatThrownBy(() -> TypePath.parse("vec(2,1,con(1)"))
                .hasMessageContaining("expected ')', found end of input");
        assertThatThrownBy(() -> TypePath.parse("con(1))")).hasMessageContaining("column 7: expected end of input");
        assertThatThrownBy(() -> TypePath.parse("foo(1)"))
                .hasMessageContaining("expected con, vec or idx, found 'foo'");
        assertThatThrownBy(() -> TypePath.parse("con(+1)")).hasMessageContaining("expected an integer");
        assertThatThrownBy(() -> TypePath.parse("con(99999999999999999999)")).hasMessageContaining("a 64-bit integer");
        assertThatThrownBy(() -> TypePath.parse("")).hasMessageContaining("found end of input");
    }

    @Test
    void deepPathsAreIterativeAndBounded() {
        String deep = "vec(1,0,".repeat(TypePath.MAX_DEPTH - 1) + "con(1)" + ")".repeat(TypePath.MAX_DEPTH - 1);
        TypePath p = TypePath.parse(deep);
        assertThat(p.depth()).isEqualTo(TypePath.MAX_DEPTH);
        assertThat(p.toString()).isEqualTo(deep);
        assertThat(p.expand()).isEqualTo(DisplacementSequence.of(0));
        assertThat(p).isEqualTo(TypePath.parse(deep));
        String tooDeep = "vec(1,0," + deep + ")";
        assertThatThrownBy(() -> TypePath.parse(tooDeep)).hasMessageContaining("depth 4097 (expected: <= 4096)");
    }

    @Test
    void idxCopiesItsIndices() {
        long[] ix = {1, 2};
        TypePath.Idx p = TypePath.idx(ix, TypePath.con(1));
        ix[0] = 99;
        p.indices()[1] = 99;
        assertThat(p).hasToString("idx(2,<1,2>,con(1))");
    }

    @Test
    void equalityIsStructural() {
        assertThat(TypePath.parse("idx(2,<1,2>,con(1))"))
                .isEqualTo(TypePath.parse("idx(2,<1,2>,con(1))"))
                .hasSameHashCodeAs(TypePath.parse("idx(2,<1,2>,con(1))"))
                .isNotEqualTo(TypePath.parse("idx(2,<1,3>,con(1))"));
        assertThat(TypePath.parse("vec(2,1,con(1))")).isNotEqualTo(TypePath.parse("vec(2,2,con(1))"));
    }

    @Test
    void expansionOverflowIsAnIllegalArgument() {
        assertThatThrownBy(() -> TypePath.parse("vec(2,9223372036854775807,vec(2,1,con(1)))")
                        .expand())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overflows 64 bits");
        assertThatThrownBy(() ->
                        TypePath.parse("vec(100000,1,vec(100000,1,con(1)))").expand())
                .hasMessageContaining("expand: size 10000000000");
    }

    @Test
    void processingCostMultipliesByTheCountsAbove() {
        CostModel m = CostModel.processing(1, 2, 3, 1, 1, 2);
        // 1*(3+3*2) + 3*(2+4*1) + 12*(1+1*1)
        assertThat(TypePath.parse("idx(3,<2,9,1>,vec(4,2,con(1)))").cost(m)).isEqualTo(51);
    }
}
