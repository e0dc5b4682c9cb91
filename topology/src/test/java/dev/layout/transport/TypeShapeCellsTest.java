package dev.layout.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layout.dataloop.Segment;
import dev.layout.datatype.Datatype;
import dev.layout.datatype.Primitive;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The type shape in the adaptive policy's cell key: messages of the same peer, size class, block
 * class and memory but of different shapes learn apart, what a shape is for the engine's compiled
 * types, and the cell table's bound.
 */
class TypeShapeCellsTest {
    static final long BLOCKS = AdaptiveSendPolicyTest.GATHER_BLOCKS;
    static final long BYTES = AdaptiveSendPolicyTest.BYTES;

    @Test
    void twoShapesOfOneSizeEachConvergeToTheirOwnFasterArm() {
        for (long seed = 0; seed < 5; seed++) {
            AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
            Random r = new Random(seed);
            // the same bytes in the same blocks to the same peer, opposite faster arms by 12%
            var strided = new AdaptiveSendPolicyTest.Oracle(7_300_000, 8_200_000, r);
            var listed = new AdaptiveSendPolicyTest.Oracle(8_200_000, 7_300_000, r);
            int[] lastStrided = new int[3];
            int[] lastListed = new int[3];
            int n = 400;
            for (int i = 0; i < n; i++) { // interleaved, as two types sent in turn
                send(p, TypeShape.STRIDED, strided, i >= n - n / 4 ? lastStrided : null);
                send(p, TypeShape.LISTED, listed, i >= n - n / 4 ? lastListed : null);
            }
            assertThat(p.best(1, TypeShape.STRIDED, BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.PACK);
            assertThat(p.best(1, TypeShape.LISTED, BLOCKS, BYTES, false))
                    .as("seed %d", seed)
                    .isEqualTo(SendStrategy.GATHER);
            // each settled on its own arm: the other only re-checked now and then
            assertThat(lastStrided[SendStrategy.GATHER.ordinal()])
                    .as("seed %d", seed)
                    .isLessThanOrEqualTo(n / 20);
            assertThat(lastListed[SendStrategy.PACK.ordinal()])
                    .as("seed %d", seed)
                    .isLessThanOrEqualTo(n / 20);
        }
    }

    private static void send(AdaptiveSendPolicy p, TypeShape shape, AdaptiveSendPolicyTest.Oracle o, int[] used) {
        SendStrategy s = p.choose(1, shape, BLOCKS, BYTES, false);
        p.observe(1, shape, BLOCKS, BYTES, false, s, o.time(s));
        if (used != null) {
            used[s.ordinal()]++;
        }
    }

    @Test
    void theShapeIsTheCompiledLoopsNotHowTheTypeWasWritten() {
        // bench pingpong's rows: one block is one run however it is written, as is the contiguous floor
        assertThat(shape(Datatype.vector(1, 1024, 2048, Primitive.FLOAT32), 1)).isEqualTo(TypeShape.RUN);
        assertThat(shape(Datatype.indexed(new long[] {1024}, new long[] {0}, Primitive.FLOAT32), 1))
                .isEqualTo(TypeShape.RUN);
        assertThat(shape(Primitive.FLOAT32, 1024)).isEqualTo(TypeShape.RUN);
        assertThat(shape(Datatype.vector(3, 342, 684, Primitive.FLOAT32), 1)).isEqualTo(TypeShape.STRIDED);
        // evenly spaced equal blocks are a vector, whatever the constructor
        assertThat(shape(Datatype.indexed(new long[] {4, 4, 4}, new long[] {0, 8, 16}, Primitive.FLOAT32), 1))
                .isEqualTo(TypeShape.STRIDED);
        assertThat(shape(Datatype.indexed(new long[] {341, 341, 342}, new long[] {0, 682, 1364}, Primitive.FLOAT32), 1))
                .isEqualTo(TypeShape.LISTED);
        Datatype particle = Datatype.resized(
                0,
                24,
                Datatype.struct(
                        new long[] {2, 1, 1},
                        new long[] {0, 12, 20},
                        List.of(Primitive.FLOAT32, Primitive.INT32, Primitive.FLOAT32)));
        assertThat(shape(particle, 1)).isEqualTo(TypeShape.LISTED);
        assertThat(shape(Datatype.vector(4, 2, 4, Datatype.vector(3, 1, 2, Primitive.FLOAT32)), 1))
                .isEqualTo(TypeShape.NESTED);
        assertThat(TypeShape.of(null)).isEqualTo(TypeShape.RUN);
    }

    private static TypeShape shape(Datatype type, long count) {
        return BlockEstimates.estimate(Segment.layout(type, count)).shape();
    }

    @Test
    void pastTheMostCellsNewKeysShareAnOverflowCell() {
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        for (int peer = 0; peer < SendCells.MOST_CELLS; peer++) {
            p.cell(peer, TypeShape.RUN, BLOCKS, BYTES, false);
        }
        SendCell first = p.cell(SendCells.MOST_CELLS, TypeShape.RUN, BLOCKS, BYTES, false);
        SendCell second = p.cell(SendCells.MOST_CELLS + 1, TypeShape.STRIDED, BLOCKS, BYTES, false);
        assertThat(second).as("the overflow cell of messages the model gathers").isSameAs(first);
        assertThat(p.cell(SendCells.MOST_CELLS + 2, TypeShape.RUN, AdaptiveSendPolicyTest.PACK_BLOCKS, BYTES, false))
                .as("the overflow cell of messages the model packs")
                .isNotSameAs(first)
                .isSameAs(p.cell(SendCells.MOST_CELLS + 3, TypeShape.NESTED, 1 << 21, BYTES, false));
        // cells made before the table filled are still each their own
        assertThat(p.cell(0, TypeShape.RUN, BLOCKS, BYTES, false))
                .isSameAs(p.cell(0, TypeShape.RUN, BLOCKS, BYTES, false))
                .isNotSameAs(first);
    }

    @Test
    void aNullShapeIsRefused() {
        AdaptiveSendPolicy p = new AdaptiveSendPolicy(SendCostModel.DEFAULTS);
        assertThatThrownBy(() -> p.choose(1, null, BLOCKS, BYTES, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shape null");
    }
}
