package dev.layout.spark.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Thumbnails and statistics summed from every rank's block equal the same figures of the whole field. */
class ThumbnailTest {
    static final GridFunction FIELD = at -> at[0] * 1000.0 + at[1] * 10.0 + (at.length > 2 ? at[2] : 0);

    static Thumbnail picture(DistributedGrid g, int max) {
        Thumbnail t = Thumbnail.empty(g, max);
        for (int r = 0; r < g.ranks(); r++) {
            t.add(Thumbnail.partial(g, g.newBlock(r, FIELD), max));
        }
        return t;
    }

    @Test
    void aPictureAsLargeAsThePlaneIsThePlane() {
        DistributedGrid g = DistributedGrid.of(new int[] {17, 13}, new int[] {2, 3}, 1, new boolean[] {false, false});
        Thumbnail t = picture(g, 1024);
        assertThat(t.rows()).isEqualTo(17);
        assertThat(t.cols()).isEqualTo(13);
        double[] m = t.means();
        for (int i = 0; i < 17; i++) {
            for (int j = 0; j < 13; j++) {
                assertThat(m[i * 13 + j]).isEqualTo(FIELD.at(new int[] {i, j}));
            }
        }
    }

    @Test
    void aThreeDimensionalFieldShowsTheMiddleSliceOfItsLastAxis() {
        DistributedGrid g =
                DistributedGrid.of(new int[] {6, 5, 7}, new int[] {2, 1, 2}, 1, new boolean[] {true, true, true});
        Thumbnail t = picture(g, 1024);
        assertThat(Thumbnail.caption(g)).isEqualTo("slice x2 = 3 of 7 (rows x0, columns x1)");
        double[] m = t.means();
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 5; j++) {
                assertThat(m[i * 5 + j]).isEqualTo(FIELD.at(new int[] {i, j, 3}));
            }
        }
    }

    @Test
    void tilesAreMeansOfTheirCellsAcrossBlockBorders() {
        DistributedGrid g = DistributedGrid.of(new int[] {37, 23}, new int[] {3, 2}, 1, new boolean[] {false, false});
        Thumbnail t = picture(g, 5);
        assertThat(t.rows()).isEqualTo(5);
        assertThat(t.cols()).isEqualTo(5);
        double[] sums = new double[25];
        int[] counts = new int[25];
        for (int i = 0; i < 37; i++) {
            for (int j = 0; j < 23; j++) {
                int k = (i * 5 / 37) * 5 + j * 5 / 23; // the naive model: tile of a cell by its own coordinates
                sums[k] += FIELD.at(new int[] {i, j});
                counts[k]++;
            }
        }
        double[] m = t.means();
        for (int k = 0; k < 25; k++) {
            assertThat(m[k]).isCloseTo(sums[k] / counts[k], within(1e-9));
        }
    }

    @Test
    void statisticsOfTheBlocksCombineToThoseOfTheField() {
        DistributedGrid g = DistributedGrid.of(new int[] {9, 11}, new int[] {2, 2}, 1, new boolean[] {false, false});
        long count = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        double sq = 0;
        long nonZero = 0;
        for (int r = 0; r < g.ranks(); r++) {
            GridStats s = GridStats.of(g.newBlock(r, FIELD));
            count += s.count();
            min = Math.min(min, s.min());
            max = Math.max(max, s.max());
            sum += s.sum();
            sq += s.sumOfSquares();
            nonZero += s.nonZero();
        }
        assertThat(count).isEqualTo(99);
        assertThat(min).isEqualTo(0.0);
        assertThat(max).isEqualTo(8 * 1000.0 + 10 * 10.0);
        assertThat(nonZero).isEqualTo(98);
        double expectSum = 0;
        double expectSq = 0;
        for (int i = 0; i < 9; i++) {
            for (int j = 0; j < 11; j++) {
                double v = FIELD.at(new int[] {i, j});
                expectSum += v;
                expectSq += v * v;
            }
        }
        assertThat(sum).isCloseTo(expectSum, within(1e-6));
        assertThat(sq).isCloseTo(expectSq, within(1e-3));
    }

    @Test
    void statisticsReducedOverTheCommunicatorAreTheSameOnEveryRank() {
        DistributedGrid g = DistributedGrid.of(new int[] {9, 11}, new int[] {2, 2}, 1, new boolean[] {false, false});
        java.util.List<GridStats> all = dev.layout.comm.InProcessLauncher.run(
                g.ranks(), java.time.Duration.ofSeconds(30), world -> GridStats.of(g.newBlock(world.rank(), FIELD))
                        .allreduce(world));
        assertThat(all).hasSize(4).allSatisfy(s -> {
            assertThat(s.count()).isEqualTo(99);
            assertThat(s.min()).isEqualTo(0.0);
            assertThat(s.max()).isEqualTo(8100.0);
            assertThat(s.nonZero()).isEqualTo(98);
            assertThat(s).isEqualTo(all.get(0));
        });
    }
}
