package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.bench.memory.Target;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every hand-written loop moves exactly the bytes the engine moves: pack output equal, and unpack of
 * the same packed stream into a zeroed buffer leaves equal buffers, for every case and memory target
 * (small variants of the same shapes, so the test stays fast).
 */
class RossCaseTest {
    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (RossCase c : RossCase.values()) {
            for (Target t : Target.values()) {
                out.add(Arguments.of(c, t));
            }
        }
        return out;
    }

    /**
     * Every suite layout (both sizes, both representations) compiles to a dataloop that moves exactly
     * its type map's bytes (the naive interpreter; small size) and lists no more blocks in a node than
     * its description bounds ({@link CompiledShape#listBound}): however the compiler normalizes a
     * suite type, it stays a description of the same bytes and of the same order of size. (Its speed
     * is {@code layout bench pack}'s to show.)
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(RossCase.class)
    void theCompiledDataloopMovesTheTypeMapsBytesWithinTheDescriptionsListBound(RossCase c) {
        for (RossCase.Size size : RossCase.Size.values()) {
            RossCase.Instance inst = c.create(size);
            for (Representation rep : Representation.values()) {
                Dataloop d = DataloopCompiler.compile(inst.type, rep);
                assertThat(d.byteSize()).isEqualTo(inst.type.byteSize());
                assertThat(CompiledShape.longestList(d))
                        .as("%s %s %s:%n%s", c, size, rep, d.toTreeString())
                        .isLessThanOrEqualTo(CompiledShape.listBound(inst.type));
                if (size == RossCase.Size.SMALL) {
                    CompiledShape.assertMovesTheTypeMap(inst.type, Math.min(inst.count, 2), rep, c.ordinal());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void manualEqualsEngine(RossCase c, Target t) {
        RossCase.Instance inst = c.create(RossCase.Size.SMALL);
        assertThat(inst.packedBytes).isPositive();
        try (Target.Buf user = t.allocate(inst.userBytes);
                Target.Buf byEngine = t.allocate(inst.packedBytes);
                Target.Buf byHand = t.allocate(inst.packedBytes);
                Target.Buf userEngine = t.allocate(inst.userBytes);
                Target.Buf userHand = t.allocate(inst.userBytes)) {
            user.fillPattern();
            Segment s = Segment.of(inst.type, inst.count, user.memory, inst.origin);
            assertThat(s.pack(byEngine.memory, 0, inst.packedBytes)).isEqualTo(inst.packedBytes);
            // A reused segment packs the same bytes again.
            s.seek(0);
            assertThat(s.pack(byEngine.memory, 0, inst.packedBytes)).isEqualTo(inst.packedBytes);
            inst.pack(user.base, user.address, byHand.base, byHand.address);
            assertThat(byHand.memory.toArray(0, (int) inst.packedBytes))
                    .isEqualTo(byEngine.memory.toArray(0, (int) inst.packedBytes));

            Segment.of(inst.type, inst.count, userEngine.memory, inst.origin)
                    .unpack(byEngine.memory, 0, inst.packedBytes);
            inst.unpack(byEngine.base, byEngine.address, userHand.base, userHand.address);
            assertThat(userHand.memory.toArray(0, (int) inst.userBytes))
                    .isEqualTo(userEngine.memory.toArray(0, (int) inst.userBytes));
        }
    }
}
