package dev.layout.fileview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.dataloop.Packing;
import dev.layout.dataloop.Piece;
import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Order;
import dev.layout.datatype.Primitive;
import dev.layout.memory.Memory;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The arithmetic of two-phase I/O against a naive byte-by-byte model: a view's data cut by a file
 * range is the data bytes whose file byte lies in the range, in order, and the intersection's
 * datatype packs exactly those bytes out of a buffer holding the range. File domains cover the
 * file without gaps and fall on block bounds where the file has two blocks or more.
 */
class ViewIntersectionPropertyTest {

    /** File byte of every data byte of {@code length} bytes from stream byte {@code start}: the model. */
    private static List<Long> model(FileView view, long start, long length) {
        long tiles = (start + length) / view.tileByteSize() + 1;
        List<Long> all = new ArrayList<>();
        for (Piece p : Packing.flatten(Datatype.contiguous(tiles, view.filetype()), 1)) {
            for (long b = 0; b < p.length(); b++) {
                all.add(view.displacement() + p.offset() + b);
            }
        }
        return all.subList((int) start, (int) (start + length));
    }

    @Property(tries = 300)
    void intersectionIsTheDataBytesInTheRangeAndItsTypePacksThem(
            @ForAll @IntRange(min = 1, max = 5) int nz,
            @ForAll @IntRange(min = 1, max = 6) int ny,
            @ForAll @IntRange(min = 1, max = 7) int nx,
            @ForAll @IntRange(min = 0, max = 6) int z0,
            @ForAll @IntRange(min = 0, max = 6) int y0,
            @ForAll @IntRange(min = 0, max = 6) int x0,
            @ForAll @IntRange(min = 0, max = 40) int disp,
            @ForAll @IntRange(min = 0, max = 20) int startEtype,
            @ForAll @IntRange(min = 0, max = 50) int etypes,
            @ForAll @IntRange(min = 0, max = 900) int lo,
            @ForAll @IntRange(min = 0, max = 900) int width) {
        long[] sizes = {nz, ny, nx};
        long[] sub = {Math.max(1, nz - z0 % nz), Math.max(1, ny - y0 % ny), Math.max(1, nx - x0 % nx)};
        long[] starts = {(nz - sub[0]) / 2, ny - sub[1], (nx - sub[2]) / 3};
        FileView view = new FileView(
                disp, Primitive.FLOAT64, Datatype.subarray(sizes, sub, starts, Order.C, Primitive.FLOAT64));
        long start = 8L * startEtype;
        long length = 8L * etypes;
        long hi = lo + width;
        List<Long> files = model(view, start, length);

        ViewIntersection x = ViewIntersection.of(view, start, length);
        long[] range = x.streamRange(lo, hi);
        List<Integer> inside = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i) >= lo && files.get(i) < hi) {
                inside.add(i);
            }
        }
        assertThat(range[1] - range[0]).isEqualTo((long) inside.size());
        if (!inside.isEmpty()) {
            assertThat(range[0]).isEqualTo((long) inside.get(0));
            assertThat(range[1]).isEqualTo(inside.get(inside.size() - 1) + 1L);
            assertThat(x.fileStart()).isEqualTo(files.get(0));
            assertThat(x.fileEnd()).isEqualTo(files.get(files.size() - 1) + 1);
        }

        Datatype t = x.fileType(lo, hi);
        if (inside.isEmpty()) {
            assertThat(t).isNull();
            return;
        }
        // A buffer holding file bytes [lo, hi), each byte tagged with its file offset; packing the type must yield the
        // tags of the inside bytes.
        byte[] buf = new byte[(int) (hi - lo)];
        for (int i = 0; i < buf.length; i++) {
            buf[i] = (byte) ((lo + i) * 31 + 7);
        }
        byte[] packed = new byte[(int) t.byteSize()];
        Segment.of(t, 1, Memory.ofArray(buf), 0).pack(Memory.ofArray(packed), 0, packed.length);
        assertThat(packed).hasSize(inside.size());
        for (int k = 0; k < packed.length; k++) {
            assertThat(packed[k]).isEqualTo((byte) (files.get(inside.get(k)) * 31 + 7));
        }
        ViewIntersection.Runs runs = x.runs(lo, hi);
        for (int i = 1; i < runs.offsets().length; i++) {
            assertThat(runs.offsets()[i])
                    .isGreaterThan(runs.offsets()[i - 1] + runs.lengths()[i - 1]); // merged: no touching runs
        }
    }

    @Property(tries = 300)
    void runCountCountsTheContiguousRunsOfTheModel(
            @ForAll @IntRange(min = 1, max = 6) int ny,
            @ForAll @IntRange(min = 1, max = 7) int nx,
            @ForAll @IntRange(min = 0, max = 6) int y0,
            @ForAll @IntRange(min = 0, max = 6) int x0,
            @ForAll @IntRange(min = 0, max = 30) int etypes) {
        long[] sizes = {ny, nx};
        long[] sub = {Math.max(1, ny - y0 % ny), Math.max(1, nx - x0 % nx)};
        FileView view = new FileView(
                0,
                Primitive.FLOAT64,
                Datatype.subarray(sizes, sub, new long[] {ny - sub[0], nx - sub[1]}, Order.C, Primitive.FLOAT64));
        List<Long> files = model(view, 0, 8L * etypes);
        long runs = files.isEmpty() ? 0 : 1;
        for (int i = 1; i < files.size(); i++) {
            if (files.get(i) != files.get(i - 1) + 1) {
                runs++;
            }
        }
        assertThat(ViewIntersection.of(view, 0, 8L * etypes).runCount()).isEqualTo(runs);
    }

    /** A view whose file offsets go back is refused by {@code runCount} (which collective I/O calls first), naming the byte. */
    @Example
    void runCountRefusesAViewWhoseFileOffsetsGoBack() {
        FileView view = new FileView(
                0, Primitive.BYTE, Datatype.hindexed(new long[] {8, 8}, new long[] {16, 0}, Primitive.BYTE));
        assertThatThrownBy(() -> ViewIntersection.of(view, 0, 16).runCount())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "file byte 0 comes after file byte 23 (expected: monotonically non-decreasing file order)");
    }

    @Property(tries = 500)
    void alignedDomainsCoverTheFileOnBlockBounds(
            @ForAll @LongRange(min = 1, max = 1L << 40) long length,
            @ForAll @IntRange(min = 1, max = 64) int count,
            @ForAll @LongRange(min = 1, max = 1L << 30) long block,
            @ForAll @LongRange(min = 1, max = 1L << 24) long minDomain) {
        FileDomains d = FileDomains.aligned(length, count, block, minDomain);
        assertThat(d.bound(0)).isZero();
        assertThat(d.fileLength()).isEqualTo(length);
        assertThat(d.count()).isBetween(1, count);
        long blocks = (length - 1) / block + 1;
        for (int i = 1; i < d.count(); i++) {
            assertThat(d.bound(i)).isGreaterThan(d.bound(i - 1));
            if (blocks >= 2) {
                assertThat(d.bound(i) % block)
                        .as("bound %d of %s, block %d", i, d, block)
                        .isZero();
            } else {
                assertThat(d.end(i) - d.start(i)).isGreaterThanOrEqualTo(Math.min(minDomain, length / d.count()));
            }
        }
        if (blocks >= 2) {
            assertThat(d.count()).isEqualTo((int) Math.min(count, blocks));
        }
    }
}
