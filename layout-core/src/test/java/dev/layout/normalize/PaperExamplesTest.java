package dev.layout.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The worked examples of Träff 2014 (sections 2, 3.1 and 4) and Table 2, as named tests. */
class PaperExamplesTest {

    static final CostModel PAPER = CostModel.storage(1, 4, 3);

    @Test
    void example1PathDescribesTheTwelveElementLayout() {
        TypePath p = TypePath.parse("idx(3,<2,9,1>,vec(4,2,con(1)))");
        assertThat(p.expand()).isEqualTo(DisplacementSequence.parse("2,4,6,8,9,11,13,15,1,3,5,7"));
        assertThat(p.cost(PAPER)).isEqualTo((3 + 3) + 4 + 1);
    }

    @Test
    void example1IsReconstructedAtCost11() {
        TypePath p = Normalizer.reconstruct(DisplacementSequence.parse("2,4,6,8,9,11,13,15,1,3,5,7"), PAPER);
        assertThat(p).hasToString("idx(3,<2,9,1>,vec(4,2,con(1)))");
        assertThat(p.cost(PAPER)).isEqualTo(11);
    }

    @Test
    void example1AsPrintedWithSeventeenHasThirteenElementsAndNoStructure() {
        DisplacementSequence x = DisplacementSequence.parse("2,4,6,8,9,11,13,15,17,1,3,5,7");
        TypePath p = Normalizer.reconstruct(x, PAPER);
        assertThat(p).hasToString("idx(13,<2,4,6,8,9,11,13,15,17,1,3,5,7>,con(1))");
        assertThat(p.cost(PAPER)).isEqualTo(17);
    }

    @Test
    void example2PapersPathDescribesTheLayout() {
        TypePath p = TypePath.parse("idx(1,<5>,vec(3,4,idx(3,<0,1,3>,con(1))))");
        assertThat(p.expand()).isEqualTo(DisplacementSequence.parse("5,6,8,9,10,12,13,14,16"));
    }

    @Test
    void example2OffsetRidesOnTheLowerIndexNode() {
        DisplacementSequence x = DisplacementSequence.parse("5,6,8,9,10,12,13,14,16");
        TypePath p = Normalizer.reconstruct(x, PAPER);
        assertThat(p).hasToString("vec(3,4,idx(3,<5,6,8>,con(1)))");
        assertThat(p.cost(PAPER)).isEqualTo(11);
        // the paper's TypePath (Listing 1) path, before its dynamic program, costs 4 + 4 + 6 + 1
        assertThat(TypePath.construct(x)).hasToString("idx(1,<5>,vec(3,4,idx(3,<0,1,3>,con(1))))");
        assertThat(TypePath.construct(x).cost(PAPER)).isEqualTo(15);
    }

    @Test
    void listing1AddsIdxOfZeroEvenForZeroOffsetButTheOptimumDoesNot() {
        DisplacementSequence zero = DisplacementSequence.of(0);
        assertThat(TypePath.construct(zero)).hasToString("idx(1,<0>,con(1))");
        assertThat(Normalizer.reconstruct(zero, PAPER)).hasToString("con(1)");
    }

    @Test
    void aLoneVectorBecomesAnIndexWhenThatIsCheaper() {
        CostModel m = CostModel.storage(3, 6, 2); // Kvec > Kidx + c
        TypePath p = Normalizer.reconstruct(DisplacementSequence.of(0, -2), m);
        assertThat(p).hasToString("idx(2,<0,-2>,con(1))");
        assertThat(p.cost(m)).isEqualTo(3 + 2 + 2);
    }

    @Test
    void mpiVectorIsAVecOverAVec() {
        // MPI vector with count 3, blocklength 2, stride 5 over an element of extent 1
        TypePath p = TypePath.parse("vec(3,5,vec(2,1,con(1)))");
        assertThat(p.expand()).isEqualTo(DisplacementSequence.parse("0,1,5,6,10,11"));
        assertThat(Normalizer.reconstruct(p.expand(), PAPER)).hasToString("vec(3,5,con(2))");
    }

    // ---------------------------------------------------------------------------------- Table 2

    /** A realization of Table 2: sequences described by idx(3,I1,vec(4,d,idx(3,I2,con(1)))). */
    static final String COLUMN_2 = "idx(3,<0,50,120>,vec(4,10,idx(3,<0,1,3>,con(1))))";

    static final String COLUMN_1 = "idx(3,<0,50,120>,vec(2,20,vec(2,10,idx(3,<0,1,3>,con(1)))))";
    static final String COLUMN_3 = "idx(6,<0,20,50,70,120,140>,idx(6,<0,1,3,10,11,13>,con(1)))";

    private static long partial(String path, CostModel m) {
        return TypePath.parse(path).cost(m) - ((CostModel.Storage) m).kcon();
    }

    @Test
    void table2ColumnsDescribeTheSameLayout() {
        DisplacementSequence x = TypePath.parse(COLUMN_2).expand();
        assertThat(TypePath.parse(COLUMN_1).expand()).isEqualTo(x);
        assertThat(TypePath.parse(COLUMN_3).expand()).isEqualTo(x);
        assertThat(x.size()).isEqualTo(36);
    }

    @Test
    void table2CostsWithKidx3Kvec4Are20And16And18() {
        CostModel m = CostModel.storage(1, 4, 3);
        assertThat(partial(COLUMN_1, m)).isEqualTo(20);
        assertThat(partial(COLUMN_2, m)).isEqualTo(16);
        assertThat(partial(COLUMN_3, m)).isEqualTo(18);
    }

    @Test
    void table2CostsWithKidxKvec10Are46And36And32() {
        CostModel m = CostModel.storage(1, 10, 10);
        assertThat(partial(COLUMN_1, m)).isEqualTo(46);
        assertThat(partial(COLUMN_2, m)).isEqualTo(36);
        assertThat(partial(COLUMN_3, m)).isEqualTo(32);
    }

    @Test
    void table2OptimumWithKidx3Kvec4Is17() {
        CostModel m = CostModel.storage(1, 4, 3);
        TypePath p = Normalizer.reconstruct(TypePath.parse(COLUMN_2).expand(), m);
        assertThat(p).hasToString(COLUMN_2);
        assertThat(p.cost(m)).isEqualTo(17);
    }

    @Test
    void table2OptimumWithKidxKvec10Is33ByTheHiddenVectorSplit() {
        CostModel m = CostModel.storage(1, 10, 10);
        TypePath p = Normalizer.reconstruct(TypePath.parse(COLUMN_2).expand(), m);
        assertThat(p).hasToString(COLUMN_3);
        assertThat(p.cost(m)).isEqualTo(33);
    }

    @Test
    void table2TypePathIsColumn2() {
        DisplacementSequence x = TypePath.parse(COLUMN_2).expand();
        assertThat(TypePath.construct(x)).hasToString(COLUMN_2);
    }

    // --------------------------------------------------------------------------------- section 4

    @Test
    void processingCostOfExample1MatchesIndexOfTwelve() {
        CostModel m = CostModel.processing(1, 2, 3, 1, 1, 2);
        assertThat(TypePath.parse("idx(3,<2,9,1>,vec(4,2,con(1)))").cost(m)).isEqualTo(9 + 18 + 24);
        assertThat(TypePath.parse("idx(12,<2,4,6,8,9,11,13,15,1,3,5,7>,con(1))").cost(m))
                .isEqualTo(51);
        assertThat(Normalizer.reconstruct(DisplacementSequence.parse("2,4,6,8,9,11,13,15,1,3,5,7"), m)
                        .cost(m))
                .isEqualTo(51);
    }

    @Test
    void processingCostCollapsesNestedVectorsUnderAnOffset() {
        CostModel m = CostModel.processing(1, 2, 3, 1, 1, 2);
        DisplacementSequence x =
                TypePath.parse("idx(1,<7>,vec(2,100,vec(3,10,con(1))))").expand();
        TypePath p = Normalizer.reconstruct(x, m);
        assertThat(p.expand()).isEqualTo(x);
        assertThat(p.cost(m)).isEqualTo(NormalizerPropertyTest.exhaustive(x.toArray(), m));
    }
}
