package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.dataloop.Packing;
import dev.layout.dataloop.Piece;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Laws of the planner: whatever the policy, the pieces are the view's bytes in order, inside disjoint sorted ranges. */
class RangePlannerPropertyTest {

    @Property(tries = 200)
    void piecesAreTheFlattenedViewAndRangesCoverThem(
            @ForAll @IntRange(min = 1, max = 6) int nz,
            @ForAll @IntRange(min = 1, max = 6) int ny,
            @ForAll @IntRange(min = 1, max = 6) int nx,
            @ForAll @IntRange(min = 0, max = 5) int z0,
            @ForAll @IntRange(min = 0, max = 5) int y0,
            @ForAll @IntRange(min = 0, max = 5) int x0,
            @ForAll @IntRange(min = -1, max = 200) int hole,
            @ForAll @IntRange(min = 8, max = 300) int maxRange,
            @ForAll @IntRange(min = 1, max = 9) int maxPieces,
            @ForAll @IntRange(min = 0, max = 40) int disp,
            @ForAll @IntRange(min = 0, max = 30) int startEtype,
            @ForAll @IntRange(min = 0, max = 60) int etypes) {
        long[] sizes = {nz, ny, nx};
        long[] sub = {Math.max(1, nz - z0 % nz), Math.max(1, ny - y0 % ny), Math.max(1, nx - x0 % nx)};
        long[] starts = {nz - sub[0], ny - sub[1], nx - sub[2]};
        Datatype ft = Datatype.subarray(sizes, sub, starts, Order.C, Primitive.FLOAT64);
        FileView view = new FileView(disp, Primitive.FLOAT64, ft);
        SievingPolicy policy = new SievingPolicy(hole, maxRange, maxPieces, maxRange);
        long start = 8L * startEtype;
        long length = 8L * etypes;

        // Reference: the flattened bytes of enough tiles, as (file offset) per byte.
        long tiles = (start + length) / view.tileByteSize() + 1;
        List<Long> expected = new ArrayList<>();
        for (Piece p : Packing.flatten(Datatype.contiguous(tiles, ft), 1)) {
            for (long b = 0; b < p.length(); b++) {
                expected.add(disp + p.offset() + b);
            }
        }
        List<Long> got = new ArrayList<>();
        long lastRangeEnd = Long.MIN_VALUE;
        RangePlanner.Cursor c = new RangePlanner(view, policy).plan(start, length);
        for (RangePlanner.Batch b = c.next(); b != null; b = c.next()) {
            for (int r = 0; r < b.rangeCount(); r++) {
                assertThat(b.rangeOffset(r)).isGreaterThanOrEqualTo(lastRangeEnd);
                assertThat(b.rangeLength(r)).isBetween(1L, (long) maxRange);
                lastRangeEnd = b.rangeOffset(r) + b.rangeLength(r);
            }
            for (int i = 0; i < b.pieceCount(); i++) {
                int r = b.pieceRange(i);
                assertThat(b.pieceOffset(i)).isGreaterThanOrEqualTo(b.rangeOffset(r));
                assertThat(b.pieceOffset(i) + b.pieceLength(i))
                        .isLessThanOrEqualTo(b.rangeOffset(r) + b.rangeLength(r));
                for (long k = 0; k < b.pieceLength(i); k++) {
                    got.add(b.pieceOffset(i) + k);
                }
            }
        }
        assertThat(got).isEqualTo(expected.subList((int) start, (int) (start + length)));
        if (length > 0) {
            assertThat(new RangePlanner(view, policy).fileEnd(start, length)).isEqualTo(got.get(got.size() - 1) + 1);
        }
    }
}
