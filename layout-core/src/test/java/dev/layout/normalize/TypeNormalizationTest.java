package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.notation.LayoutParser;
import org.junit.jupiter.api.Test;

class TypeNormalizationTest {

    static final Normalizer STORAGE = Normalizer.of(CostModel.storage(1, 4, 3));

    private static Normalizer.Report report(String type) {
        return STORAGE.report(LayoutParser.parse(type));
    }

    @Test
    void indexNodeWithPapersExample2BecomesVectorOverIndex() {
        Normalizer.Report r = report("indexed_block(1, [5,6,8,9,10,12,13,14,16], int32)");
        assertThat(r.after()).hasToString("vector(3, 1, 1, indexed_block(1, [5,6,8], int32))");
        assertThat(r.costBefore()).isEqualTo(13);
        assertThat(r.costAfter()).isEqualTo(11);
    }

    @Test
    void shipmentIsTheNormalizedNotationWithItsSizeAndCostBeforeAndAfter() {
        Datatype t = LayoutParser.parse("indexed_block(1, [0,1,2,3,8,9,10,11], float64)");
        Normalizer.Shipment s = Normalizer.defaults().ship(t);
        Datatype shipped = LayoutParser.parse(s.notation());
        assertThat(shipped).isEqualTo(Normalizer.defaults().normalize(t)).hasToString("vector(2, 4, 8, float64)");
        assertThat(new long[] {shipped.lb(), shipped.extent(), shipped.byteSize()})
                .containsExactly(t.lb(), t.extent(), t.byteSize());
        assertThat(s.bytesBefore()).isEqualTo(t.toString().length());
        assertThat(s.bytesAfter()).isEqualTo(s.notation().length()).isLessThan(s.bytesBefore());
        assertThat(s.costBefore()).isEqualTo(Normalizer.defaults().cost(t));
        assertThat(s.costAfter()).isEqualTo(Normalizer.defaults().cost(shipped)).isLessThan(s.costBefore());
    }

    @Test
    void homogeneousStructBecomesContiguous() {
        Normalizer.Report r = report("struct([1,1,1,1],[0,4,8,12],[float32,float32,float32,float32])");
        assertThat(r.after()).hasToString("contig(4, float32)");
        assertThat(r.costAfter()).isEqualTo(1);
    }

    @Test
    void regularlyStridedIndexListBecomesVector() {
        assertThat(report("hindexed_block(1, [0,8,16,24], int32)").after()).hasToString("vector(4, 1, 2, int32)");
    }

    @Test
    void equalRunsOfAnIndexListBecomeAVectorOfBlocks() {
        Normalizer.Report r = report("indexed_block(1, [0,1,2,3,4,5,6,7,100,101,102,103,104,105,106,107], byte)");
        assertThat(r.after()).hasToString("vector(2, 8, 100, byte)");
        assertThat(r.costAfter()).isEqualTo(5);
    }

    @Test
    void section6IndexedNodeWithRunsOfDifferentLengths() {
        // k = 4 blocks, c = 5 elements: 2k > c, so the node is read as an index list of 5 ...
        Normalizer.Report r = report("indexed([1,1,1,2],[0,1,2,10],int32)");
        // ... and written back as indexed with k = 2 runs, since 2k < c: Kidx + 4 + Kcon
        assertThat(r.after()).hasToString("indexed([3,2], [0,10], int32)");
        assertThat(r.costBefore()).isEqualTo(3 + 8 + 1);
        assertThat(r.costAfter()).isEqualTo(3 + 4 + 1);
    }

    @Test
    void heterogeneousStructIsKept() {
        Datatype t = LayoutParser.parse("struct([2,1,1], [0,8,12], [float32,int32,float32])");
        assertThat(STORAGE.normalize(t)).isEqualTo(t);
    }

    @Test
    void boundsArePreservedWithResized() {
        Datatype t = LayoutParser.parse("subarray([258,258], [1,256], [0,1], C, float64)");
        Datatype n = STORAGE.normalize(t);
        assertThat(n.lb()).isEqualTo(t.lb());
        assertThat(n.extent()).isEqualTo(t.extent());
        assertThat(n.byteSize()).isEqualTo(t.byteSize());
        assertThat(STORAGE.cost(n)).isLessThanOrEqualTo(STORAGE.cost(t));
    }

    @Test
    void hugeVectorIsNormalizedWithoutExpansion() {
        // 10^12 elements: the type map is never materialized
        Datatype t = LayoutParser.parse("vector(1000000, 1, 1000000, contig(1000000, byte))");
        Normalizer.Report r = STORAGE.report(t);
        assertThat(r.after().byteSize()).isEqualTo(t.byteSize());
        assertThat(r.costAfter()).isLessThanOrEqualTo(r.costBefore());
    }
}
