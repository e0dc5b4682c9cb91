package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.datatype.Datatype;
import dev.layout.datatype.Indexed;
import dev.layout.datatype.Primitive;
import dev.layout.normalize.Normalizer;
import dev.layout.testing.RandomTypes;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The compiler compiles the normalized description ({@link EngineNormalization}): what it finds in a
 * description, the rule that keeps the given description, the limit on list growth and the size
 * bound. Every type is also packed and unpacked and compared with the naive type-map interpreter
 * ({@link CompiledShape#assertMovesTheTypeMap}).
 */
class NormalizedCompileTest {

    /** Rows of 4 every-other float64 (64 bytes), at row starts z * 1024 + y * 80 bytes (8 x 8 rows), given as a list. */
    static Datatype rowsAsList() {
        long[] starts = new long[64];
        for (int z = 0; z < 8; z++) {
            for (int y = 0; y < 8; y++) {
                starts[8 * z + y] = 1024L * z + 80L * y;
            }
        }
        return Datatype.hindexedBlock(1, starts, Datatype.vector(4, 1, 2, Primitive.FLOAT64));
    }

    @Test
    void listOfRowStartsCompilesToTheNestedVectorsTheCompilerAloneDidNotFind() {
        Datatype t = rowsAsList();
        // As given: a list of 64 row offsets, not evenly spaced (8 rows 80 bytes apart, then a jump to
        // the next 1024).
        assertThat(((Indexed) t).blockCount()).isEqualTo(64);
        assertThat(((Indexed) t).byteDisplacement(8) - ((Indexed) t).byteDisplacement(7))
                .isNotEqualTo(80);

        // Through the normalizer: vec(8, 1024, vec(8, 80, vec(4, 16, con(1)))), three vector levels
        // that the walk hands to the engine's three-level strided kernel in one call.
        Datatype compiled = DataloopCompiler.compiledDescription(t, Representation.NATIVE);
        assertThat(compiled).isNotEqualTo(t);
        assertThat(containsIndexed(compiled)).isFalse();
        Dataloop d = DataloopCompiler.compile(t, Representation.NATIVE);
        assertThat(d.toTreeString()).isEqualTo("""
        vector(count=8, blocklen=1, stride=1024, ext=616, size=2048)
          vector(count=8, blocklen=1, stride=80, ext=56, size=256)
            vector leaf(count=4, blockBytes=8, stride=16, size=32)
        """);
        assertThat(CompiledShape.longestList(d)).isZero();
        assertPacksAsTheTypeMap(t, 2);
    }

    @Test
    void irregularIndexedBlocksCompileToTheirElementListOfOneWidth() {
        // Section 6: 5 blocks of 1 or 2 elements (7 elements < 2 * 5 list entries) become the list of
        // their elements; the leaf moves one width instead of switching on each block's width.
        Datatype t = Datatype.indexed(new long[] {2, 1, 1, 2, 1}, new long[] {0, 3, 6, 8, 12}, Primitive.FLOAT64);
        assertThat(((Indexed) t).uniformBlocklength())
                .as("blocks of varying widths")
                .isNegative();

        Dataloop d = DataloopCompiler.compile(t, Representation.NATIVE);
        assertThat(d.isLeaf()).isTrue();
        assertThat(d.kind()).isEqualTo(Dataloop.Kind.BLOCK_INDEXED);
        assertThat(d.blockCount()).isEqualTo(7);
        // 7 offsets where the description stores 5 lengths and 5 displacements
        assertThat(CompiledShape.longestList(d)).isEqualTo(7).isLessThanOrEqualTo(CompiledShape.listBound(t));
        assertThat(DataloopCompiler.compiledDescription(t, Representation.NATIVE))
                .isNotEqualTo(t);
        assertPacksAsTheTypeMap(t, 3);
    }

    @Test
    void aFlatListOfEqualBlocksStaysOneGatherLeafWhereTheNormalizedFormIsALoopOfShortRows() {
        // vec(3, 800 B, vec(20, 16 B, con(1))) given as a list of 60 float64: normalized, it is three
        // rows of 20; the engine gathers the flat list faster than it walks short strided rows.
        long[] disp = new long[60];
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 20; b++) {
                disp[20 * a + b] = 100L * a + 2L * b;
            }
        }
        Datatype t = Datatype.indexedBlock(1, disp, Primitive.FLOAT64);
        Datatype normalized = EngineNormalization.normalized(t);
        // normalized: a loop over rows of 20 (vectors nested in a vector, no list)
        assertThat(containsIndexed(normalized)).isFalse();
        assertThat(normalized.depth()).isGreaterThanOrEqualTo(2);

        Dataloop d = DataloopCompiler.compile(t, Representation.NATIVE);
        assertThat(d.isLeaf()).isTrue();
        assertThat(d.kind()).isEqualTo(Dataloop.Kind.BLOCK_INDEXED);
        assertThat(d.blockCount()).isEqualTo(60);
        assertThat(DataloopCompiler.compiledDescription(t, Representation.NATIVE))
                .isSameAs(t);
        assertPacksAsTheTypeMap(t, 2);
    }

    @Test
    void vectorsOfShortVectorsAreNotTradedForAnIndexList() {
        // Under the processing model alone, vec(100, 64, vec(2, 24, con(1))) is cheaper as a list of
        // 200 displacements; the compiler's normalization may not grow the longest list (none here).
        Datatype t = Datatype.hvector(100, 1, 64, Datatype.vector(2, 1, 3, Primitive.FLOAT64));
        assertThat(containsIndexed(Normalizer.of(EngineNormalization.PROCESSING).normalize(t)))
                .isTrue();

        Datatype compiled = DataloopCompiler.compiledDescription(t, Representation.NATIVE);
        assertThat(containsIndexed(compiled)).isFalse();
        assertThat(DataloopCompiler.compile(t, Representation.NATIVE).toTreeString())
                .isEqualTo("""
                vector(count=100, blocklen=1, stride=64, ext=32, size=1600)
                  vector leaf(count=2, blockBytes=8, stride=24, size=16)
                """);
        assertPacksAsTheTypeMap(t, 2);
    }

    @Test
    void aListOfRecordsKeepsItsRecordPattern() {
        // Atoms of four float64 fields (x, y, z at 0, 8, 16 and charge at 72): the list of 12 atoms over
        // a 2-block record (held in registers by the word kernels), not one list of all 48 fields (nor
        // of their 24 runs: more than a record of MAX_RECORD_RUNS).
        Datatype atom = Datatype.resized(
                0,
                96,
                Datatype.struct(
                        new long[] {1, 1, 1, 1},
                        new long[] {0, 8, 16, 72},
                        List.of(Primitive.FLOAT64, Primitive.FLOAT64, Primitive.FLOAT64, Primitive.FLOAT64)));
        Datatype t = Datatype.indexedBlock(1, new long[] {1, 3, 4, 9, 10, 15, 21, 22, 25, 27, 30, 31}, atom);
        // Under the processing model alone: one flat list of the fields (x, y, z merged), longer than
        // any list the description stores.
        Datatype flat = Normalizer.of(EngineNormalization.PROCESSING).normalize(t);
        assertThat(containsIndexed(flat)).isTrue();
        assertThat(CompiledShape.listBound(flat)).isGreaterThan(CompiledShape.listBound(t));

        Dataloop d = DataloopCompiler.compile(t, Representation.NATIVE);
        assertThat(d.kind()).isEqualTo(Dataloop.Kind.BLOCK_INDEXED);
        assertThat(d.blockCount()).isEqualTo(12);
        assertThat(d.toTreeString()).endsWith("  indexed leaf(blocks=2, size=32)\n");
        assertThat(CompiledShape.longestList(d)).isLessThanOrEqualTo(CompiledShape.listBound(t));
        assertPacksAsTheTypeMap(t, 1);
    }

    @Provide
    Arbitrary<Datatype> types() {
        return Arbitraries.oneOf(RandomTypes.types(4, 4096), RandomTypes.leafTypes(1 << 14));
    }

    @Property(tries = 300)
    void noNodeListsMoreBlocksThanTheDescriptionBoundsAndTheBytesAreTheTypeMaps(
            @ForAll("types") Datatype t, @ForAll("representations") Representation rep) {
        Dataloop d = DataloopCompiler.compile(t, rep);
        if (d == null) {
            assertThat(t.byteSize())
                    .as("only an empty type compiles to nothing")
                    .isZero();
            return;
        }
        assertThat(d.byteSize()).isEqualTo(t.byteSize());
        assertThat(CompiledShape.longestList(d, false))
                .as("%s: the description's longest list, or a record's runs", t)
                .isLessThanOrEqualTo(Math.max(CompiledShape.listBound(t), DataloopCompiler.MAX_RECORD_RUNS));
        assertThat(CompiledShape.longestList(d))
                .as("%s: the description's longest list, or a record's runs (of wide runs)", t)
                .isLessThanOrEqualTo(Math.max(CompiledShape.listBound(t), DataloopCompiler.MAX_WIDE_RECORD_RUNS));
        CompiledShape.assertMovesTheTypeMap(t, 2, rep, t.hashCode());
    }

    @Provide
    Arbitrary<Representation> representations() {
        return Arbitraries.of(Representation.values());
    }

    @Test
    void descriptionsWithMoreListEntriesThanTheBoundAreCompiledAsGiven() {
        int atBound = EngineNormalization.MAX_LIST_ENTRIES / 2; // indexed: lengths and displacements
        Datatype within = irregularIndexed(atBound);
        Datatype beyond = irregularIndexed(atBound + 1);
        assertThat(DataloopCompiler.compiledDescription(within, Representation.NATIVE))
                .isNotEqualTo(within);
        assertThat(DataloopCompiler.compile(within, Representation.NATIVE).kind())
                .isEqualTo(Dataloop.Kind.BLOCK_INDEXED);
        assertThat(DataloopCompiler.compiledDescription(beyond, Representation.NATIVE))
                .isSameAs(beyond);
        assertThat(DataloopCompiler.compile(beyond, Representation.NATIVE).kind())
                .isEqualTo(Dataloop.Kind.INDEXED);
    }

    @Test
    void external32CompilesTheSameDescription() {
        Datatype t = rowsAsList();
        assertThat(DataloopCompiler.compiledDescription(t, Representation.EXTERNAL32))
                .isEqualTo(DataloopCompiler.compiledDescription(t, Representation.NATIVE));
        CompiledShape.assertMovesTheTypeMap(t, 2, Representation.EXTERNAL32, 11);
    }

    /** n blocks of 1 or 2 float64 with gaps of 1 to 3, drawn from a seeded generator. */
    static Datatype irregularIndexed(int n) {
        java.util.Random r = new java.util.Random(n);
        long[] lens = new long[n];
        long[] disp = new long[n];
        long at = 0;
        for (int i = 0; i < n; i++) {
            lens[i] = 1 + r.nextInt(2);
            disp[i] = at;
            at += lens[i] + 1 + r.nextInt(3);
        }
        return Datatype.indexed(lens, disp, Primitive.FLOAT64);
    }

    private static boolean containsIndexed(Datatype t) {
        if (t instanceof Indexed) {
            return true;
        }
        return t instanceof dev.layout.datatype.DerivedType d
                && d.children().stream().anyMatch(NormalizedCompileTest::containsIndexed);
    }

    private static void assertPacksAsTheTypeMap(Datatype t, int count) {
        CompiledShape.assertMovesTheTypeMap(t, count, Representation.NATIVE, 42);
    }
}
