package dev.layout.datatype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.notation.LayoutParser;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatatypeTest {
    private static Datatype t(String s) {
        return LayoutParser.parse(s);
    }

    @Test
    void columnOfFourByFourFloatMatrix() {
        Datatype c = Datatype.vector(4, 1, 4, Primitive.FLOAT32);
        assertThat(c.byteSize()).isEqualTo(16);
        assertThat(c.bounds()).isEqualTo(new Bounds(0, 52, 0, 52));
        assertThat(c.toString()).isEqualTo("vector(4, 1, 4, float32)");
    }

    @Test
    void structPaddingFollowsMpich() {
        assertThat(t("struct([1,1],[0,8],[float64,int32])").extent()).isEqualTo(16);
        assertThat(t("struct([1,1],[0,6],[int32,uint32])").extent()).isEqualTo(10);
        assertThat(t("struct([1,1],[0,6],[int32,float32])").extent()).isEqualTo(12);
        assertThat(t("struct([1], [0], [hvector(2, 1, 10, int32)])").extent()).isEqualTo(14);
        assertThat(t("hvector(2, 1, 6, int32)").extent()).isEqualTo(10);
    }

    @Test
    void markersAreStickyAndDecideStructBounds() {
        Datatype s = t("struct([1,1], [0,100], [resized(-4,16,int32), int32])");
        assertThat(s.lb()).isEqualTo(-4);
        assertThat(s.extent()).isEqualTo(16);
        assertThat(s.trueExtent()).isEqualTo(104);
        Datatype c = Datatype.contiguous(3, Datatype.resized(-2, 8, Primitive.INT32));
        assertThat(c.lb()).isEqualTo(-2);
        assertThat(c.extent()).isEqualTo(24);
        assertThat(c.hasExplicitBounds()).isTrue();
    }

    @Test
    void emptyTypeMapsContributeNothing() {
        Datatype v = t("vector(2, 0, 2, int32)");
        assertThat(v.bounds()).isEqualTo(new Bounds(0, 0, 0, 0));
        Datatype marked = t("resized(0, 8, contig(0, int32))");
        Datatype s = t("struct([1,1],[0,16],[int32, resized(0, 8, contig(0, int32))])");
        assertThat(s.lb()).isEqualTo(16);
        assertThat(s.extent()).isEqualTo(8);
        assertThat(s.trueLb()).isEqualTo(0);
        assertThat(marked.extent()).isEqualTo(8);
    }

    @Test
    void subarrayHasTheWholeArrayAsExtent() {
        Datatype s = t("subarray([258,258], [1,256], [0,1], C, float64)");
        assertThat(s.lb()).isZero();
        assertThat(s.extent()).isEqualTo(258L * 258 * 8);
        assertThat(s.trueLb()).isEqualTo(8);
        assertThat(s.byteSize()).isEqualTo(2048);
    }

    @Test
    void rejectsNegativeCountNamingConstructorArgumentAndValue() {
        assertThatThrownBy(() -> Datatype.vector(-3, 1, 1, Primitive.INT32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("vector: count -3 (expected: >= 0)");
        assertThatThrownBy(() -> Datatype.contiguous(-1, Primitive.INT32))
                .hasMessage("contig: count -1 (expected: >= 0)");
        assertThatThrownBy(() -> Datatype.indexedBlock(-1, new long[0], Primitive.INT32))
                .hasMessage("indexed_block: blocklength -1 (expected: >= 0)");
    }

    @Test
    void rejectsSubarrayOutsideTheArray() {
        assertThatThrownBy(() -> t("subarray([4,300], [2,3], [1,298], C, int32)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("subarray: starts[1]+subsizes[1] 301 (expected: <= sizes[1] 300)");
        assertThatThrownBy(() -> t("subarray([4,4], [2,2], [0], C, int32)"))
                .hasMessageContaining("subarray: sizes, subsizes and starts lengths 2, 2, 1");
    }

    @Test
    void rejectsDarrayGridThatDoesNotMatchSize() {
        assertThatThrownBy(() -> t("darray(4, 0, [8,8], [block,block], [default,default], [2,3], C, int32)"))
                .hasMessage("darray: product of psizes 6 (expected: equal to size 4)");
        assertThatThrownBy(() -> t("darray(4, 4, [8], [block], [default], [4], C, int32)"))
                .hasMessage("darray: rank 4 (expected: 0 <= rank < size 4)");
    }

    @Test
    void overflowIsAnArgumentErrorNamingTheConstructor() {
        assertThatThrownBy(() -> Datatype.contiguous(1L << 62, Datatype.contiguous(4, Primitive.INT64)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("contig: ")
                .hasMessageContaining("overflows 64 bits");
        assertThatThrownBy(() -> Datatype.hvector(3, 1, Long.MAX_VALUE / 2 + 1, Primitive.INT8))
                .hasMessageStartingWith("hvector: ");
    }

    @Test
    void nestingDepthIsLimited() {
        Datatype d = Primitive.BYTE;
        for (int i = 0; i < TypeLimits.MAX_DEPTH; i++) {
            d = Datatype.contiguous(1, d);
        }
        Datatype deep = d;
        assertThatThrownBy(() -> Datatype.contiguous(1, deep))
                .isInstanceOf(LayoutLimitException.class)
                .hasMessageContaining("layout.type.maxDepth");
    }

    @Test
    void envelopeGivesCombinerAndArgumentsLikeGetContents() {
        Envelope e = t("hindexed([1,2], [0,16], int32)").envelope();
        assertThat(e.combiner()).isEqualTo(Combiner.HINDEXED);
        assertThat(e.integers()).containsExactly(2L, 1L, 2L);
        assertThat(e.addresses()).containsExactly(0L, 16L);
        assertThat(e.datatypes()).containsExactly(Primitive.INT32);
        Envelope r = t("resized(-4, 16, float64)").envelope();
        assertThat(r.addresses()).containsExactly(-4L, 16L);
        assertThat(Primitive.FLOAT64.envelope().combiner()).isEqualTo(Combiner.NAMED);
    }

    @Test
    void equalityIsStructural() {
        Datatype a = t("struct([2,1], [0,8], [float32, vector(2,1,3,int16)])");
        Datatype b = Datatype.struct(
                new long[] {2, 1},
                new long[] {0, 8},
                List.of(Primitive.FLOAT32, Datatype.vector(2, 1, 3, Primitive.INT16)));
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(t("struct([2,1], [0,8], [float32, vector(2,1,4,int16)])"));
        assertThat(t("vector(2,1,3,int16)")).isNotEqualTo(t("hvector(2,1,3,int16)"));
    }

    @Test
    void contiguityIsDetectedThroughAnyDescription() {
        assertThat(t("resized(0, 92, struct([2,64,2,1], [0,8,72,88], [int32,byte,float64,float32]))")
                        .isContiguous())
                .isTrue();
        assertThat(t("subarray([4,4], [4,4], [0,0], C, int32)").isContiguous()).isTrue();
        assertThat(t("vector(4, 2, 2, int32)").isContiguous()).isTrue();
        assertThat(t("vector(4, 1, 2, int32)").isContiguous()).isFalse();
        assertThat(t("indexed([1,1], [1,0], int32)").isContiguous()).isFalse();
    }
}
