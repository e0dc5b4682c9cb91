package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.layout.dataloop.Packing;
import dev.layout.dataloop.Piece;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.util.Arrays;

/**
 * Fuzzes the file-view range planner on fuzzed views (a filetype nested from fuzzed constructor
 * arguments over a fuzzed etype, a fuzzed displacement), fuzzed sieving policies, stream ranges and
 * file lengths. Against a reference (the flattened bytes of enough whole tiles, byte by byte): the
 * pieces are exactly the view's bytes of the stream range in stream order; ranges are sorted,
 * disjoint, at most {@code maxRangeBytes} long, start at their first piece and end at their last,
 * and lie inside {@code [displacement, fileEnd)}; {@code fileEnd} is one past the last byte, so a
 * reader refuses exactly the ranges reaching past the file length; a filetype going backwards in
 * the file is an {@link IllegalArgumentException} exactly when the requested bytes go backwards.
 * Only documented exceptions (IllegalArgumentException) escape. Runs the committed corpus in every
 * build; {@code JAZZER_FUZZ=1} fuzzes for real.
 */
class RangePlannerFuzzTest {
    private static final Primitive[] ETYPES = {Primitive.BYTE, Primitive.INT16, Primitive.INT32, Primitive.FLOAT64};
    private static final long MAX_TILE_BYTES = 2048;

    @FuzzTest(maxDuration = "2m")
    void plan(FuzzedDataProvider data) {
        Primitive etype = ETYPES[data.consumeInt(0, ETYPES.length - 1)];
        Datatype ft;
        FileView view;
        try {
            ft = filetype(data, etype);
            if (ft.byteSize() > MAX_TILE_BYTES || ft.extent() > (1L << 20)) {
                return;
            }
            view = new FileView(data.consumeLong(0, 1000), etype, ft);
        } catch (IllegalArgumentException invalid) {
            assertThat(invalid.getMessage()).isNotBlank();
            return;
        }
        long maxRange = data.consumeLong(1, 300);
        SievingPolicy policy = new SievingPolicy(
                data.consumeLong(-1, 200), maxRange, data.consumeInt(1, 9), data.consumeLong(maxRange, 4 * maxRange));
        long tile = view.tileByteSize();
        long start = data.consumeLong(0, 3 * tile);
        long length = data.consumeLong(0, 3 * tile);
        long fileLength = data.consumeLong(0, 1L << 22);

        // Reference: file offset of each stream byte of enough whole tiles.
        long tiles = (start + length) / tile + 1;
        long[] expected = new long[(int) (tiles * tile)];
        int k = 0;
        for (Piece p : Packing.flatten(Datatype.contiguous(tiles, ft), 1)) {
            for (long b = 0; b < p.length(); b++) {
                expected[k++] = view.displacement() + p.offset() + b;
            }
        }
        assertThat(k).isEqualTo(expected.length);
        long[] want = Arrays.copyOfRange(expected, (int) start, (int) (start + length));
        boolean forward = true;
        for (int i = 1; i < want.length; i++) {
            forward &= want[i] > want[i - 1];
        }

        RangePlanner planner = new RangePlanner(view, policy);
        if (!forward) {
            assertThatThrownBy(() -> drain(planner, start, length, maxRange, want.length))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("monotonically non-decreasing");
            return;
        }
        long[] got = drain(planner, start, length, maxRange, want.length);
        assertThat(got).isEqualTo(want);
        long fileEnd = planner.fileEnd(start, length);
        assertThat(fileEnd).isEqualTo(length == 0 ? 0 : want[want.length - 1] + 1);
        if (length > 0) {
            assertThat(want[0]).isGreaterThanOrEqualTo(view.displacement());
            // a reader of a file of fileLength bytes accepts the range exactly when every byte is inside it
            assertThat(fileEnd <= fileLength).isEqualTo(want[want.length - 1] < fileLength);
        }
    }

    /** Plans the range and returns the file offset of each planned byte, checking every batch. */
    private static long[] drain(RangePlanner planner, long start, long length, long maxRange, int expectedBytes) {
        long[] got = new long[expectedBytes];
        int n = 0;
        long lastRangeEnd = Long.MIN_VALUE;
        long streamPos = start;
        RangePlanner.Cursor c = planner.plan(start, length);
        for (RangePlanner.Batch b = c.next(); b != null; b = c.next()) {
            assertThat(b.streamOffset()).isEqualTo(streamPos);
            assertThat(b.pieceCount()).isPositive();
            streamPos += b.byteLength();
            long[] firstPiece = new long[b.rangeCount()];
            long[] lastPieceEnd = new long[b.rangeCount()];
            Arrays.fill(firstPiece, -1);
            for (int r = 0; r < b.rangeCount(); r++) {
                assertThat(b.rangeOffset(r))
                        .isGreaterThanOrEqualTo(lastRangeEnd)
                        .isGreaterThanOrEqualTo(planner.view().displacement());
                assertThat(b.rangeLength(r)).isBetween(1L, maxRange);
                lastRangeEnd = b.rangeOffset(r) + b.rangeLength(r);
            }
            long bytes = 0;
            int prevRange = 0;
            for (int i = 0; i < b.pieceCount(); i++) {
                int r = b.pieceRange(i);
                assertThat(r).isBetween(prevRange, b.rangeCount() - 1);
                prevRange = r;
                assertThat(b.pieceLength(i)).isPositive();
                assertThat(b.pieceOffset(i)).isGreaterThanOrEqualTo(b.rangeOffset(r));
                assertThat(b.pieceOffset(i) + b.pieceLength(i))
                        .isLessThanOrEqualTo(b.rangeOffset(r) + b.rangeLength(r));
                if (firstPiece[r] < 0) {
                    firstPiece[r] = b.pieceOffset(i);
                }
                lastPieceEnd[r] = b.pieceOffset(i) + b.pieceLength(i);
                assertThat(n + b.pieceLength(i)).as("planned bytes").isLessThanOrEqualTo(expectedBytes);
                for (long j = 0; j < b.pieceLength(i); j++) {
                    got[n++] = b.pieceOffset(i) + j;
                }
                bytes += b.pieceLength(i);
            }
            assertThat(bytes).isEqualTo(b.byteLength());
            for (int r = 0; r < b.rangeCount(); r++) {
                assertThat(firstPiece[r]).as("range %d holds a piece", r).isEqualTo(b.rangeOffset(r));
                assertThat(lastPieceEnd[r])
                        .as("range %d ends at its last piece", r)
                        .isEqualTo(b.rangeOffset(r) + b.rangeLength(r));
            }
        }
        assertThat(n).as("planned bytes").isEqualTo(expectedBytes);
        assertThat(c.plannedBytes()).isEqualTo(length);
        return got;
    }

    /** A filetype of up to three fuzzed constructors over the etype (arguments may be invalid). */
    private static Datatype filetype(FuzzedDataProvider data, Primitive etype) {
        Datatype t = etype;
        int depth = data.consumeInt(0, 3);
        for (int d = 0; d < depth; d++) {
            t = switch (data.consumeInt(0, 6)) {
                case 0 -> Datatype.contiguous(data.consumeLong(0, 6), t);
                case 1 -> Datatype.vector(data.consumeLong(0, 5), data.consumeLong(0, 4), data.consumeLong(-6, 8), t);
                case 2 ->
                    Datatype.hvector(data.consumeLong(0, 5), data.consumeLong(0, 4), data.consumeLong(-64, 200), t);
                case 3 -> {
                    int n = data.consumeInt(0, 4);
                    long[] bl = new long[n];
                    long[] disp = new long[n];
                    for (int i = 0; i < n; i++) {
                        bl[i] = data.consumeLong(0, 4);
                        disp[i] = data.consumeLong(-4, 20);
                    }
                    yield Datatype.indexed(bl, disp, t);
                }
                case 4 -> {
                    int n = data.consumeInt(0, 4);
                    long[] disp = new long[n];
                    for (int i = 0; i < n; i++) {
                        disp[i] = data.consumeLong(-32, 300);
                    }
                    yield Datatype.hindexedBlock(data.consumeLong(0, 3), disp, t);
                }
                case 5 -> Datatype.resized(data.consumeLong(-16, 64), data.consumeLong(-16, 400), t);
                default -> {
                    long[] sizes = {data.consumeLong(1, 6), data.consumeLong(1, 6)};
                    long[] sub = {data.consumeLong(1, 6), data.consumeLong(1, 6)};
                    long[] starts = {data.consumeLong(0, 5), data.consumeLong(0, 5)};
                    yield Datatype.subarray(
                            sizes,
                            sub,
                            starts,
                            data.consumeBoolean() ? dev.layout.datatype.Order.C : dev.layout.datatype.Order.F,
                            t);
                }
            };
        }
        return t;
    }
}
