package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.arrow.VectorRegions;
import dev.layout.dataloop.Piece;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangePlannerTest {
    private static final Primitive F64 = Primitive.FLOAT64;
    private static final long[] CUBE = {4, 4, 4};

    @Test
    void perPieceGivesOneRangePerElementOfAYzFace() {
        FileView v = new FileView(0, F64, VectorRegions.face(F64, CUBE, 2, 1));
        List<Piece> r = new RangePlanner(v, SievingPolicy.perPiece()).ranges(0, v.tileByteSize());
        assertThat(r).hasSize(16).startsWith(new Piece(8, 8), new Piece(40, 8));
    }

    @Test
    void holeThresholdSievesNearbyPieces() {
        FileView v = new FileView(0, F64, VectorRegions.face(F64, CUBE, 2, 1));
        assertThat(new RangePlanner(v, SievingPolicy.adjacentOnly()).ranges(0, 128))
                .hasSize(16);
        assertThat(new RangePlanner(v, SievingPolicy.defaults().withHoleThreshold(24)).ranges(0, 128))
                .containsExactly(new Piece(8, 488));
        assertThat(new RangePlanner(v, SievingPolicy.defaults().withHoleThreshold(23)).ranges(0, 128))
                .hasSize(16);
    }

    @Test
    void adjacentPiecesMergeAndLongPiecesSplit() {
        FileView v =
                new FileView(0, F64, VectorRegions.face(F64, CUBE, 0, 2)); // one contiguous plane: 128 bytes at 256
        assertThat(new RangePlanner(v, SievingPolicy.adjacentOnly()).ranges(0, 128))
                .containsExactly(new Piece(256, 128));
        assertThat(new RangePlanner(v, SievingPolicy.adjacentOnly().withMaxRangeBytes(48)).ranges(0, 128))
                .containsExactly(new Piece(256, 48), new Piece(304, 48), new Piece(352, 32));
    }

    @Test
    void tilesFollowTheExtentAndDisplacement() {
        FileView v = new FileView(100, F64, Datatype.vector(2, 1, 3, F64)); // 2 doubles 24 apart, extent 32
        assertThat(new RangePlanner(v, SievingPolicy.perPiece()).ranges(8, 24))
                .containsExactly(new Piece(124, 16), new Piece(156, 8)); // flatten merges the adjacent 124 and 132
        assertThat(new RangePlanner(v, SievingPolicy.perPiece()).fileEnd(8, 24)).isEqualTo(164);
        assertThat(new RangePlanner(v, SievingPolicy.perPiece()).fileEnd(0, 0)).isZero();
    }

    @Test
    void smallBatchesPlanTheSamePieces() {
        FileView v = new FileView(0, F64, VectorRegions.face(F64, CUBE, 1, 3));
        RangePlanner.Cursor c =
                new RangePlanner(v, SievingPolicy.perPiece().withMaxPiecesPerBatch(3)).plan(0, v.tileByteSize());
        int batches = 0;
        long bytes = 0;
        for (RangePlanner.Batch b = c.next(); b != null; b = c.next()) {
            assertThat(b.pieceCount()).isLessThanOrEqualTo(3);
            bytes += b.byteLength();
            batches++;
        }
        assertThat(bytes).isEqualTo(v.tileByteSize());
        assertThat(batches).isEqualTo(2);
        assertThat(c.pieceCount()).isEqualTo(4);
    }

    @Test
    void rejectsFiletypesOutOfFileOrder() {
        Datatype backwards = Datatype.hindexed(new long[] {1, 1}, new long[] {16, 0}, F64);
        FileView v = new FileView(0, F64, backwards);
        assertThatThrownBy(() -> new RangePlanner(v, SievingPolicy.defaults()).ranges(0, 16))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "file byte 0 comes after file byte 23 (expected: monotonically non-decreasing file order)");
    }
}
