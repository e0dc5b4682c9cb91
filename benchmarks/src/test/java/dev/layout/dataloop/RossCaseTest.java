package dev.layout.dataloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layout.bench.memory.Target;
import java.util.ArrayList;
import java.util.Arrays;
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
     * The compiler now compiles normalized descriptions; for every suite layout (both sizes, both
     * representations) the dataloop is the one it made from the description as given, field for
     * field, so the suite's speed is unchanged by construction. A change here needs a {@code layout
     * bench pack} comparison of the row (see {@code EngineNormalization}).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(RossCase.class)
    void normalizationLeavesTheSuitesDataloopsAsTheyWere(RossCase c) {
        for (RossCase.Size size : RossCase.Size.values()) {
            RossCase.Instance inst = c.create(size);
            for (Representation rep : Representation.values()) {
                // one element: a count wraps equal dataloops in the same loop
                Dataloop asGiven = DataloopCompiler.compileAsGiven(inst.type, rep);
                Dataloop compiled = DataloopCompiler.compile(inst.type, rep);
                assertThat(sameLoop(compiled, asGiven))
                        .as(
                                "%s %s %s:%n%s%nas given:%n%s",
                                c, size, rep, compiled.toTreeString(), asGiven.toTreeString())
                        .isTrue();
            }
        }
    }

    private static boolean sameLoop(Dataloop a, Dataloop b) {
        if (a == null || b == null) {
            return a == b;
        }
        boolean same = a.kind == b.kind
                && a.leaf == b.leaf
                && a.disp == b.disp
                && a.nblocks == b.nblocks
                && a.blocklen == b.blocklen
                && Arrays.equals(a.blocklens, b.blocklens)
                && a.stride == b.stride
                && Arrays.equals(a.offsets, b.offsets)
                && a.ext == b.ext
                && a.size == b.size
                && a.swapUnit == b.swapUnit
                && a.extent == b.extent
                && Arrays.equals(a.words, b.words)
                && sameLoop(a.child, b.child);
        if (!same || (a.children == null) != (b.children == null)) {
            return false;
        }
        for (int i = 0; a.children != null && i < a.children.length; i++) {
            if (a.children.length != b.children.length || !sameLoop(a.children[i], b.children[i])) {
                return false;
            }
        }
        return true;
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
